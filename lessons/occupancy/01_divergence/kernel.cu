// Occupancy, step 01: divergence, switch (threadIdx.x % N).
//                                                          (your starting point)
// This is step 01's solution with the switch taken out, where the
// TODO(step 01) marker is; README.md in this folder explains the step. Build
// and run:
// meson compile -C build occupancy-01 && build/lessons/occupancy-01
#include "tracks/occupancy/device.cuh"
#include "tracks/occupancy/kernels.h"

namespace {

constexpr int kThreads = occupancy::kDivergenceThreads;

// out[i] = case (threadIdx.x % cases) of in[i], a grid-stride loop: the
// stride is a multiple of the block, so every element a thread visits has
// the thread's case.
__global__ void divergent_cases(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n, int cases,
                                int rounds) {
    const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
    for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned v = in[i];
        // TODO(step 01): the switch. Let case threadIdx.x % cases decide what
        // happens to v: switch (threadIdx.x % static_cast<unsigned>(cases)),
        // with a case for each of 0 to 31 calling its own mix:
        //     case 0: v = occupancy::mix_case<0>(v, rounds); break;
        //     case 1: v = occupancy::mix_case<1>(v, rounds); break;
        //     ...
        // (predicated_cases below has the same switch with short cases). Until
        // then v is stored unchanged and the check fails.
        out[i] = v;
    }
}

// The same switch with one instruction per case, run `rounds` times: short
// branches the compiler is free to predicate.
__global__ void predicated_cases(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n, int cases,
                                 int rounds) {
    const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
    for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned v = in[i];
        const unsigned which = threadIdx.x % static_cast<unsigned>(cases);
        for (int r = 0; r < rounds; ++r) {
            switch (which) {
            case 0: v = occupancy::short_case<0>(v); break;
            case 1: v = occupancy::short_case<1>(v); break;
            case 2: v = occupancy::short_case<2>(v); break;
            case 3: v = occupancy::short_case<3>(v); break;
            case 4: v = occupancy::short_case<4>(v); break;
            case 5: v = occupancy::short_case<5>(v); break;
            case 6: v = occupancy::short_case<6>(v); break;
            case 7: v = occupancy::short_case<7>(v); break;
            case 8: v = occupancy::short_case<8>(v); break;
            case 9: v = occupancy::short_case<9>(v); break;
            case 10: v = occupancy::short_case<10>(v); break;
            case 11: v = occupancy::short_case<11>(v); break;
            case 12: v = occupancy::short_case<12>(v); break;
            case 13: v = occupancy::short_case<13>(v); break;
            case 14: v = occupancy::short_case<14>(v); break;
            case 15: v = occupancy::short_case<15>(v); break;
            case 16: v = occupancy::short_case<16>(v); break;
            case 17: v = occupancy::short_case<17>(v); break;
            case 18: v = occupancy::short_case<18>(v); break;
            case 19: v = occupancy::short_case<19>(v); break;
            case 20: v = occupancy::short_case<20>(v); break;
            case 21: v = occupancy::short_case<21>(v); break;
            case 22: v = occupancy::short_case<22>(v); break;
            case 23: v = occupancy::short_case<23>(v); break;
            case 24: v = occupancy::short_case<24>(v); break;
            case 25: v = occupancy::short_case<25>(v); break;
            case 26: v = occupancy::short_case<26>(v); break;
            case 27: v = occupancy::short_case<27>(v); break;
            case 28: v = occupancy::short_case<28>(v); break;
            case 29: v = occupancy::short_case<29>(v); break;
            case 30: v = occupancy::short_case<30>(v); break;
            case 31: v = occupancy::short_case<31>(v); break;
            }
        }
        out[i] = v;
    }
}

}  // namespace

void occupancy::step01_divergence(const unsigned* in, unsigned* out, std::size_t n, int cases, int rounds,
                                  cudaStream_t stream) {
    check_cases(cases, rounds);
    divergent_cases<<<stream_blocks(n, kThreads, 1), kThreads, 0, stream>>>(in, out, n, cases, rounds);
    CUDA_CHECK_LAUNCH();
}

void occupancy::step01_divergence_short(const unsigned* in, unsigned* out, std::size_t n, int cases, int rounds,
                                        cudaStream_t stream) {
    check_cases(cases, rounds);
    predicated_cases<<<stream_blocks(n, kThreads, 1), kThreads, 0, stream>>>(in, out, n, cases, rounds);
    CUDA_CHECK_LAUNCH();
}
