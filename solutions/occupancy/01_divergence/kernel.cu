// Occupancy, step 01: divergence, switch (threadIdx.x % N).
//
// The 32 threads of a warp share one instruction stream. When they disagree
// on a branch, the warp runs every path that any of its threads takes, one
// after the other, each with only its own threads active. J. Seo's slides
// ("CUDA Performance Consideration") measure it with switch (threadIdx.x % N):
// N neighbouring threads take N different cases, so a warp runs N paths, and
// the time grows with N as long as each case has real work to do.
//
// divergent_cases gives every case a loop of `rounds` rounds of its own mix
// (tracks/occupancy/device.cuh): the same work in each case, different code,
// and loops, which the compiler cannot turn into predicated instructions.
// predicated_cases does the opposite: one instruction per case, inside the
// loop. Such a short switch the compiler may predicate or turn into a
// select, and then N costs nothing (or everything, always): README.md shows
// how to tell the two apart in Nsight Compute.
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
        // N = cases neighbouring threads, N paths through the switch: each
        // case is a loop, and a warp runs the loops of all its cases in turn.
        switch (threadIdx.x % static_cast<unsigned>(cases)) {
        case 0: v = occupancy::mix_case<0>(v, rounds); break;
        case 1: v = occupancy::mix_case<1>(v, rounds); break;
        case 2: v = occupancy::mix_case<2>(v, rounds); break;
        case 3: v = occupancy::mix_case<3>(v, rounds); break;
        case 4: v = occupancy::mix_case<4>(v, rounds); break;
        case 5: v = occupancy::mix_case<5>(v, rounds); break;
        case 6: v = occupancy::mix_case<6>(v, rounds); break;
        case 7: v = occupancy::mix_case<7>(v, rounds); break;
        case 8: v = occupancy::mix_case<8>(v, rounds); break;
        case 9: v = occupancy::mix_case<9>(v, rounds); break;
        case 10: v = occupancy::mix_case<10>(v, rounds); break;
        case 11: v = occupancy::mix_case<11>(v, rounds); break;
        case 12: v = occupancy::mix_case<12>(v, rounds); break;
        case 13: v = occupancy::mix_case<13>(v, rounds); break;
        case 14: v = occupancy::mix_case<14>(v, rounds); break;
        case 15: v = occupancy::mix_case<15>(v, rounds); break;
        case 16: v = occupancy::mix_case<16>(v, rounds); break;
        case 17: v = occupancy::mix_case<17>(v, rounds); break;
        case 18: v = occupancy::mix_case<18>(v, rounds); break;
        case 19: v = occupancy::mix_case<19>(v, rounds); break;
        case 20: v = occupancy::mix_case<20>(v, rounds); break;
        case 21: v = occupancy::mix_case<21>(v, rounds); break;
        case 22: v = occupancy::mix_case<22>(v, rounds); break;
        case 23: v = occupancy::mix_case<23>(v, rounds); break;
        case 24: v = occupancy::mix_case<24>(v, rounds); break;
        case 25: v = occupancy::mix_case<25>(v, rounds); break;
        case 26: v = occupancy::mix_case<26>(v, rounds); break;
        case 27: v = occupancy::mix_case<27>(v, rounds); break;
        case 28: v = occupancy::mix_case<28>(v, rounds); break;
        case 29: v = occupancy::mix_case<29>(v, rounds); break;
        case 30: v = occupancy::mix_case<30>(v, rounds); break;
        case 31: v = occupancy::mix_case<31>(v, rounds); break;
        }
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
