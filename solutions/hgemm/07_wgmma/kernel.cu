// Hgemm, step 07 (Hopper): the math done by warpgroup MMA (wgmma).
//
// Step 06's kernel (128 x 256 block tiles, BK = 64, four stages, the tiles
// copied by the TMA into the 128-byte swizzle, one mbarrier per stage), with
// one change: the math. In step 06 each of 8 warps loaded its fragments of A
// and B from shared memory into registers with ldmatrix (8 per 16 terms) and
// multiplied them with 32 mma.sync of 16 x 8 x 16. Here the 256 threads are
// two warpgroups (4 consecutive warps, 128 threads each), and each warpgroup
// computes a 64 x 256 slab of the block tile with one instruction per 16
// terms:
//
//   wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
//
// which reads A (64 x 16) and B (16 x 256) straight from shared memory,
// through two 64-bit matrix descriptors (the tile's address, the byte
// offsets between its 8-row groups and between its 64-column boxes, the
// swizzle), and adds into 128 FP32 accumulators per thread. Nothing of A or
// B passes through registers. The instruction is asynchronous: a warpgroup
// issues a tile's 4 wgmmas, commits them as one group (wgmma.commit_group)
// and goes on; wgmma.wait_group 1 then says that the group before, the
// previous tile's, has completed, so its stage may be refilled. B is K x N
// row-major, N-major for the tensor cores: its descriptor sets the
// transpose bit.
//
// The rest is step 06's: one thread issues each stage's boxes to the TMA,
// the threads wait on the stage's mbarrier; shapes whose rows are not 16-byte
// multiples (or matrices not 16-byte aligned) run step 05's kernel. Below
// compute capability 9.0 there is no wgmma: the kernel is built empty there,
// and the launcher refuses to run.
#include "tracks/hgemm/device.cuh"
#include "tracks/hgemm/hopper.h"
#include "tracks/hgemm/kernels.h"

#include "course/check.h"
#include "course/launch_helpers.h"

#include <cuda.h>  // CUtensorMap, the kernel's parameters

#include <cstddef>
#include <cstdint>

// Step 05's launcher, for the shapes the tensor maps cannot describe: its
// ordinary copy (course/kernel_copy.h), which every program that has this
// step links, named so also where this file is built as the reference copy.
namespace hgemm::kernels {
void step05_swizzled(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream);
}  // namespace hgemm::kernels

