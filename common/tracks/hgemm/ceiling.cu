// The ceiling of the steps that multiply with mma.sync (03 to 06; WMMA, in
// 01 and 02, compiles to the same HMMA instructions): mma.sync m16n8k16 with
// its operands already in registers, no loads, no stores, no addresses, only
// independent multiply-adds. No kernel of those steps can go faster; the
// dense peak (track.h) is the rate of Hopper's wgmma (07 to 09), which the
// same tensor cores reach only through that instruction.
#include "tracks/hgemm/track.h"

#include "course/buffers.h"
#include "course/check.h"

#include <cstdint>

namespace hgemm {

namespace {

constexpr int kThreads = 256;      // 8 warps a block
constexpr int kBlocksPerSm = 2;    // 16 warps an SM, 4 a scheduler
constexpr int kChains = 4;         // independent accumulators a warp: the tensor pipe's latency hidden
constexpr int kIterations = 8192;  // about 0.44 ms on an H200 (lessons/hgemm/MEASURED.md)

// d += a * b, m16n8k16, FP16 in, FP32 accumulate; on Turing (7.5) as two
// m16n8k8, the same work.
__device__ inline void mma_16x8x16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
#if __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[2]), "r"(a[3]), "r"(b[1]));
#endif
}

// Each warp runs kChains chains of `iterations` multiply-adds into its own
// accumulators; the sums reach memory only in a store that never happens, so
// that the compiler keeps the work.
__global__ void __launch_bounds__(kThreads) mma_sync_from_registers(float* sink, int iterations) {
    std::uint32_t a[4], b[2];
    for (int i = 0; i < 4; ++i) a[i] = 0x3c003c00u ^ (threadIdx.x + i);  // halves near 1
    for (int i = 0; i < 2; ++i) b[i] = 0x3c003c00u ^ (threadIdx.x * 3 + i);
    float d[kChains][4] = {};
    for (int it = 0; it < iterations; ++it) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) mma_16x8x16(d[c], a, b);
    }
    float sum = 0;
    for (int c = 0; c < kChains; ++c) sum += d[c][0] + d[c][1] + d[c][2] + d[c][3];
    if (sum == 1234.5f) *sink = sum;
}

}  // namespace

MmaCeiling measure_mma_sync_ceiling(course::Harness& harness) {
    course::DeviceBuffer<float> sink(1);
    const unsigned int blocks = static_cast<unsigned int>(harness.device.sm_count * kBlocksPerSm);
    MmaCeiling ceiling;
    ceiling.flops = 2.0 * 16 * 8 * 16 * kChains * static_cast<double>(kIterations) * blocks * (kThreads / 32);
    ceiling.time = course::time_launches(
        [&](cudaStream_t stream) {
            mma_sync_from_registers<<<blocks, kThreads, 0, stream>>>(sink.data(), kIterations);
            CUDA_CHECK_LAUNCH();
        },
        harness.timing, &harness.flusher, harness.stream.get());
    return ceiling;
}

}  // namespace hgemm
