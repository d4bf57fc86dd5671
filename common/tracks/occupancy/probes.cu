// Probe kernels for the occupancy calculator: the same small kernel compiled
// with many different register counts (values held in registers, register
// caps from __launch_bounds__ and __maxnreg__) and static shared memory, and
// one opted in to the largest dynamic shared memory, so that a calculator
// can be compared with the CUDA runtime on real kernels. They are never run
// (each would write out[threadIdx.x]); lesson 02's program and its grading
// test only ask the runtime about them.
#include "course/check.h"
#include "tracks/occupancy/device.cuh"
#include "tracks/occupancy/track.h"

#include <utility>

namespace occupancy {

namespace {

// Holds kHeld values in registers from the start to the end (where `guard`,
// always 0, would fold them into out[blockIdx.x]), as step 03's kernel does; with
// kStaticShared > 0, also a static shared array of that many bytes.
template <int kHeld, int kStaticShared>
__device__ void probe_body(unsigned* out, unsigned guard) {
    static_assert(kHeld % 4 == 0 && kHeld / 4 <= 64, "held values come in 16-byte words, at most 64 of them");
    constexpr int kWords = kHeld / 4;
    uint4 held[kWords > 0 ? kWords : 1];
#pragma unroll
    for (int j = 0; j < kWords; ++j) held[j] = held_word(j);
    // A store between the loads and their use, as step 03's loop has: it
    // might overwrite held_words, so the loads cannot move after it.
    out[threadIdx.x] = threadIdx.x;
    unsigned folded = threadIdx.x;
    if constexpr (kStaticShared > 0) {
        __shared__ unsigned char table[kStaticShared];
        if (guard != 0) {
            table[threadIdx.x % kStaticShared] = static_cast<unsigned char>(folded);
            __syncthreads();
            folded += table[(threadIdx.x * 7) % kStaticShared];
        }
    }
    if (guard != 0) {
#pragma unroll
        for (int j = 0; j < kWords; ++j) folded = folded * 31u + (held[j].x ^ held[j].y ^ held[j].z ^ held[j].w);
        out[blockIdx.x] = folded;
    }
}

template <int kHeld, int kStaticShared>
__global__ void occupancy_probe(unsigned* out, unsigned guard) {
    probe_body<kHeld, kStaticShared>(out, guard);
}

// The same with an opted-in dynamic shared memory limit (a separate kernel:
// the attribute belongs to the function).
__global__ void occupancy_probe_opted_in(unsigned* out, unsigned guard) { probe_body<0, 0>(out, guard); }

// Register caps: __launch_bounds__(max threads, min blocks per SM) makes the
// compiler fit kMinBlocks blocks of kMaxThreads threads in the register file.
template <int kHeld, int kMaxThreads, int kMinBlocks>
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks) occupancy_probe_bounded(unsigned* out, unsigned guard) {
    probe_body<kHeld, 0>(out, guard);
}

// Exactly kRegisters registers (__maxnreg__, CUDA 12.4 and later): 256
// values held, the ones past the cap spilled. Register counts that are not a
// multiple of 8 (one allocation unit of 256 per warp) are where the
// allocation unit alone decides how many warps a partition holds; lesson
// 02's grading test needs them, and the compiler never picks them on its own.
#if defined(__CUDACC_VER_MAJOR__) && \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#define COURSE_HAS_MAXNREG 1
template <int kRegisters>
__global__ void __maxnreg__(kRegisters) occupancy_probe_capped(unsigned* out, unsigned guard) {
    probe_body<256, 0>(out, guard);
}
#endif

Probe probe(const std::string& name, const void* kernel) {
    Probe p{name, kernel, {}};
    CUDA_CHECK(cudaFuncGetAttributes(&p.attributes, kernel));
    return p;
}

template <int... kHeld>
void add_held(std::vector<Probe>& out, std::integer_sequence<int, kHeld...>) {
    (out.push_back(
         probe("held " + std::to_string(kHeld * 8), reinterpret_cast<const void*>(&occupancy_probe<kHeld * 8, 0>))),
     ...);
}

}  // namespace

