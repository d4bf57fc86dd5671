// Hgemm, step 09 (Hopper): any shape on step 08's kernel.
//
// Step 08's kernel (a TMA producer warpgroup, two wgmma consumer
// warpgroups, full and empty mbarriers per stage, persistent over the
// tiles), unchanged, with one change in the launcher: which shapes reach it.
// A tensor map's row pitch (its global stride) must be a multiple of 16
// bytes and its base address 16-byte aligned, so steps 06 to 08 ran step
// 05's kernel whenever K or N was not a multiple of 8 halves, or A or B did
// not start on a 16-byte boundary: 4095^3 and 4097^3 never saw the TMA.
// Here the launcher copies such a matrix first, with a plain coalesced copy
// kernel, into scratch memory whose rows are padded to a multiple of 8
// halves (the stream-ordered allocator's, on the launcher's stream), and
// gives the TMA a map of the copy: its dimensions the true K and N (the TMA
// fills zeros past them, so the pad columns are never read and need no
// zeros), its stride the padded pitch. A matrix that the TMA can map as it
// is is not copied. C needs no copy: the stores take 8-byte pairs only when
// N is even and C 8-byte aligned, single floats otherwise (step 08's rule,
// decided at launch).
//
// No shape is left to step 05's kernel. Below compute capability 9.0 there
// is no wgmma or setmaxnreg: the kernel is built empty there, and the
// launcher refuses to run.
#include "tracks/hgemm/device.cuh"
#include "tracks/hgemm/hopper.h"
#include "tracks/hgemm/kernels.h"

#include "course/check.h"
#include "course/launch_helpers.h"

#include <cuda.h>  // CUtensorMap, the kernel's parameters

#include <cstddef>
#include <cstdint>

