// Hgemm, step 07 (Hopper): the math done by warpgroup MMA (wgmma), A and B
// read straight from shared memory.                       (your starting point)
//
// This is the step 06 solution, renamed. Keep its tiles (128 x 256, BK = 64),
// its four stages and its TMA copies into the 128-byte swizzle, and change
// one thing: the math. The 256 threads become two warpgroups of 128, each
// computing a 64 x 256 slab of the block tile with one
// wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 per 16 terms, reading A
// and B from the stage through two matrix descriptors: no ldmatrix, no
// fragments of A or B in registers. The TODO(step 07) markers say where;
// README.md in this folder draws the descriptors and gives the PTX. It needs
// compute capability 9.0 (H100, H200) and the sm_90a build that
// -Dgpu_arch=9.0 makes: `meson compile -C build hgemm-07 &&
// build/lessons/hgemm-07 --size 1024` runs your kernel against the CPU
// reference, beside the solutions of steps 01 to 06; on an older GPU the
// ladder leaves its row out and says so.
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

// The block tile (BM x BN outputs, BK terms per stage), the warps over it and
// the stages in flight.
// TODO(step 07): two warpgroups (kThreads = 2 x 128) in place of 2 x 4 warps:
// warpgroup g computes rows 64 g to 64 g + 63 of the block tile, all 256
// columns (one m64n256k16 wide and high), 32 x 4 accumulators per thread.
constexpr int BM = 128, BN = 256, BK = 64;
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int kStages = 4;
constexpr int WM = BM / kWarpsM, WN = BN / kWarpsN;  // 64 x 64
constexpr int kMmaM = WM / 16, kMmaN = WN / 8;       // 4 x 8 accumulators of 16 x 8 per warp
constexpr int kWarps = kWarpsM * kWarpsN;
constexpr int kThreads = kWarps * 32;
constexpr int kKSteps = BK / 16;  // 16-term steps of mma.sync per tile

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
static_assert(BM % kWarpsM == 0 && BN % kWarpsN == 0, "the warp tiles must cover the block tile exactly");
static_assert(WM % 16 == 0 && WN % 16 == 0 && kMmaM * 16 == WM && kMmaN * 8 == WN,
              "warp tiles must be whole 16 x 16 fragments of A and pairs of 16 x 8 of B");
static_assert(kKSteps % 2 == 0, "the fragments alternate between two sets of registers: an even number of 16-term "
                                "steps per tile");
static_assert((kStageAHalves * 2) % kSwizzleAlignment == 0 && (BK * kBoxCols * 2) % kSwizzleAlignment == 0,
              "every box must start on a 1024-byte boundary, where the swizzle pattern starts");
static_assert(kStages >= 2, "the pipeline needs a stage to multiply and one to copy into");

// The device code needs compute capability 9.0: for older architectures in
// gpu_arch only the empty kernel below is built.
// TODO(step 07): wgmma exists for sm_90a alone, not in the compute_90 PTX the
// build also makes: guard the device code with __CUDA_ARCH_FEAT_SM90_ALL
// (here and in the kernel) instead of __CUDA_ARCH__ >= 900.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
// Where the 8 halves of 16-byte chunk `chunk` of row `row` are (an offset in
// halves) in a tile that the TMA wrote as boxes of kRows rows x 64 halves,
// side by side (chunk / 8 is the box), in the 128-byte swizzle: within its
// box, chunk c of row r is at chunk c ^ (r % 8) of that row. Each box starts
// on a 1024-byte boundary, so r % 8 is the address's bits 7 to 9, which are
// what the hardware XORs into bits 4 to 6. For A (one box, 8 chunks per row)
// this is step 05's swizzled<8>.
template <int kRows>
__device__ inline int tma_swizzled(int row, int chunk) {
    return ((chunk / 8 * kRows + row) * 8 + ((chunk % 8) ^ (row % 8))) * 8;
}

// The shared-memory address of p (32 bits), as ldmatrix, mbarrier and the TMA want it.
__device__ inline std::uint32_t shared_address(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// TODO(step 07): in place of ldmatrix and mma.sync (and tma_swizzled, which
// only they use): matrix_descriptor(start, leading, stride) (bits 0-13, 16-29,
// 32-45: the three byte counts / 16; bits 62-63: 1, the 128-byte swizzle),
// wgmma.fence, wgmma.commit_group, wgmma.wait_group N, and
// wgmma_64x256x16(acc, descriptor_a, descriptor_b) with its 128 accumulators
// as "+f" operands and imm-trans-b = 1 (B is N-major). README.md has the PTX.
// Four 8 x 8 tiles of halves: lanes 0-7 give the row addresses of the first,
// 8-15 of the second, 16-23 of the third, 24-31 of the fourth. Lane l gets
// row l / 4, halves 2 (l % 4) and 2 (l % 4) + 1 of tile i in r[i].
__device__ inline void ldmatrix_x4(std::uint32_t (&r)[4], const __half* row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(shared_address(row)));
}

