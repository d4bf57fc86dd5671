// Basics, step 02: a grid-stride loop with 16-byte loads.
//
// Two changes to step 01, both aimed at the work each thread does per byte:
//
//  1. A grid-stride loop. The grid is sized to fill the GPU once (a few
//     blocks per multiprocessor), not to cover the array; each thread then
//     walks the array in steps of the whole grid's width. The starting index
//     and block start-up are paid once per thread instead of once per
//     element (what is left per trip is the loop's add and compare, for four
//     floats at a time), and the same launch works for any n.
//
//  2. 16-byte loads and stores. Reading a float4 moves four floats with one
//     instruction (LDG.E.128 in the SASS instead of four LDG.E), so a warp
//     asks for 512 contiguous bytes per instruction: a quarter of the load
//     instructions for the same bytes.
//
// A float4 access must be 16-byte aligned. cudaMalloc returns 256-byte
// aligned memory, but a pointer into the middle of an array (a + 1) is not,
// so the launcher takes the vector path only when a, b and c are all
// aligned, and otherwise runs the same loop on single floats. The last n % 4
// elements are done one by one.
//
// Both checks the launcher makes, aligned16 and resident_blocks (how many
// blocks the GPU holds at once), are in course/launch_helpers.h: later steps
// of other tracks size their grids the same way.
#include "tracks/basics/kernels.h"

#include "course/check.h"
#include "course/launch_helpers.h"

#include <algorithm>

namespace {

constexpr int kThreadsPerBlock = 256;

__global__ void vector_add_float4(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                  std::size_t n) {
    const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const std::size_t vectors = n / 4;
    const auto* a4 = reinterpret_cast<const float4*>(a);
    const auto* b4 = reinterpret_cast<const float4*>(b);
    auto* c4 = reinterpret_cast<float4*>(c);
    for (std::size_t i = first; i < vectors; i += stride) {
        const float4 x = a4[i];
        const float4 y = b4[i];
        c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    // The 0 to 3 floats after the last whole float4.
    for (std::size_t i = vectors * 4 + first; i < n; i += stride) c[i] = a[i] + b[i];
}

__global__ void vector_add_scalar(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                  std::size_t n) {
    const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = first; i < n; i += stride) c[i] = a[i] + b[i];
}

// One wave of blocks, or fewer when the work is small.
unsigned int grid_size(std::size_t resident, std::size_t work_items) {
    const std::size_t needed = (work_items + kThreadsPerBlock - 1) / kThreadsPerBlock;
    return static_cast<unsigned int>(std::max<std::size_t>(1, std::min(resident, needed)));
}

}  // namespace

void basics::step02_grid_stride(const float* a, const float* b, float* c, std::size_t n, cudaStream_t stream) {
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
