// Occupancy, step 03: registers per thread as the limiter.
//                                                          (your starting point)
// A new file: step 02 was host code. The memory-bound kernel, its variants
// and its launcher are done for you (each TODO(step 03) "done for you" marks
// them); the TODO(step 03) markers in the kernel are yours. README.md in this
// folder explains the step. Build and run:
// meson compile -C build occupancy-03 && build/lessons/occupancy-03
#include "tracks/occupancy/device.cuh"  // TODO(step 03): done for you
#include "tracks/occupancy/kernels.h"

// TODO(step 03): done for you: the table of variants below needs these.
#include <array>
#include <utility>

namespace {

constexpr int kThreads = 256;

template <int kHeld>
__global__ void stream_registers(const unsigned* __restrict__ in, unsigned* out, std::size_t n, unsigned guard) {
    static_assert(kHeld % 4 == 0 && kHeld / 4 <= 64, "held values come in 16-byte words, at most 64 of them");
    // TODO(step 03): hold kHeld values in registers from here to the end of
    // the kernel: an array `uint4 held[kWords > 0 ? kWords : 1]` of kWords =
    // kHeld / 4 words, each loaded from occupancy::held_word(j) in an
    // unrolled loop (tracks/occupancy/device.cuh says why from there).
    // One element per iteration, one load in flight per thread.
    const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
#pragma unroll 1
    for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = occupancy::stream_transform(in[i]);

    // TODO(step 03): use the held values after the loop, where the compiler
    // cannot drop them: if (guard != 0) (never: the launcher passes 0, but
    // the compiler cannot know), fold them into one value and store it in
    // out[0]. Until then every variant uses the same registers, and the
    // grading test says so.
}

// One kernel per variant of kHeldValues, by index.
using Kernel = void (*)(const unsigned*, unsigned*, std::size_t, unsigned);
template <int... kVariant>
constexpr std::array<Kernel, sizeof...(kVariant)> kernels_of(std::integer_sequence<int, kVariant...>) {
    return {&stream_registers<occupancy::kHeldValues[kVariant]>...};
}
const auto kKernels = kernels_of(std::make_integer_sequence<int, occupancy::kHeldVariants>{});

}  // namespace

// TODO(step 03): done for you: the launcher, one kernel per variant.
void occupancy::step03_registers(const unsigned* in, unsigned* out, std::size_t n, const StreamShape& shape,
                                 cudaStream_t stream) {
    check_variant(shape.variant, kHeldVariants, "step 03");
    // TODO(step 03): done for you: blocks of 256 threads, enough to fill the GPU.
    kKernels[shape.variant]<<<stream_blocks(n, kThreads, 1), kThreads, 0, stream>>>(in, out, n, 0u);
    CUDA_CHECK_LAUNCH();
}
