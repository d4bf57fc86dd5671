// Occupancy, step 03: registers per thread as the limiter.
//
// A memory-bound kernel, out[i] = in[i] * a + b, that keeps exactly one load
// in flight per thread: its loop stays rolled, so a thread asks for its next
// element only when the last one has arrived. How much of the DRAM bandwidth
// it reaches then depends on how many threads each SM holds: occupancy.
//
// Each variant of the kernel holds kHeld more values in registers for its
// whole run (tracks/occupancy/kernels.h lists them: 0 to 200). They stand for
// the state a real kernel keeps (accumulators, a tile, a filter window), and
// they are chosen so that the compiler must keep them: loaded before the loop
// from device memory that the loop's stores might overwrite, as far as it can
// tell (held_word, tracks/occupancy/device.cuh), and used after it in a
// branch that never runs but that it cannot rule out. The register count
// rises with kHeld, the occupancy the calculator predicts falls with it
// (J. Seo's slides: 63 + 1 registers leave a Fermi SM a third occupied), and
// the sweep shows what that does to the bandwidth. `out` is not __restrict__
// here: that is what keeps the compiler from moving the loads after the loop.
#include "tracks/occupancy/device.cuh"
#include "tracks/occupancy/kernels.h"

#include <array>
#include <utility>

namespace {

constexpr int kThreads = 256;

template <int kHeld>
__global__ void stream_registers(const unsigned* __restrict__ in, unsigned* out, std::size_t n, unsigned guard) {
    static_assert(kHeld % 4 == 0 && kHeld / 4 <= 64, "held values come in 16-byte words, at most 64 of them");
    // kHeld values held in registers from here to the end of the kernel.
    constexpr int kWords = kHeld / 4;
    uint4 held[kWords > 0 ? kWords : 1];
#pragma unroll
    for (int j = 0; j < kWords; ++j) held[j] = occupancy::held_word(j);

    // One element per iteration, one load in flight per thread.
    const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
#pragma unroll 1
    for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = occupancy::stream_transform(in[i]);

    // Never true (the launcher passes 0), but the compiler cannot know: the
    // held values stay live, in registers, through the loop.
    if (guard != 0) {
        unsigned folded = 0;
#pragma unroll
        for (int j = 0; j < kWords; ++j) folded = folded * 31u + (held[j].x ^ held[j].y ^ held[j].z ^ held[j].w);
        out[0] = folded;
    }
}

// One kernel per variant of kHeldValues, by index.
using Kernel = void (*)(const unsigned*, unsigned*, std::size_t, unsigned);
template <int... kVariant>
constexpr std::array<Kernel, sizeof...(kVariant)> kernels_of(std::integer_sequence<int, kVariant...>) {
    return {&stream_registers<occupancy::kHeldValues[kVariant]>...};
}
const auto kKernels = kernels_of(std::make_integer_sequence<int, occupancy::kHeldVariants>{});

}  // namespace

void occupancy::step03_registers(const unsigned* in, unsigned* out, std::size_t n, const StreamShape& shape,
                                 cudaStream_t stream) {
    check_variant(shape.variant, kHeldVariants, "step 03");
    kKernels[shape.variant]<<<stream_blocks(n, kThreads, 1), kThreads, 0, stream>>>(in, out, n, 0u);
    CUDA_CHECK_LAUNCH();
}