namespace {

using hgemm::attributes_of;
using hgemm::multiprocessors;
using hgemm::require_hopper;
using hgemm::tensor_map;
using hgemm::tile_position;
using hgemm::vectors_fit;

// The block tile (BM x BN outputs, BK terms per stage), the consumer
// warpgroups over it (each a slab of WM x BN: one wgmma's 64 rows, all the
// block's columns), the producer warpgroup, and the stages in flight.
constexpr int BM = 128, BN = 256, BK = 64;
constexpr int kConsumers = 2;  // consumer warpgroups; warpgroup 0 is the producer
constexpr int kStages = 4;
constexpr int WM = BM / kConsumers;  // 64
constexpr int kThreads = (1 + kConsumers) * 128;
constexpr int kKSteps = BK / 16;       // wgmmas of 16 terms per tile
constexpr int kAccumulators = BN / 8;  // 8-column pieces of the slab, 4 floats per thread each

// The registers each thread has: at launch, what __launch_bounds__(384, 1)
// leaves (65536 / 384 = 170, rounded down to a multiple of 8); after the
// roles are set, setmaxnreg's counts (multiples of 8, 24 to 256). What the
// producer gives back, the consumers take: the block's total stays the same.
constexpr int kLaunchRegisters = 168, kProducerRegisters = 40, kConsumerRegisters = 232;
static_assert(kProducerRegisters % 8 == 0 && kConsumerRegisters % 8 == 0 && kProducerRegisters >= 24 &&
                  kConsumerRegisters <= 256,
              "setmaxnreg takes multiples of 8 from 24 to 256");
static_assert(kLaunchRegisters * kThreads <= 65536, "the launch's registers must fit the SM's register file");
static_assert(128 * (kProducerRegisters + kConsumers * kConsumerRegisters) <= kLaunchRegisters * kThreads,
              "the consumers can take only what the producer gives back");

// One box is at most 128 bytes wide in the 128-byte swizzle: 64 halves.
constexpr int kBoxCols = 64;
constexpr int kBoxesB = BN / kBoxCols;                            // B's tile: 4 boxes of BK x 64
constexpr int kStageAHalves = BM * BK, kStageBHalves = BK * BN;   // 16 KiB and 32 KiB
constexpr int kStageBytes = (kStageAHalves + kStageBHalves) * 2;  // what one stage's copies write
constexpr std::size_t kSwizzleAlignment = 1024;                   // the pattern repeats every 8 rows of 128 B
constexpr std::size_t kSharedBytes = kSwizzleAlignment + std::size_t{kStages} * kStageBytes;  // + room to align
static_assert(BK == kBoxCols, "a tile of A is one box: its rows of BK halves must be 128 bytes");
static_assert(kBoxesB * kBoxCols == BN, "B's tile is whole boxes of 64 columns");
static_assert(BM <= 256 && BK <= 256, "a box is at most 256 elements in each dimension");
static_assert(WM == 64 && BN == 256, "each consumer's slab is one m64n256k16 wgmma wide and high");
static_assert(kKSteps * 16 == BK, "a wgmma of f16 takes 16 terms: BK must be a multiple of 16");
static_assert(kAccumulators * 8 == BN, "the accumulators come in pieces of 8 columns");
static_assert((kStageAHalves * 2) % kSwizzleAlignment == 0 && (BK * kBoxCols * 2) % kSwizzleAlignment == 0 &&
                  (WM * BK * 2) % kSwizzleAlignment == 0,
              "every box, and each consumer's rows of A, must start on a 1024-byte boundary, where the swizzle "
              "pattern starts");
static_assert(kStages >= 2, "the pipeline needs a stage to multiply and one to copy into");

// wgmma is Hopper's alone: PTX has it for sm_90a, the architecture-specific
// target (nvcc defines __CUDA_ARCH_FEAT_SM90_ALL there), and neither for the
// portable compute_90 PTX nor for later GPUs. Everywhere else in gpu_arch only
// the empty kernel below is built.
#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
// (Here, not above: only this code uses them.)
constexpr int kConsumerWarps = kConsumers * 4;  // the arrivals that free a stage

// The shared-memory address of p (32 bits), as mbarrier, the TMA and the
// matrix descriptors want it.
__device__ inline std::uint32_t shared_address(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// C[row][col] and C[row][col + 1], each only inside C: one 8-byte store when
// both are inside and `pairs` (N even, C 8-byte aligned).
__device__ inline void store_pair(float* __restrict__ C, int row, int col, int M, int N, float x, float y, bool pairs) {
    if (row >= M) return;
    if (pairs && col + 1 < N) {
        *reinterpret_cast<float2*>(&C[row * N + col]) = make_float2(x, y);
    } else {
        if (col < N) C[row * N + col] = x;
        if (col + 1 < N) C[row * N + col + 1] = y;
    }
}

// --- The mbarrier and the TMA (step 06's) -----------------------------------
// An mbarrier is 8 bytes of shared memory that counts arrivals and, since
// Hopper, bytes still to come (the transaction count). A phase completes when
// both reach zero; the barrier then starts its next phase, and its phase bit
// (the parity) flips.

// Expects `count` arrivals per phase.
__device__ inline void barrier_init(std::uint32_t barrier, int count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(barrier), "r"(count) : "memory");
}

// Makes the initialised barriers visible to the other threads and to the TMA,
// before any copy or wait uses them: fence.mbarrier_init orders the inits
// before later mbarrier operations, and fence.proxy.async makes these
// ordinary (generic-proxy) writes visible to the async proxy, where the TMA
// counts its bytes on them (CUTLASS's pipelines use the first, the CUDA
// Programming Guide's TMA example the second; both run once per block).
__device__ inline void barrier_init_fence() {
    asm volatile("fence.mbarrier_init.release.cluster;\n"
                 "fence.proxy.async.shared::cta;\n" ::
                     : "memory");
}

// One arrival, and `bytes` more to come in this phase: the copies that
// complete_tx on this barrier will bring them.
__device__ inline void barrier_arrive_expect(std::uint32_t barrier, std::uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(barrier), "r"(bytes) : "memory");
}

