#include "course/ceilings.h"

#include "course/check.h"

namespace course {

namespace {

constexpr int kThreads = 256;
constexpr int kLoadsInFlight = 4;

// Each thread keeps four independent 16-byte loads in flight per trip, and
// folds them into an XOR that the (never taken) store keeps alive.
__global__ void read_sweep(const int4* __restrict__ data, std::size_t count, int* sink) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    int acc = 0;
    for (; i + (kLoadsInFlight - 1) * stride < count; i += kLoadsInFlight * stride) {
        int4 v[kLoadsInFlight];
#pragma unroll
        for (int k = 0; k < kLoadsInFlight; ++k) v[k] = data[i + k * stride];
#pragma unroll
        for (int k = 0; k < kLoadsInFlight; ++k) acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
    }
    for (; i < count; i += stride) {
        const int4 v = data[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x2545f491) *sink = acc;
}

}  // namespace

TimingStats measure_read_sweep(Harness& harness, std::size_t bytes) {
    const std::size_t vectors = (bytes + sizeof(int4) - 1) / sizeof(int4);
    DeviceBuffer<int4> data(vectors);
    DeviceBuffer<int> sink(1);
    data.fill_bytes(0x3c);  // XOR of copies of one pattern never hits the sink's trigger
    int blocks_per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, read_sweep, kThreads, 0));
    const unsigned int blocks = static_cast<unsigned int>(harness.device.sm_count * blocks_per_sm);
    return time_launches(
        [&](cudaStream_t stream) {
            read_sweep<<<blocks, kThreads, 0, stream>>>(data.data(), vectors, sink.data());
            CUDA_CHECK_LAUNCH();
        },
        harness.timing, &harness.flusher, harness.stream.get());
}

}  // namespace course