namespace {

using hgemm::attributes_of;
using hgemm::grid_for;
using hgemm::require_hopper;
using hgemm::tensor_map;
using hgemm::tile_position;
using hgemm::vectors_fit;

// The block tile (BM x BN outputs, BK terms per stage), the warpgroups over
// it (each a slab of WM x BN: one wgmma's 64 rows, all the block's columns)
// and the stages in flight.
constexpr int BM = 128, BN = 256, BK = 64;
constexpr int kWarpgroups = 2;
constexpr int kStages = 4;
constexpr int WM = BM / kWarpgroups;  // 64
constexpr int kThreads = kWarpgroups * 128;
constexpr int kKSteps = BK / 16;       // wgmmas of 16 terms per tile
constexpr int kAccumulators = BN / 8;  // 8-column pieces of the slab, 4 floats per thread each

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
static_assert(WM == 64 && BN == 256, "each warpgroup's slab is one m64n256k16 wgmma wide and high");
static_assert(kKSteps * 16 == BK, "a wgmma of f16 takes 16 terms: BK must be a multiple of 16");
static_assert(kAccumulators * 8 == BN, "the accumulators come in pieces of 8 columns");
static_assert((kStageAHalves * 2) % kSwizzleAlignment == 0 && (BK * kBoxCols * 2) % kSwizzleAlignment == 0 &&
                  (WM * BK * 2) % kSwizzleAlignment == 0,
              "every box, and each warpgroup's rows of A, must start on a 1024-byte boundary, where the swizzle "
              "pattern starts");
static_assert(kStages >= 2, "the pipeline needs a stage to multiply and one to copy into");

// wgmma is Hopper's alone: PTX has it for sm_90a, the architecture-specific
// target (nvcc defines __CUDA_ARCH_FEAT_SM90_ALL there), and neither for the
// portable compute_90 PTX nor for later GPUs. Everywhere else in gpu_arch only
// the empty kernel below is built.
#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
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
#endif

// The tensor maps are kernel parameters (__grid_constant__: the kernel reads
// them where the launch put them, and the TMA reads them from there too).
__global__ void __launch_bounds__(kThreads, 1) hgemm_wgmma(const __grid_constant__ CUtensorMap a_map,
                                                           const __grid_constant__ CUtensorMap b_map,
                                                           float* __restrict__ C, int M, int N, int K, bool pairs) {
#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
    // kStages tiles of A (one box of BM x BK), then kStages tiles of B (kBoxesB
    // boxes of BK x 64), from the first 1024-byte boundary of the dynamic
    // shared memory on, as the TMA wrote them (step 06's layout).
    extern __shared__ __align__(128) unsigned char shared[];
    __shared__ __align__(8) std::uint64_t full[kStages];  // stage s's copies have landed
    const std::uint32_t misalignment = shared_address(shared) % kSwizzleAlignment;
    __half* const As = reinterpret_cast<__half*>(shared + (misalignment == 0 ? 0 : kSwizzleAlignment - misalignment));
    __half* const Bs = As + kStages * kStageAHalves;

    const int tid = threadIdx.x, warpgroup = tid / 128, warp = tid % 128 / 32, lane = tid % 32;
    // The block's tile of C, in the grouped order (tile_position): the blocks
    // running at one time share their rows of A and columns of B in L2.
    int tile_row, tile_col;
    tile_position(blockIdx.y * gridDim.x + blockIdx.x, gridDim.y, gridDim.x, tile_row, tile_col);
    const int block_row = tile_row * BM, block_col = tile_col * BN;

    // One thread, the copies of the block's tiles at k0 into `stage`: A's
    // box at (k0, block_row), then B's boxes at (block_col + 64 j, k0). A box
    // of B wholly right of the matrix is not copied: its columns of C are
    // never stored. The barrier expects the bytes of the boxes copied, whole
    // boxes, the zeros included.
    const auto fetch = [&](int k0, int stage) {
        const std::uint32_t barrier = shared_address(&full[stage]);
        const int boxes_b = min(kBoxesB, (N - block_col + kBoxCols - 1) / kBoxCols);
        barrier_arrive_expect(barrier, (kStageAHalves + boxes_b * BK * kBoxCols) * 2);
        tma_load_box(shared_address(As + stage * kStageAHalves), &a_map, k0, block_row, barrier);
        for (int j = 0; j < boxes_b; ++j)
            tma_load_box(shared_address(Bs + stage * kStageBHalves + j * BK * kBoxCols), &b_map,
                         block_col + j * kBoxCols, k0, barrier);
    };
    // Every thread waits for tile t (in stage t % kStages): the barrier's
    // (t / kStages)-th phase, of parity (t / kStages) % 2.
    const auto wait_for_tile = [&](int t) {
        barrier_wait(shared_address(&full[t % kStages]), static_cast<std::uint32_t>(t / kStages % 2));
    };

    // The descriptors of 16-term step `ks` of `stage`, for this warpgroup.
    // A: its 64 rows of the stage's 128 x 64 box, K-major, 8-row groups 1024
    // bytes apart (8 rows of 128 bytes); the leading byte offset is not used
    // by a K-major swizzled layout (16 bytes, "assumed 1"); step ks starts
    // 32 ks bytes into the row, inside the swizzled 128 bytes. B: 16 rows of
    // the stage's four 64 x 64 boxes, N-major, 8-row groups 1024 bytes apart,
    // the next 64 columns one box (BK x 128 bytes) further on; step ks
    // starts 16 ks rows down.
    const auto descriptor_a = [&](int stage, int ks) {
        return matrix_descriptor(shared_address(As + stage * kStageAHalves + warpgroup * WM * BK + ks * 16), 16,
                                 8 * 128);
    };
    const auto descriptor_b = [&](int stage, int ks) {
        return matrix_descriptor(shared_address(Bs + stage * kStageBHalves + ks * 16 * kBoxCols), BK * kBoxCols * 2,
                                 8 * 128);
    };

    // Set to zero by ordinary instructions, which must come before the first
    // wgmma.fence: hold_accumulators keeps the compiler from moving them past it.
    float acc[kAccumulators][4] = {};
    hold_accumulators(acc);

    const int tiles = (K + BK - 1) / BK;
    // The barriers, one arrival (the copying thread's) per phase; then the
    // first kStages - 1 tiles.
    if (tid == 0) {
        for (int s = 0; s < kStages; ++s) barrier_init(shared_address(&full[s]), 1);
        barrier_init_fence();
    }
    __syncthreads();
    if (tid == 0)
        for (int s = 0; s < kStages - 1 && s < tiles; ++s) fetch(s * BK, s);

    int stage = 0;  // tile t's
    for (int t = 0; t < tiles; ++t) {
        wait_for_tile(t);
        // The accumulators were last touched by the wgmmas themselves, except
        // before the first tile (set to zero): the fence orders that.
        wgmma_fence();
#pragma unroll
        for (int ks = 0; ks < kKSteps; ++ks) wgmma_64x256x16(acc, descriptor_a(stage, ks), descriptor_b(stage, ks));
        wgmma_commit();
        // Tile t's group may still run; tile t - 1's has completed, in this
        // warpgroup. After the barrier, in both: its stage may be refilled
        // with tile t + kStages - 1.
        wgmma_wait<1>();
        __syncthreads();
        if (tid == 0 && t + kStages - 1 < tiles) fetch((t + kStages - 1) * BK, (t + kStages - 1) % kStages);
        stage = stage + 1 == kStages ? 0 : stage + 1;
    }
    wgmma_wait<0>();
    hold_accumulators(acc);

    // Lane l of warp w holds, of each 8-column piece j, rows 16 w + l / 4 and
    // 16 w + l / 4 + 8 of this warpgroup's slab, columns 8 j + 2 (l % 4) and
    // the next.
    const int row = block_row + warpgroup * WM + warp * 16 + lane / 4, pair = lane % 4 * 2;
#pragma unroll
    for (int j = 0; j < kAccumulators; ++j) {
        const int col = block_col + j * 8 + pair;
        store_pair(C, row, col, M, N, acc[j][0], acc[j][1], pairs);
        store_pair(C, row + 8, col, M, N, acc[j][2], acc[j][3], pairs);
    }
#endif
}

// The step's name in the messages of the Hopper steps' host helpers
// (tracks/hgemm/hopper.h).
constexpr char kStep[] = "hgemm step 07";

}  // namespace

