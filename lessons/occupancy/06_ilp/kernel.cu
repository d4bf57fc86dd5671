// Occupancy, step 06: occupancy or instruction-level parallelism.
//                                                          (your starting point)
// This is step 05's solution, its kernel and launcher renamed to this step's,
// made a template of kLoads with one kernel per variant (done for you), with
// TODO(step 06) markers where this step changes it; README.md in this folder
// explains the change. Build and run:
// meson compile -C build occupancy-06 && build/lessons/occupancy-06
#include "tracks/occupancy/device.cuh"
#include "tracks/occupancy/kernels.h"

// TODO(step 06): done for you: the table of variants below needs these.
#include <array>
#include <utility>

namespace {

// TODO(step 06): done for you: one kernel per kLoads.
template <int kLoads>
__global__ void stream_ilp(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n) {
    // TODO(step 06): kLoads loads in flight per thread. Walk through whole
    // groups of kLoads elements a stride apart (i, i + stride, ...,
    // i + (kLoads - 1) * stride; the next group starts kLoads strides on):
    // load all kLoads into an array in one unrolled loop, then transform and
    // store them in another, so no load waits for the one before. Keep the
    // loop over groups rolled (#pragma unroll 1), then finish the last
    // elements (fewer than a group) one at a time. Until then the loop below
    // keeps one load in flight, whatever kLoads is: right, and slow at low
    // occupancy.
    const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
#pragma unroll 1
    for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = occupancy::stream_transform(in[i]);
}

// TODO(step 06): done for you: one kernel per variant of kLoadsPerThread, by index.
using Kernel = void (*)(const unsigned*, unsigned*, std::size_t);
template <int... kVariant>
constexpr std::array<Kernel, sizeof...(kVariant)> kernels_of(std::integer_sequence<int, kVariant...>) {
    return {&stream_ilp<occupancy::kLoadsPerThread[kVariant]>...};
}
const auto kKernels = kernels_of(std::make_integer_sequence<int, occupancy::kLoadsVariants>{});

}  // namespace

void occupancy::step06_ilp(const unsigned* in, unsigned* out, std::size_t n, const StreamShape& shape,
                           cudaStream_t stream) {
    // TODO(step 06): done for you: the variant's kernel, and a grid for kLoads
    // elements per thread.
    check_variant(shape.variant, kLoadsVariants, "step 06");
    const Kernel kernel = kKernels[shape.variant];
    // The third launch parameter: dynamic shared memory per block.
    allow_dynamic_shared(reinterpret_cast<const void*>(kernel), shape.shared_bytes);
    const int threads = shape.threads;
    // TODO(step 06): done for you.
    const int loads = kLoadsPerThread[shape.variant];
    kernel<<<stream_blocks(n, threads, loads), threads, shape.shared_bytes, stream>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}