std::vector<Probe> probes() {
    std::vector<Probe> out;
    // 0, 8, 16, ..., 200 values held: register counts from the least the
    // kernel needs to over 200.
    add_held(out, std::make_integer_sequence<int, 26>{});
    out.push_back(probe("held 4", reinterpret_cast<const void*>(&occupancy_probe<4, 0>)));
    out.push_back(probe("held 12", reinterpret_cast<const void*>(&occupancy_probe<12, 0>)));
    out.push_back(probe("held 36", reinterpret_cast<const void*>(&occupancy_probe<36, 0>)));
    out.push_back(probe("held 60", reinterpret_cast<const void*>(&occupancy_probe<60, 0>)));
    // Static shared memory (with a few values held).
    out.push_back(probe("static 100 B", reinterpret_cast<const void*>(&occupancy_probe<8, 100>)));
    out.push_back(probe("static 2000 B", reinterpret_cast<const void*>(&occupancy_probe<8, 2000>)));
    out.push_back(probe("static 6144 B", reinterpret_cast<const void*>(&occupancy_probe<24, 6144>)));
    out.push_back(probe("static 20000 B", reinterpret_cast<const void*>(&occupancy_probe<8, 20000>)));
    out.push_back(probe("static 40000 B", reinterpret_cast<const void*>(&occupancy_probe<48, 40000>)));
    // Register caps.
    out.push_back(
        probe("launch bounds 1024x1, held 96", reinterpret_cast<const void*>(&occupancy_probe_bounded<96, 1024, 1>)));
    out.push_back(
        probe("launch bounds 256x4, held 96", reinterpret_cast<const void*>(&occupancy_probe_bounded<96, 256, 4>)));
    out.push_back(
        probe("launch bounds 256x3, held 96", reinterpret_cast<const void*>(&occupancy_probe_bounded<96, 256, 3>)));
    out.push_back(
        probe("launch bounds 384x2, held 96", reinterpret_cast<const void*>(&occupancy_probe_bounded<96, 384, 2>)));
    out.push_back(
        probe("launch bounds 128x8, held 96", reinterpret_cast<const void*>(&occupancy_probe_bounded<96, 128, 8>)));
    out.push_back(
        probe("launch bounds 128x5, held 200", reinterpret_cast<const void*>(&occupancy_probe_bounded<200, 128, 5>)));
    out.push_back(
        probe("launch bounds 96x6, held 200", reinterpret_cast<const void*>(&occupancy_probe_bounded<200, 96, 6>)));
#ifdef COURSE_HAS_MAXNREG
    // Register counts where the allocation unit decides on the GPUs of the
    // course (4 partitions of 16384 registers, units of 256 per warp: 37 and
    // 101 registers, not rounded, would give 13 and 5 warps a partition;
    // rounded up to 40 and 104, 12 and 4), and 255, the most a thread may
    // have, where a block of 8 warps just fits the per-block limit and 9 do
    // not.
    out.push_back(probe("registers capped at 37", reinterpret_cast<const void*>(&occupancy_probe_capped<37>)));
    out.push_back(probe("registers capped at 44", reinterpret_cast<const void*>(&occupancy_probe_capped<44>)));
    out.push_back(probe("registers capped at 50", reinterpret_cast<const void*>(&occupancy_probe_capped<50>)));
    out.push_back(probe("registers capped at 84", reinterpret_cast<const void*>(&occupancy_probe_capped<84>)));
    out.push_back(probe("registers capped at 101", reinterpret_cast<const void*>(&occupancy_probe_capped<101>)));
    out.push_back(probe("registers capped at 170", reinterpret_cast<const void*>(&occupancy_probe_capped<170>)));
    out.push_back(probe("registers capped at 255", reinterpret_cast<const void*>(&occupancy_probe_capped<255>)));
#endif
    // Opted in to the largest dynamic shared memory a block may have.
    int device = 0, optin = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const void* opted = reinterpret_cast<const void*>(&occupancy_probe_opted_in);
    CUDA_CHECK(cudaFuncSetAttribute(opted, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
    out.push_back(probe("held 0, opted in", opted));
    return out;
}

}  // namespace occupancy