void hgemm::step07_wgmma(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    // Refuses a GPU other than 9.0 (wgmma is sm_90a's), or a build without it.
    require_hopper(reinterpret_cast<const void*>(hgemm_wgmma), kStep, "wgmma", hgemm::Needs::sm_90a);
    // The tensor maps' rule: rows 16 bytes apart, matrices 16-byte aligned.
    // Elsewhere, step 05's kernel and its checked copies (the solution of the
    // step before the TMA, linked into every program that has this step).
    if (!vectors_fit(A, K) || !vectors_fit(B, N)) {
        hgemm::kernels::step05_swizzled(A, B, C, M, N, K, stream);
        return;
    }
    const CUtensorMap a_map = tensor_map(A, M, K, K, BM, kBoxCols, kStep);  // boxes of BM rows x 64 terms
    const CUtensorMap b_map = tensor_map(B, K, N, N, BK, kBoxCols, kStep);  // boxes of BK terms x 64 columns
    course::allow_dynamic_shared(reinterpret_cast<const void*>(hgemm_wgmma), kSharedBytes);
    const dim3 grid = grid_for(N, BN, M, BM);  // a block per tile; tile_position picks which
    const bool pairs = N % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
    hgemm_wgmma<<<grid, kThreads, kSharedBytes, stream>>>(a_map, b_map, C, M, N, K, pairs);
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, with its dynamic shared memory
// added (cudaFuncGetAttributes counts static shared memory only).
cudaFuncAttributes hgemm::step07_wgmma_attributes() {
    cudaFuncAttributes attributes = attributes_of(hgemm_wgmma);
    attributes.sharedSizeBytes += kSharedBytes;
    return attributes;
}
