// Occupancy, step 06: occupancy or instruction-level parallelism.
//
// To reach the DRAM bandwidth an SM needs enough loads in flight to cover the
// memory's latency (J. Seo's slides close on this): more warps (occupancy),
// or more independent loads per warp (instruction-level parallelism, ILP).
// Step 05's kernel kept one load in flight per thread. This one loads kLoads
// elements, a stride apart, before it uses any of them: kLoads loads in
// flight per thread, so 1/kLoads of the warps can move as many bytes at
// once as all of them did (a quarter with kLoads = 4: the low occupancy's 2
// blocks of 8 warps, 16 of Hopper's 64). The sweep runs each kLoads at low
// occupancy (2 blocks per SM, held there by shared memory) and at full
// occupancy.
#include "tracks/occupancy/device.cuh"
#include "tracks/occupancy/kernels.h"

#include <array>
#include <utility>

namespace {

template <int kLoads>
__global__ void stream_ilp(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n) {
    const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
    std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    // Whole groups of kLoads elements: every load issued before the first
    // value is needed, so all kLoads are in flight together.
#pragma unroll 1
    for (; i + (kLoads - 1) * stride < n; i += kLoads * stride) {
        unsigned v[kLoads];
#pragma unroll
        for (int k = 0; k < kLoads; ++k) v[k] = in[i + k * stride];
#pragma unroll
        for (int k = 0; k < kLoads; ++k) out[i + k * stride] = occupancy::stream_transform(v[k]);
    }
    // The last elements, fewer than a group: one at a time.
#pragma unroll 1
    for (; i < n; i += stride) out[i] = occupancy::stream_transform(in[i]);
}

// One kernel per variant of kLoadsPerThread, by index.
using Kernel = void (*)(const unsigned*, unsigned*, std::size_t);
template <int... kVariant>
constexpr std::array<Kernel, sizeof...(kVariant)> kernels_of(std::integer_sequence<int, kVariant...>) {
    return {&stream_ilp<occupancy::kLoadsPerThread[kVariant]>...};
}
const auto kKernels = kernels_of(std::make_integer_sequence<int, occupancy::kLoadsVariants>{});

}  // namespace

void occupancy::step06_ilp(const unsigned* in, unsigned* out, std::size_t n, const StreamShape& shape,
                           cudaStream_t stream) {
    check_variant(shape.variant, kLoadsVariants, "step 06");
    const Kernel kernel = kKernels[shape.variant];
    // The third launch parameter: dynamic shared memory per block.
    allow_dynamic_shared(reinterpret_cast<const void*>(kernel), shape.shared_bytes);
    const int threads = shape.threads;
    const int loads = kLoadsPerThread[shape.variant];
    kernel<<<stream_blocks(n, threads, loads), threads, shape.shared_bytes, stream>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}