// The same, each 8 x 8 tile transposed on the way: lane l gets rows 2 (l % 4)
// and 2 (l % 4) + 1 of column l / 4.
__device__ inline void ldmatrix_x4_trans(std::uint32_t (&r)[4], const __half* row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(shared_address(row)));
}

// d += a * b for a 16 x 16 fragment of A (4 registers of 2 halves), a 16 x 8
// fragment of B (2 registers) and a 16 x 8 accumulator (4 floats).
__device__ inline void mma_16x8x16(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0, std::uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
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

// --- The mbarrier and the TMA -----------------------------------------------
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
#endif

// The tensor maps are kernel parameters (__grid_constant__: the kernel reads
// them where the launch put them, and the TMA reads them from there too).
__global__ void __launch_bounds__(kThreads, 1) hgemm_wgmma(const __grid_constant__ CUtensorMap a_map,
                                                           const __grid_constant__ CUtensorMap b_map,
                                                           float* __restrict__ C, int M, int N, int K, bool pairs) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
    // kStages tiles of A (one box of BM x BK), then kStages tiles of B (kBoxesB
    // boxes of BK x 64), from the first 1024-byte boundary of the dynamic
    // shared memory on: element (row, col) of a tile is at
    // tma_swizzled<rows>(row, col / 8) + col % 8.
    extern __shared__ __align__(128) unsigned char shared[];
    __shared__ __align__(8) std::uint64_t full[kStages];  // stage s's copies have landed
    const std::uint32_t misalignment = shared_address(shared) % kSwizzleAlignment;
    __half* const As = reinterpret_cast<__half*>(shared + (misalignment == 0 ? 0 : kSwizzleAlignment - misalignment));
    __half* const Bs = As + kStages * kStageAHalves;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    // The block's tile of C, in the grouped order (tile_position): the blocks
    // running at one time share their rows of A and columns of B in L2.
    int tile_row, tile_col;
    tile_position(blockIdx.y * gridDim.x + blockIdx.x, gridDim.y, gridDim.x, tile_row, tile_col);
    const int block_row = tile_row * BM, block_col = tile_col * BN;
    const int warp_row = (warp / kWarpsN) * WM, warp_col = (warp % kWarpsN) * WN;  // within the block tile

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

    // TODO(step 07): no fragments: float acc[32][4] per thread, and the two
    // descriptors of 16-term step ks of a stage for this warpgroup. A: start
    // at its 64 rows of the stage's box, + 32 ks bytes; stride 1024 bytes
    // (8 rows of 128); leading 16 (unused). B: start 16 ks rows down the
    // stage's first box; stride 1024; leading 8192 bytes (the next box).
    // Two sets of fragments: the mma.syncs of one 16-term step read one set
    // while the ldmatrix of the next step fill the other.
    std::uint32_t a[2][kMmaM][4], b[2][kMmaN / 2][4];
    float acc[kMmaM][kMmaN][4] = {};

    // The fragments of 16-term step `ks` of `stage` into set `set`: as in
    // step 05, lane l points at row l % 16 and chunk l / 16 of each 16 x 16
    // piece (of A: rows x terms; of B: terms x columns, transposed on the
    // way), at the place the TMA's swizzle put it.
    const auto load_fragments = [&](int set, int stage, int ks) {
        const __half* const as = As + stage * kStageAHalves;
        const __half* const bs = Bs + stage * kStageBHalves;
#pragma unroll
        for (int i = 0; i < kMmaM; ++i)
            ldmatrix_x4(a[set][i], as + tma_swizzled<BM>(warp_row + i * 16 + lane % 16, ks * 2 + lane / 16));
#pragma unroll
        for (int j = 0; j < kMmaN / 2; ++j)
            ldmatrix_x4_trans(b[set][j],
                              bs + tma_swizzled<BK>(ks * 16 + lane % 16, (warp_col + j * 16) / 8 + lane / 16));
    };

    const auto multiply = [&](int set) {
#pragma unroll
        for (int i = 0; i < kMmaM; ++i)
#pragma unroll
            for (int j = 0; j < kMmaN; ++j)
                mma_16x8x16(acc[i][j], a[set][i], b[set][j / 2][j % 2 * 2], b[set][j / 2][j % 2 * 2 + 1]);
    };

    // TODO(step 07): per tile: wait for its stage, wgmma.fence, the 4 wgmmas,
    // commit them as one group, wait_group 1 (the previous tile's group has
    // completed), __syncthreads, then thread 0 refills the previous tile's
    // stage. After the loop: wait_group 0 before the accumulators are read,
    // and an empty asm volatile with them as "+f" operands after the wait
    // (and after their zeroing), so that the compiler moves no access across.
    const int tiles = (K + BK - 1) / BK;
    // The barriers, one arrival (the copying thread's) per phase; then the
    // first kStages - 1 tiles, and the first fragments of tile 0.
    if (tid == 0) {
        for (int s = 0; s < kStages; ++s) barrier_init(shared_address(&full[s]), 1);
        barrier_init_fence();
    }
    __syncthreads();
    if (tid == 0)
        for (int s = 0; s < kStages - 1 && s < tiles; ++s) fetch(s * BK, s);
    wait_for_tile(0);
    load_fragments(0, 0, 0);

    int stage = 0;             // the stage the fragments are read from
    int refill = kStages - 1;  // the stage tile t + kStages - 1 goes into: tile t - 1's
    for (int t = 0; t < tiles; ++t) {
#pragma unroll
        for (int ks = 0; ks < kKSteps; ++ks) {
            const bool last_step = ks == kKSteps - 1;
            if (last_step && t + 1 < tiles) {
                // The next fragments are tile t + 1's first: wait for its
                // bytes. The barrier then says that every warp has loaded its
                // last fragments of tile t (in the k-step before), so tile t's
                // stage may be refilled after this (at ks == 0 of tile t + 1).
                stage = stage + 1 == kStages ? 0 : stage + 1;
                wait_for_tile(t + 1);
                __syncthreads();
            }
            if (!last_step || t + 1 < tiles) load_fragments((ks + 1) % 2, stage, (ks + 1) % kKSteps);
            if (ks == 0) {
                if (tid == 0 && t + kStages - 1 < tiles) fetch((t + kStages - 1) * BK, refill);
                refill = refill + 1 == kStages ? 0 : refill + 1;
            }
            multiply(ks % 2);
        }
    }

    // TODO(step 07): wgmma's accumulators: lane l of warp w (of the
    // warpgroup) holds, in acc[j][0..3], rows 16 w + l / 4 and 16 w + l / 4 + 8
    // of the warpgroup's slab, columns 8 j + 2 (l % 4) and the next. So warp
    // becomes tid % 128 / 32 beside warpgroup = tid / 128 (the slab starts at
    // row 64 warpgroup of the block tile), and warp_row and warp_col go.
    // Lane l holds, of each 16 x 8 accumulator, rows l / 4 and l / 4 + 8,
    // columns 2 (l % 4) and 2 (l % 4) + 1.
    const int group = lane / 4, pair = lane % 4 * 2;
#pragma unroll
    for (int i = 0; i < kMmaM; ++i) {
#pragma unroll
        for (int j = 0; j < kMmaN; ++j) {
            const int row = block_row + warp_row + i * 16 + group, col = block_col + warp_col + j * 8 + pair;
            store_pair(C, row, col, M, N, acc[i][j][0], acc[i][j][1], pairs);
            store_pair(C, row + 8, col, M, N, acc[i][j][2], acc[i][j][3], pairs);
        }
    }
#endif
}

// The step's name in the messages of the Hopper steps' host helpers
// (tracks/hgemm/hopper.h).
// TODO(step 07): name step 07.
constexpr char kStep[] = "hgemm step 06";

}  // namespace

void hgemm::step07_wgmma(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    // Refuses a GPU without the TMA, or a build without compute capability 9.0.
    // TODO(step 07): wgmma runs on compute capability 9.0 only (not on later
    // GPUs): refuse any other (hgemm::Needs::sm_90a), naming wgmma.
    require_hopper(reinterpret_cast<const void*>(hgemm_wgmma), kStep, "TMA", hgemm::Needs::sm_90_or_later);
    // The tensor maps' rule: rows 16 bytes apart, matrices 16-byte aligned.
    // Elsewhere, step 05's kernel and its checked copies (the solution of the
    // step before, linked into every program that has this step).
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