// Waits until the phase of parity `parity` has completed: its bytes have
// landed and are visible to this thread.
__device__ inline void barrier_wait(std::uint32_t barrier, std::uint32_t parity) {
    std::uint32_t done = 0;
    do {
        asm volatile("{\n"
                     ".reg .pred complete;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, complete;\n"
                     "}\n"
                     : "=r"(done)
                     : "r"(barrier), "r"(parity)
                     : "memory");
    } while (!done);
}

// The box of `map` whose first element is (column x, row y) into shared
// memory at `destination` (1024-byte aligned), swizzled as the map says,
// zeros where the box lies outside the matrix; its bytes count on `barrier`.
__device__ inline void tma_load_box(std::uint32_t destination, const CUtensorMap* map, int x, int y,
                                    std::uint32_t barrier) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::
            "r"(destination),
        "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(barrier)
        : "memory");
}

// --- wgmma ------------------------------------------------------------------
// A matrix descriptor (PTX ISA, "Matrix Descriptor Format"): where a wgmma
// finds its tile of A or B in shared memory. Bits 0-13: the start address;
// 16-29: the leading dimension byte offset; 32-45: the stride dimension byte
// offset (all three in units of 16 bytes); 49-51: the base offset, 0 here
// (the tiles start on 1024-byte boundaries, and a start moved along K by 32,
// 64 or 96 bytes keeps the address bits 7-9 that the swizzle reads); 62-63:
// the swizzle, 1 for 128 bytes, the TMA's. In the 128-byte swizzle the
// hardware reads rows of 128 bytes: row r (of A, an M index; of B, a K
// index) at start + r / 8 * stride + r % 8 * 128, with the address's bits
// 4-6 XORed with its bits 7-9, which is the TMA's layout read back. K-major
// A's 16 terms (32 bytes) lie within one row; N-major B's 256 columns are
// four 64-column pieces, `leading` bytes apart (the PTX ISA's canonical
// layouts, "Shared Memory Matrix Layout").
__device__ inline std::uint64_t matrix_descriptor(std::uint32_t start, std::uint32_t leading_bytes,
                                                  std::uint32_t stride_bytes) {
    return static_cast<std::uint64_t>((start & 0x3FFFF) >> 4) |
           static_cast<std::uint64_t>((leading_bytes & 0x3FFFF) >> 4) << 16 |
           static_cast<std::uint64_t>((stride_bytes & 0x3FFFF) >> 4) << 32 | std::uint64_t{1} << 62;
}

// Orders this warpgroup's earlier register accesses (the accumulators set to
// zero, read or written by other instructions) before the wgmmas that follow.
__device__ inline void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }

// The wgmmas issued since the last commit become one group.
__device__ inline void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }

// Waits until at most `kPending` of this warpgroup's groups are still
// running: the others have completed, their shared memory read, their
// accumulators written.
template <int kPending>
__device__ inline void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// d += A * B, 64 x 256 x 16, for the whole warpgroup: A (64 x 16, K-major:
// its rows of terms contiguous) and B (16 x 256, N-major: imm-trans-b = 1)
// from shared memory through their descriptors. Warp w of the warpgroup and
// its lane l hold, in d[j][0..3], rows 16 w + l / 4 and 16 w + l / 4 + 8,
// columns 8 j + 2 (l % 4) and 8 j + 2 (l % 4) + 1 of the 64 x 256 result:
// d[j] is an m16n8 accumulator of step 06, for j = 0 to 31. The operands
// after the descriptors: scale-d = 1 (add into d), A and B not negated
// (imm-scale-a = imm-scale-b = 1), A not transposed, B transposed.
__device__ inline void wgmma_64x256x16(float (&d)[kAccumulators][4], std::uint64_t a, std::uint64_t b) {
    static_assert(kAccumulators == 32, "m64n256 gives each thread 32 pieces of 4 accumulators");
#define HGEMM_WGMMA_D(j) "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
    asm volatile("{\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
                 "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
                 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
                 "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
                 "%128, %129, 1, 1, 1, 0, 1;\n"
                 "}\n"
                 : HGEMM_WGMMA_D(0), HGEMM_WGMMA_D(1), HGEMM_WGMMA_D(2), HGEMM_WGMMA_D(3), HGEMM_WGMMA_D(4),
                   HGEMM_WGMMA_D(5), HGEMM_WGMMA_D(6), HGEMM_WGMMA_D(7), HGEMM_WGMMA_D(8), HGEMM_WGMMA_D(9),
                   HGEMM_WGMMA_D(10), HGEMM_WGMMA_D(11), HGEMM_WGMMA_D(12), HGEMM_WGMMA_D(13), HGEMM_WGMMA_D(14),
                   HGEMM_WGMMA_D(15), HGEMM_WGMMA_D(16), HGEMM_WGMMA_D(17), HGEMM_WGMMA_D(18), HGEMM_WGMMA_D(19),
                   HGEMM_WGMMA_D(20), HGEMM_WGMMA_D(21), HGEMM_WGMMA_D(22), HGEMM_WGMMA_D(23), HGEMM_WGMMA_D(24),
                   HGEMM_WGMMA_D(25), HGEMM_WGMMA_D(26), HGEMM_WGMMA_D(27), HGEMM_WGMMA_D(28), HGEMM_WGMMA_D(29),
                   HGEMM_WGMMA_D(30), HGEMM_WGMMA_D(31)
                 : "l"(a), "l"(b));
#undef HGEMM_WGMMA_D
}

