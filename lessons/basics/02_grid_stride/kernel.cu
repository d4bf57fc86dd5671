// Basics, step 02: a grid-stride loop with 16-byte loads.  (your starting point)
//
// Write the two kernel bodies below. The launcher is complete: it launches
// one wave of blocks (as many as the GPU holds at once) instead of one thread
// per element, and picks the float4 kernel when a, b and c are 16-byte
// aligned. README.md in this folder explains the step; run your kernel with
// `meson compile -C build basics-02 && build/lessons/basics-02`.
#include "tracks/basics/kernels.h"

#include "course/check.h"
// TODO(step 02): done for you: two headers that step 01 did not need, for the
// launcher: aligned16 and resident_blocks (how many blocks the GPU holds at
// once, read the comments there), and std::max, std::min.
#include "course/launch_helpers.h"

#include <algorithm>

namespace {

constexpr int kThreadsPerBlock = 256;

__global__ void vector_add_float4(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                  std::size_t n) {
    // TODO(step 02): a grid-stride loop over the n / 4 whole float4s. Start
    // at this thread's global index, step by the number of threads in the
    // whole grid (gridDim.x * blockDim.x), in std::size_t. Read a and b
    // through `const float4*` (reinterpret_cast: the launcher checked the
    // alignment), add the four lanes, store one float4 into c.
    //
    // TODO(step 02): then the 0 to 3 floats after the last whole float4
    // (indices 4 * (n / 4) up to n), with the same grid-stride loop on floats.
}

__global__ void vector_add_scalar(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                  std::size_t n) {
    // TODO(step 02): the fallback for pointers that are not 16-byte aligned:
    // the same grid-stride loop, one float at a time, over all n elements.
}

// TODO(step 02): done for you: this helper of the launcher below, which
// replaces step 01's one-thread-per-element launch.
// One wave of blocks, or fewer when the work is small.
unsigned int grid_size(std::size_t resident, std::size_t work_items) {
    const std::size_t needed = (work_items + kThreadsPerBlock - 1) / kThreadsPerBlock;
    return static_cast<unsigned int>(std::max<std::size_t>(1, std::min(resident, needed)));
}

}  // namespace

void basics::step02_grid_stride(const float* a, const float* b, float* c, std::size_t n, cudaStream_t stream) {
    // TODO(step 02): done for you: one wave of blocks (not one thread per
    // element), and the float4 kernel only when a, b and c are 16-byte aligned.
    if (course::aligned16(a) && course::aligned16(b) && course::aligned16(c)) {
        // asked once per program
        static const std::size_t resident = course::resident_blocks(vector_add_float4, kThreadsPerBlock);
        vector_add_float4<<<grid_size(resident, (n + 3) / 4), kThreadsPerBlock, 0, stream>>>(a, b, c, n);
    } else {
        static const std::size_t resident = course::resident_blocks(vector_add_scalar, kThreadsPerBlock);
        vector_add_scalar<<<grid_size(resident, n), kThreadsPerBlock, 0, stream>>>(a, b, c, n);
    }
    CUDA_CHECK_LAUNCH();
}
