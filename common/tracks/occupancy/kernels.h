// The occupancy and divergence track, as a step's kernel.cu sees it.
//
// After J. Seo, "CUDA Performance Consideration" (lecture slides): warp
// divergence, occupancy (active warps over the most an SM can hold), its
// three limiters (registers, shared memory, block size), the occupancy
// calculator, and the slides' wrap-up: enough memory transactions in flight
// to reach the bandwidth, through occupancy or through instruction-level
// parallelism. Each step is a sweep (course/sweep.h): one kernel measured
// over a parameter, not a ladder of kernels. The machinery (problems, CPU
// references, sweeps): tracks/occupancy/track.h.
//
//   step 01  divergence: switch (threadIdx.x % N), N = 1, 2, 4, ..., 32
//   step 02  the occupancy calculator (host code: the student's function)
//   step 03  registers per thread as the limiter
//   step 04  shared memory per block as the limiter
//   step 05  threads per block as the limiter
//   step 06  occupancy or instruction-level parallelism
#pragma once

#include "course/check.h"
#include "course/kernel_copy.h"
#include "course/launch_helpers.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace occupancy {

// --- Step 01: divergence ----------------------------------------------------

// out[i] = the work of case threadIdx.x % cases on in[i]. Blocks of
// kDivergenceThreads threads stride through the array, so threadIdx.x %
// cases == i % cases for every power of two `cases` up to 32: the CPU
// reference knows each element's case from its index.
inline constexpr int kDivergenceThreads = 256;
inline constexpr int kMaxCases = 32;
// Rounds of each case's loop: enough work per case that the compiler keeps a
// branch (a loop cannot be predicated away) and that the divergence costs
// time, not just instructions hidden behind memory.
inline constexpr int kDivergenceRounds = 64;
static_assert(kDivergenceThreads % kMaxCases == 0, "every case count must divide the block");

// The step's launchers: the long cases (the student's kernel) and the short
// ones (one instruction per case, which the compiler may predicate). `cases`
// is 1, 2, 4, 8, 16 or 32; anything else throws course::Error.
//
// Each point of a sweep (this one and those of steps 03 to 06) calls its
// launcher many times on the same buffers (course/runner.h): a checked call
// on one set of input values, straight after it a checked call on another,
// the warm-up and timed launches, and a checked call on a third. Before each
// checked call the harness writes that set into `in` and fills every byte
// of `out` with a poison pattern; before the warm-up it poisons `out` once
// more. It resets nothing else, and does nothing between the timed launches.
using DivergenceLauncher = void (*)(const unsigned* in, unsigned* out, std::size_t n, int cases, int rounds,
                                    cudaStream_t stream);

// Throws course::Error unless `cases` is a power of two from 1 to 32 and
// `rounds` is at least 1.
inline void check_cases(int cases, int rounds) {
    if (cases < 1 || cases > kMaxCases || (cases & (cases - 1)) != 0)
        throw course::Error("divergence: cases must be 1, 2, 4, 8, 16 or 32, not " + std::to_string(cases));
    if (rounds < 1) throw course::Error("divergence: rounds must be at least 1");
}

// --- Step 02: the occupancy calculator --------------------------------------

// What an SM holds, as the occupancy calculator needs it. The GPU's own
// limits come from limits_of() (tracks/occupancy/track.h: device attributes,
// and the allocation rules of its architecture); the slides' Fermi is a
// SmLimits too (tests/occupancy).
struct SmLimits {
    int warp_size = 32;
    int max_threads_per_block = 1024;
    int max_warps_per_sm = 64;   // resident warps per SM
    int max_blocks_per_sm = 32;  // resident blocks per SM
    // Registers. A warp's registers are allocated in units of
    // `register_allocation_unit` (registers per thread x warp size, rounded
    // up), each warp from one of `register_partitions` equal parts of the
    // SM's file (one per warp scheduler), so a part holds a whole number of
    // warps. A block's registers may not exceed `registers_per_block`
    // (checked as the hardware does: its warps rounded up to a multiple of
    // the partitions), and no thread may use more than
    // `max_registers_per_thread`.
    int registers_per_sm = 65536;
    int registers_per_block = 65536;
    int max_registers_per_thread = 255;
    int register_allocation_unit = 256;
    int register_partitions = 4;
    // Shared memory. A block's shared memory (static + dynamic + the
    // system's `reserved_shared_per_block`, 1 KiB from sm_80 on) is rounded up
    // to `shared_allocation_unit`; the SM's `shared_per_sm` holds a whole
    // number of blocks. A block may use `shared_per_block` (48 KiB), or up
    // to `shared_per_block_optin` for a kernel that opted in
    // (cudaFuncAttributeMaxDynamicSharedMemorySize): either plus the reserve.
    std::size_t shared_per_sm = 233472;
    std::size_t shared_per_block = 49152;
    std::size_t shared_per_block_optin = 232448;
    std::size_t reserved_shared_per_block = 1024;
    std::size_t shared_allocation_unit = 128;
};