// Tells the compiler that the accumulators may change here: it emits no
// instruction, but the compiler may move no access to them across it. After
// the last wait_group (the wgmmas wrote them asynchronously until then), the
// stores read them only after the wait; before the first wgmma.fence, their
// zeroing stays before the fence.
__device__ inline void hold_accumulators(float (&d)[kAccumulators][4]) {
#pragma unroll
    for (int j = 0; j < kAccumulators; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) asm volatile("" : "+f"(d[j][e])::"memory");
}

// --- Warp specialisation ------------------------------------------------------
// One arrival on `barrier` (release: this thread's earlier accesses, and what
// it has waited for, happen before the phase completes for the waiters).
__device__ inline void barrier_arrive(std::uint32_t barrier) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(barrier) : "memory");
}

// The registers of every thread of this warpgroup, set to kCount: .dec gives
// the rest back to the block's pool, .inc takes them from it (and waits until
// the pool has them). All 4 warps of the warpgroup must execute the same one.
template <int kCount>
__device__ inline void registers_decrease() {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kCount));
}
template <int kCount>
__device__ inline void registers_increase() {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kCount));
}

#endif

// The tensor maps are kernel parameters (__grid_constant__: the kernel reads
// them where the launch put them, and the TMA reads them from there too).
__global__ void __launch_bounds__(kThreads, 1) hgemm_any_shape(const __grid_constant__ CUtensorMap a_map,
                                                               const __grid_constant__ CUtensorMap b_map,
                                                               float* __restrict__ C, int M, int N, int K, bool pairs) {
#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
    // kStages tiles of A (one box of BM x BK), then kStages tiles of B (kBoxesB
    // boxes of BK x 64), from the first 1024-byte boundary of the dynamic
    // shared memory on, as the TMA wrote them (step 06's layout).
    extern __shared__ __align__(128) unsigned char shared[];
    __shared__ __align__(8) std::uint64_t full[kStages];   // stage s's copies have landed
    __shared__ __align__(8) std::uint64_t empty[kStages];  // stage s has been read: it may be refilled
    const std::uint32_t misalignment = shared_address(shared) % kSwizzleAlignment;
    __half* const As = reinterpret_cast<__half*>(shared + (misalignment == 0 ? 0 : kSwizzleAlignment - misalignment));
    __half* const Bs = As + kStages * kStageAHalves;

    const int tid = threadIdx.x, warpgroup = tid / 128, warp = tid % 128 / 32, lane = tid % 32;
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN, tiles = tiles_m * tiles_n;
    const int k_tiles = (K + BK - 1) / BK;

    // full[s]: one arrival per phase (the producer's, with the bytes to come).
    // empty[s]: one arrival per consumer warp per phase, once its wgmmas that
    // read stage s have completed.
    if (tid == 0) {
        for (int s = 0; s < kStages; ++s) {
            barrier_init(shared_address(&full[s]), 1);
            barrier_init(shared_address(&empty[s]), kConsumerWarps);
        }
        barrier_init_fence();
    }
    // The last block-wide barrier: from here on the roles wait only on the
    // stages' mbarriers.
    __syncthreads();

    // Both roles walk the same k-steps in the same order, tile after tile
    // (blockIdx.x, then every gridDim.x-th), and count them with (stage,
    // phase): the j-th k-step of the block uses stage j % kStages, in that
    // stage's (j / kStages)-th round, and `phase` is that round's parity.
    if (warpgroup == 0) {
        // The producer. Every warp of the warpgroup gives its registers back;
        // then one thread copies, and the others are done.
        registers_decrease<kProducerRegisters>();
        if (tid != 0) return;
        int stage = 0;
        std::uint32_t phase = 0;
        for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            int tile_row = 0, tile_col = 0;
            tile_position(tile, tiles_m, tiles_n, tile_row, tile_col);
            const int block_row = tile_row * BM, block_col = tile_col * BN;
            // A box of B wholly right of the matrix is not copied: its columns
            // of C are never stored. The barrier expects the bytes of the
            // boxes copied, whole boxes, the zeros included.
            const int boxes_b = min(kBoxesB, (N - block_col + kBoxCols - 1) / kBoxCols);
            const std::uint32_t bytes = (kStageAHalves + boxes_b * BK * kBoxCols) * 2;
            for (int kt = 0; kt < k_tiles; ++kt) {
                // Round r of the stage may start once the consumers have
                // freed round r - 1: the phase of parity phase ^ 1. In round
                // 0 that is the phase before the barrier's first, which counts
                // as completed: the wait returns at once.
                barrier_wait(shared_address(&empty[stage]), phase ^ 1);
                const std::uint32_t barrier = shared_address(&full[stage]);
                barrier_arrive_expect(barrier, bytes);
                tma_load_box(shared_address(As + stage * kStageAHalves), &a_map, kt * BK, block_row, barrier);
                for (int j = 0; j < boxes_b; ++j)
                    tma_load_box(shared_address(Bs + stage * kStageBHalves + j * BK * kBoxCols), &b_map,
                                 block_col + j * kBoxCols, kt * BK, barrier);
                if (++stage == kStages) {
                    stage = 0;
                    phase ^= 1;
                }
            }
        }
        return;
    }

    // The consumers: warpgroup 1 computes rows 0-63 of each tile, warpgroup 2
    // rows 64-127, all 256 columns.
    registers_increase<kConsumerRegisters>();
    const int consumer = warpgroup - 1;

    // The descriptors of 16-term step `ks` of `stage`, for this consumer
    // (step 07's). A: its 64 rows of the stage's 128 x 64 box, K-major, 8-row
    // groups 1024 bytes apart (8 rows of 128 bytes); the leading byte offset
    // is not used by a K-major swizzled layout (16 bytes, "assumed 1"); step
    // ks starts 32 ks bytes into the row, inside the swizzled 128 bytes. B:
    // 16 rows of the stage's four 64 x 64 boxes, N-major, 8-row groups 1024
    // bytes apart, the next 64 columns one box (BK x 128 bytes) further on;
    // step ks starts 16 ks rows down.
    const auto descriptor_a = [&](int stage, int ks) {
        return matrix_descriptor(shared_address(As + stage * kStageAHalves + consumer * WM * BK + ks * 16), 16,
                                 8 * 128);
    };
    const auto descriptor_b = [&](int stage, int ks) {
        return matrix_descriptor(shared_address(Bs + stage * kStageBHalves + ks * 16 * kBoxCols), BK * kBoxCols * 2,
                                 8 * 128);
    };
    // This warp's wgmmas that read `stage` have completed (a wait_group says
    // so): one arrival for the warp. When all 8 consumer warps have arrived,
    // the producer may refill the stage.
    const auto release = [&](int stage) {
        if (lane == 0) barrier_arrive(shared_address(&empty[stage]));
    };

    int stage = 0;
    std::uint32_t phase = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int tile_row = 0, tile_col = 0;
        tile_position(tile, tiles_m, tiles_n, tile_row, tile_col);
        const int block_row = tile_row * BM, block_col = tile_col * BN;

        // Set to zero by ordinary instructions, which must come before the
        // first wgmma.fence: hold_accumulators keeps the compiler from moving
        // them past it.
        float acc[kAccumulators][4] = {};
        hold_accumulators(acc);

        int previous = 0;  // the stage of the k-step before
        for (int kt = 0; kt < k_tiles; ++kt) {
            // Round r of the stage: its copies have landed once the phase of
            // parity `phase` has completed.
            barrier_wait(shared_address(&full[stage]), phase);
            wgmma_fence();
#pragma unroll
            for (int ks = 0; ks < kKSteps; ++ks) wgmma_64x256x16(acc, descriptor_a(stage, ks), descriptor_b(stage, ks));
            wgmma_commit();
            // This k-step's group may still run; the one before has completed
            // (in this warp): its stage is free as far as this warp is concerned.
            wgmma_wait<1>();
            if (kt > 0) release(previous);
            previous = stage;
            if (++stage == kStages) {
                stage = 0;
                phase ^= 1;
            }
        }
        // The tile's last group, then its stage. (K >= 1: every tile has at
        // least one k-step.)
        wgmma_wait<0>();
        hold_accumulators(acc);
        release(previous);

        // Lane l of warp w holds, of each 8-column piece j, rows 16 w + l / 4
        // and 16 w + l / 4 + 8 of this consumer's slab, columns 8 j + 2 (l % 4)
        // and the next. While these stores run, the producer is already
        // copying the next tile's first k-steps into the stages freed.
        const int row = block_row + consumer * WM + warp * 16 + lane / 4, pair = lane % 4 * 2;
#pragma unroll
        for (int j = 0; j < kAccumulators; ++j) {
            const int col = block_col + j * 8 + pair;
            store_pair(C, row, col, M, N, acc[j][0], acc[j][1], pairs);
            store_pair(C, row + 8, col, M, N, acc[j][2], acc[j][3], pairs);
        }
    }
#endif
}

// X (rows x cols halves, rows `cols` apart, any alignment) into `padded`
// (16-byte aligned, rows `pitch` apart, pitch a multiple of 8): the rows the
// TMA can map. Consecutive threads copy consecutive halves of a row, so each
// warp reads and writes 64 contiguous bytes; blockIdx.y walks the rows (every
// gridDim.y-th: M may pass the grid's limit of 65535). The pad columns are
// left as they are: the tensor map's dimensions stop at `cols`, and the TMA
// fills zeros there without reading them.
__global__ void hgemm_pad_rows(const __half* __restrict__ X, __half* __restrict__ padded, int rows, int cols,
                               std::size_t pitch) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    for (int row = blockIdx.y; row < rows; row += gridDim.y)
        padded[static_cast<std::size_t>(row) * pitch + col] = X[static_cast<std::size_t>(row) * cols + col];
}

// The step's name in the messages of the Hopper steps' host helpers
// (tracks/hgemm/hopper.h).
constexpr char kStep[] = "hgemm step 09";