// What one block of a kernel asks for: its launch and what the compiler gave
// it (cudaFuncGetAttributes: numRegs, sharedSizeBytes, maxDynamicSharedSizeBytes).
struct BlockResources {
    int threads = 256;
    int registers_per_thread = 32;
    std::size_t static_shared_bytes = 0;
    std::size_t dynamic_shared_bytes = 0;
    // The most dynamic shared memory the kernel may be launched with: 48 KiB
    // less its static shared memory, unless it opted in to more.
    std::size_t max_dynamic_shared_bytes = 49152;
};

// Which limit decides the number of blocks (the smallest of the four; on a
// tie the first in this order).
enum class Limiter { warps, registers, shared_memory, blocks, none };
const char* limiter_name(Limiter limiter);

struct Occupancy {
    // Blocks per SM each limit allows on its own (0: a block does not fit).
    int blocks_by_warps = 0;
    int blocks_by_registers = 0;
    int blocks_by_shared = 0;
    int blocks_by_block_limit = 0;
    int active_blocks = 0;  // the smallest of the four
    int active_warps = 0;   // active_blocks x warps per block
    double occupancy = 0;   // active_warps / max_warps_per_sm
    Limiter limiter = Limiter::none;
};

// The step's launcher is the calculator itself.
using Calculator = Occupancy (*)(const SmLimits& sm, const BlockResources& block);

// --- Steps 03 to 06: a memory-bound kernel and its launch shape -------------

// out[i] = stream_transform(in[i]) over n unsigned ints: 8 bytes moved per
// element and one multiply-add, so the time is the time to move the bytes,
// and the bandwidth reached depends on how many loads each SM keeps in flight.
// Each step reads the field of the shape it sweeps:
//   03 variant: index into kHeldValues (extra values held in registers)
//   04 shared_bytes: dynamic shared memory per block
//   05 threads: threads per block
//   06 variant: index into kLoadsPerThread, with threads and shared_bytes
struct StreamShape {
    int threads = 256;
    std::size_t shared_bytes = 0;
    int variant = 0;
};
using StreamLauncher = void (*)(const unsigned* in, unsigned* out, std::size_t n, const StreamShape& shape,
                                cudaStream_t stream);

// Step 03: values each thread holds in registers through its loop, per variant.
inline constexpr int kHeldValues[] = {0, 16, 24, 32, 40, 56, 72, 96, 120, 160, 200};
inline constexpr int kHeldVariants = sizeof(kHeldValues) / sizeof(kHeldValues[0]);
// Step 06: independent loads each thread has in flight, per variant.
inline constexpr int kLoadsPerThread[] = {1, 2, 4, 8, 16};
inline constexpr int kLoadsVariants = sizeof(kLoadsPerThread) / sizeof(kLoadsPerThread[0]);

// Blocks for a grid-stride pass over n elements, `per_thread` elements per
// thread per iteration: enough blocks to fill every SM to its block limit
// (the device's cudaDevAttrMaxBlocksPerMultiprocessor), so that the
// resources of a block, never the grid, decide how many run at once; fewer
// when n is small. Throws course::Error for 0 or more than 1024 threads.
unsigned int stream_blocks(std::size_t n, int threads, int per_thread);

// Lets `kernel` be launched with `bytes` of dynamic shared memory: above the
// default 48 KiB a kernel must opt in (cudaFuncAttributeMaxDynamicSharedMemorySize).
// From course/launch_helpers.h, which says more; it calls CUDA only when
// `bytes` is more than the kernel was last allowed, so the timed launches of a
// sweep point never do.
using course::allow_dynamic_shared;

// Throws course::Error unless 0 <= variant < variants.
void check_variant(int variant, int variants, const char* what);

// The launchers, one per step: step<NN>_<folder name>. The steps are listed
// once, in lessons/occupancy/meson.build, each with its kind: divergence
// (step 01, also step01_<name>_short), calculator (step 02), stream (03-06).
// (The inline namespace: see course/kernel_copy.h.)
inline namespace COURSE_KERNEL_COPY {
#define COURSE_DIVERGENCE_STEP(number, launcher, title)                                                          \
    void launcher(const unsigned* in, unsigned* out, std::size_t n, int cases, int rounds, cudaStream_t stream); \
    void launcher##_short(const unsigned* in, unsigned* out, std::size_t n, int cases, int rounds, cudaStream_t stream);
#define COURSE_CALCULATOR_STEP(number, launcher, title) \
    Occupancy launcher(const SmLimits& sm, const BlockResources& block);
#define COURSE_STREAM_STEP(number, launcher, title) \
    void launcher(const unsigned* in, unsigned* out, std::size_t n, const StreamShape& shape, cudaStream_t stream);
#include "occupancy_steps.h"
#undef COURSE_DIVERGENCE_STEP
#undef COURSE_CALCULATOR_STEP
#undef COURSE_STREAM_STEP
}  // namespace COURSE_KERNEL_COPY

}  // namespace occupancy