// Rows of `cols` halves padded to a multiple of 8 (16 bytes): the TMA's
// rule for a tensor map's stride.
std::size_t padded_pitch(int cols) { return (static_cast<std::size_t>(cols) + 7) / 8 * 8; }

// Enqueues the copy of X (rows x cols) into `padded` (rows padded_pitch(cols)
// apart) on `stream`.
void pad_rows(const __half* X, __half* padded, int rows, int cols, cudaStream_t stream) {
    constexpr int kCopyThreads = 256;
    const dim3 grid(static_cast<unsigned int>((cols + kCopyThreads - 1) / kCopyThreads),
                    static_cast<unsigned int>(rows < 65535 ? rows : 65535));
    hgemm_pad_rows<<<grid, kCopyThreads, 0, stream>>>(X, padded, rows, cols, padded_pitch(cols));
    CUDA_CHECK_LAUNCH();
}

// Step 08's launch, on A and B as the tensor maps read them: rows a_pitch and
// b_pitch halves apart (multiples of 8), both 16-byte aligned.
void multiply(const __half* A, std::size_t a_pitch, const __half* B, std::size_t b_pitch, float* C, int M, int N, int K,
              cudaStream_t stream) {
    const CUtensorMap a_map = tensor_map(A, M, K, a_pitch, BM, kBoxCols, kStep);  // boxes of BM rows x 64 terms
    const CUtensorMap b_map = tensor_map(B, K, N, b_pitch, BK, kBoxCols, kStep);  // boxes of BK terms x 64 columns
    course::allow_dynamic_shared(reinterpret_cast<const void*>(hgemm_any_shape), kSharedBytes);
    // Persistent: one block per SM (a block's shared memory leaves room for
    // no second), or one per tile where there are fewer tiles.
    const long long tiles = static_cast<long long>((M + BM - 1) / BM) * ((N + BN - 1) / BN);
    const dim3 grid(static_cast<unsigned int>(tiles < multiprocessors() ? tiles : multiprocessors()));
    // 8-byte stores of C's pairs only where every pair is 8-byte aligned.
    const bool pairs = N % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
    hgemm_any_shape<<<grid, kThreads, kSharedBytes, stream>>>(a_map, b_map, C, M, N, K, pairs);
    CUDA_CHECK_LAUNCH();
}

}  // namespace

void hgemm::step09_any_shape(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    // Refuses a GPU other than 9.0 (wgmma and setmaxnreg are sm_90a's), or a
    // build without it.
    require_hopper(reinterpret_cast<const void*>(hgemm_any_shape), kStep, "any shape", hgemm::Needs::sm_90a);
    // The tensor maps' rule: rows 16 bytes apart, matrices 16-byte aligned.
    // A matrix that keeps it is read where it lies.
    const bool a_fits = vectors_fit(A, K), b_fits = vectors_fit(B, N);
    if (a_fits && b_fits) {
        multiply(A, static_cast<std::size_t>(K), B, static_cast<std::size_t>(N), C, M, N, K, stream);
        return;
    }
    // The others are copied first, into one scratch allocation from the
    // stream-ordered allocator (256-byte aligned), A's padded rows then B's:
    // A's part is a whole number of 8-half rows, so B's starts 16-byte
    // aligned too. Allocated, used and freed in stream order on `stream`.
    const std::size_t a_pitch = padded_pitch(K), b_pitch = padded_pitch(N);
    const std::size_t a_halves = a_fits ? 0 : static_cast<std::size_t>(M) * a_pitch;
    const std::size_t b_halves = b_fits ? 0 : static_cast<std::size_t>(K) * b_pitch;
    void* scratch = nullptr;
    CUDA_CHECK(cudaMallocAsync(&scratch, (a_halves + b_halves) * sizeof(__half), stream));
    __half* const a_padded = static_cast<__half*>(scratch);
    __half* const b_padded = a_padded + a_halves;
    try {
        if (!a_fits) pad_rows(A, a_padded, M, K, stream);
        if (!b_fits) pad_rows(B, b_padded, K, N, stream);
        multiply(a_fits ? A : a_padded, a_fits ? static_cast<std::size_t>(K) : a_pitch, b_fits ? B : b_padded,
                 b_fits ? static_cast<std::size_t>(N) : b_pitch, C, M, N, K, stream);
    } catch (...) {
        (void)cudaFreeAsync(scratch, stream);  // the error that brought us here is the one to report
        throw;
    }
    CUDA_CHECK(cudaFreeAsync(scratch, stream));
}

// The kernel's registers and shared memory, with its dynamic shared memory
// added (cudaFuncGetAttributes counts static shared memory only).
cudaFuncAttributes hgemm::step09_any_shape_attributes() {
    cudaFuncAttributes attributes = attributes_of(hgemm_any_shape);
    attributes.sharedSizeBytes += kSharedBytes;
    return attributes;
}
