// Hgemm, step 05: a swizzled shared-memory layout, bigger tiles, fragments
// loaded one step ahead, addresses worked out before the loop.
//
// Step 04's pipeline (cp.async, stages in flight, one barrier per k-step) and
// instructions (ldmatrix, mma.sync m16n8k16), with changes that belong
// together:
//
//  * The tiles' rows are no longer padded. Step 04 added 16 bytes to every
//    row so that the 8 rows an ldmatrix reads fall in 8 different groups of 4
//    banks. Here the rows are packed, and the 16-byte chunks of each row are
//    permuted instead: chunk c of row r is stored at chunk c ^ f(r), where
//    f(r) takes the 8 rows of any 8 x 8 tile to 8 different groups of banks
//    (swizzled below). ldmatrix and the cp.async copies are free of bank
//    conflicts as before, and no shared memory is spent on padding: the tiles
//    are whole powers of two, and bigger tiles and more stages fit.
//  * The block tile grows from 128 x 128 to BM x BN with 8 warps, each a
//    64 x 64 warp tile: 4 x 8 accumulators of 16 x 8, 128 floats per lane.
//    Per 16 terms a warp loads 4 fragments of A and 8 of B for 32 mma.syncs,
//    where step 04 loaded 4 and 4 for 16: each fragment feeds more
//    multiply-adds, and each block reads fewer bytes per multiply-add.
//  * The fragments of the next 16 terms are loaded (into a second set of
//    registers) before the mma.syncs of these 16 are issued, so that the
//    ldmatrix latency hides behind them; the next tile's wait and barrier
//    move to just before its first fragments are loaded.
//  * The addresses are worked out once, before the main loop. Step 04 works
//    out every copy's source, bounds and place, and every ldmatrix address,
//    anew at each k-step; with the swizzle's XORs on top, that arithmetic
//    takes issue slots the ldmatrix and mma.sync need. Here each thread's
//    copy places and ldmatrix addresses within a stage are computed once: in
//    the loop another stage, copy or 16 rows is an added constant (the
//    swizzle repeats every 16 rows), and a copy's source a pointer moved on
//    by one tile. Where the shape is whole tiles, the launcher runs the
//    kernel's instantiation whose copies check no bounds (kWhole).
//  * The blocks take the tiles of C in groups of 8 tile rows, column by
//    column inside a group (tile_position, in device.cuh), not row by row.
//    Row by row, the blocks running at one time cover a few tile rows and
//    every column strip of B, more than L2 keeps when B is large; grouped,
//    they cover 8 tile rows and a few columns, so each strip of B fetched
//    serves 8 blocks from L2. Large matrices gain most; the starter has this
//    done.
//
// Four stages of 128 x 32 and 32 x 256 halves take 96 KiB (step 04's three
// padded stages of half the width took 56,832 bytes). A GPU that gives a block
// less (Turing: 64 KiB) runs the same kernel with two stages of 32 terms
// (48 KiB), and the program says so once. On Turing the copies are
// synchronous (course/async_copy.cuh), as in step 04.
//
// The constants below are the tile shape and the stages; the README says why
// these, and tests/hgemm/sweep-tiles.sh times other choices on a GPU (it
// rebuilds this file with -DHGEMM05_BM=... and so on).
#include "tracks/hgemm/device.cuh"
#include "tracks/hgemm/kernels.h"

#include "course/async_copy.cuh"
#include "course/check.h"
#include "course/launch_helpers.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>

// The block tile (BM x BN outputs, BK terms per k-step), the warps over it
// (kWarpsM x kWarpsN, each a warp tile of BM / kWarpsM x BN / kWarpsN) and
// the stages in flight.
#ifndef HGEMM05_BM
#define HGEMM05_BM 128
#endif
#ifndef HGEMM05_BN
#define HGEMM05_BN 256
#endif
#ifndef HGEMM05_BK
#define HGEMM05_BK 32
#endif
#ifndef HGEMM05_WARPS_M
#define HGEMM05_WARPS_M 2
#endif
#ifndef HGEMM05_WARPS_N
#define HGEMM05_WARPS_N 4
#endif
#ifndef HGEMM05_STAGES
#define HGEMM05_STAGES 4
#endif

namespace {

using course::device::copy_async_commit;
using course::device::copy_async_wait;
using hgemm::attributes_of;
using hgemm::copy_8_halves_async;
using hgemm::grid_for;
using hgemm::tile_position;
using hgemm::vectors_fit;

constexpr int BM = HGEMM05_BM, BN = HGEMM05_BN;
constexpr int kWarpsM = HGEMM05_WARPS_M, kWarpsN = HGEMM05_WARPS_N;
constexpr int WM = BM / kWarpsM, WN = BN / kWarpsN;  // 64 x 64
constexpr int kMmaM = WM / 16, kMmaN = WN / 8;       // 4 x 8 accumulators of 16 x 8 per warp
constexpr int kWarps = kWarpsM * kWarpsN;
constexpr int kThreads = kWarps * 32;
static_assert(BM % kWarpsM == 0 && BN % kWarpsN == 0, "the warp tiles must cover the block tile exactly");
static_assert(WM % 16 == 0 && WN % 16 == 0, "warp tiles must be whole 16 x 16 fragments of A and pairs of 16 x 8 of B");

// The stages of one pipeline: kStages tiles of BK terms. The kernel is built
// for the constants above and, for GPUs with less shared memory per block,
// for two stages of 32 terms (Fallback below).
template <int BK_, int kStages_>
struct Pipeline {
    static constexpr int BK = BK_, kStages = kStages_;
    static constexpr int kKSteps = BK / 16;                     // 16-term steps of mma.sync per tile
    static constexpr int kChunksA = BK / 8, kChunksB = BN / 8;  // 16-byte chunks per row of A's and B's tiles
    static constexpr int kStageAHalves = BM * BK, kStageBHalves = BK * BN;  // no padding
    static constexpr std::size_t kSharedBytes = std::size_t{kStages} * (kStageAHalves + kStageBHalves) * sizeof(__half);
    static_assert(BK % 32 == 0, "the fragments alternate between two sets of registers: an even number of 16-term "
                                "steps per tile");
    static_assert((kChunksA & (kChunksA - 1)) == 0 && (kChunksB & (kChunksB - 1)) == 0,
                  "the swizzle permutes chunks within a row: a power of two of them");
    static_assert((BM * kChunksA) % kThreads == 0 && (BK * kChunksB) % kThreads == 0,
                  "the threads must share each tile evenly, one 16-byte chunk at a time");
    static_assert(kStages >= 2, "the pipeline needs a stage to multiply and one to copy into");
};
using Tiles = Pipeline<HGEMM05_BK, HGEMM05_STAGES>;
using Fallback = Pipeline<32, 2>;
static_assert(Fallback::kSharedBytes <= 64 * 1024,
              "two stages of 32 terms must fit the 64 KiB a Turing block may have");

// Where the 8 halves of chunk `chunk` of row `row` are stored in a tile of
// kChunks 16-byte chunks per row (an offset in halves). Shared memory is 32
// banks of 4 bytes: 128 bytes, 8 chunks, before the banks repeat. An
// ldmatrix reads the same chunk of 8 consecutive rows, and a warp's copies
// write 8 consecutive chunks at a time. Packed and unpermuted, the 8 rows of
// 64 bytes (A's 32 terms) an ldmatrix reads would fall on 2 groups of banks,
// 4 rows on each: a four-way conflict; rows of 512 bytes (B's 256 columns),
// all 8 on one group. XOR-ing the chunk with bits of the row sends the 8 rows
// to 8 different groups. With 8 or more chunks per row: chunk ^ (row % 8).
// With 4 chunks, two rows share a 128-byte line, one in each half: chunk ^
// (row / 2 % 4) gives the four pairs of rows four different chunks of their
// half. The XOR keeps a chunk within its row, and the 8 chunks of one line
// within that line: the copies stay free of conflicts too.
template <int kChunks>
__host__ __device__ constexpr int swizzled(int row, int chunk) {
    constexpr int kRowsPerLine = kChunks >= 8 ? 1 : 8 / kChunks;  // rows that share one 128-byte line of banks
    constexpr int kMask = (kChunks >= 8 ? 8 : kChunks) - 1;
    return (row * kChunks + (chunk ^ (row / kRowsPerLine & kMask))) * 8;
}

// The shared-memory address of p, as ldmatrix and cp.async want it (32 bits).
__device__ inline std::uint32_t shared_address(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// Four 8 x 8 tiles of halves from the shared address `row` (32 bits):
// lanes 0-7 give the row addresses of the first, 8-15 of the second, 16-23
// of the third, 24-31 of the fourth. Lane l gets row l / 4, halves 2 (l % 4)
// and 2 (l % 4) + 1 of tile i in r[i].
__device__ inline void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(row));
}

// The same, each 8 x 8 tile transposed on the way: lane l gets rows 2 (l % 4)
// and 2 (l % 4) + 1 of column l / 4.
__device__ inline void ldmatrix_x4_trans(std::uint32_t (&r)[4], std::uint32_t row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(row));
}

// d += a * b for a 16 x 16 fragment of A (4 registers of 2 halves), a 16 x 8
// fragment of B (2 registers) and a 16 x 8 accumulator (4 floats).
__device__ inline void mma_16x8x16(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0, std::uint32_t b1) {
#if __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
    // Turing: the first 8 terms (a[0], a[1], b0), then the last 8 (a[2], a[3], b1).
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b0));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[2]), "r"(a[3]), "r"(b1));
#endif
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

// True when the swizzle of a tile of kChunks chunks per row repeats every
// `rows` rows: row r + rows is stored as row r is, `rows` rows further on.
// The kernel relies on it to reach the rows of a warp's next fragment, and
// of a thread's next copy, by adding a constant to an address.
template <int kChunks>
constexpr bool swizzle_repeats_every(int rows) {
    for (int row = 0; row < 64; ++row)
        for (int chunk = 0; chunk < kChunks; ++chunk)
            if (swizzled<kChunks>(row + rows, chunk) != swizzled<kChunks>(row, chunk) + rows * kChunks * 8)
                return false;
    return true;
}

// 16 bytes from global `from` to the shared address `to`, with no bounds:
// the whole-tile kernel's copies. Synchronous below compute capability 8.0,
// as in course/async_copy.cuh.
__device__ inline void copy_16_bytes_async(std::uint32_t to, const __half* from) {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to), "l"(from) : "memory");
#else
    *static_cast<uint4*>(__cvta_shared_to_generic(to)) = *reinterpret_cast<const uint4*>(from);
#endif
}

// kWhole: M, N and K are multiples of BM, BN and BK (at least one tile of K),
// and A and B may be copied 16 bytes at a time, so no copy needs a bounds
// check (hgemm::step05_swizzled picks it). Otherwise every copy checks its
// rows and columns and writes zeros outside A and B, as in step 04.
template <typename T, bool kWhole>
__global__ void __launch_bounds__(kThreads, 1)
                                      hgemm_swizzled(const __half* __restrict__ A, const __half* __restrict__ B,
                                                     float* __restrict__ C, int M, int N, int K, bool pairs,
                                                     bool a_vectors, bool b_vectors) {
    // kStages tiles of A (BM x BK), then kStages tiles of B (BK x BN), each
    // packed and swizzled: element (row, col) of a tile is at
    // swizzled<kChunks>(row, col / 8) + col % 8.
    extern __shared__ __align__(128) unsigned char shared[];
    __half* const As = reinterpret_cast<__half*>(shared);
    __half* const Bs = As + T::kStages * T::kStageAHalves;
    const std::uint32_t as = shared_address(As), bs = shared_address(Bs);  // the same, as ldmatrix wants them
    constexpr std::uint32_t kStageABytes = T::kStageAHalves * sizeof(__half);
    constexpr std::uint32_t kStageBBytes = T::kStageBHalves * sizeof(__half);

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    // The block's tile of C, in the grouped order (tile_position): the blocks
    // running at one time share their rows of A and columns of B in L2.
    int tile_row, tile_col;
    tile_position(blockIdx.y * gridDim.x + blockIdx.x, gridDim.y, gridDim.x, tile_row, tile_col);
    const int block_row = tile_row * BM, block_col = tile_col * BN;
    const int warp_row = (warp / kWarpsN) * WM, warp_col = (warp % kWarpsN) * WN;  // within the block tile

    // This thread's copies, worked out once. Copy n of a tile is chunk tid +
    // n * kThreads of it: row tid / kChunks + n * kPassRows, chunk tid %
    // kChunks. The swizzle repeats every kPassRows rows, so copy n is stored
    // n * kThreads chunks after copy 0, whose place in a stage is place_a
    // (place_b), in halves.
    constexpr int kCopiesA = BM * T::kChunksA / kThreads, kCopiesB = T::BK * T::kChunksB / kThreads;
    constexpr int kPassRowsA = kThreads / T::kChunksA, kPassRowsB = kThreads / T::kChunksB;
    static_assert(kThreads % T::kChunksA == 0 && kThreads % T::kChunksB == 0,
                  "each thread copies the same chunk of every row it copies");
    static_assert(swizzle_repeats_every<T::kChunksA>(kPassRowsA) && swizzle_repeats_every<T::kChunksB>(kPassRowsB),
                  "a thread's next copy is stored kThreads chunks after its last");
    const int row_a = tid / T::kChunksA, chunk_a = tid % T::kChunksA;
    const int row_b = tid / T::kChunksB, chunk_b = tid % T::kChunksB;
    const int place_a = swizzled<T::kChunksA>(row_a, chunk_a), place_b = swizzled<T::kChunksB>(row_b, chunk_b);
    // Whole tiles: each copy's source in the next tile to fetch, moved on by
    // one tile per fetch (tiles are fetched in order).
    const __half* from_a[kCopiesA];
    const __half* from_b[kCopiesB];
#pragma unroll
    for (int n = 0; n < kCopiesA; ++n)
        from_a[n] = A + static_cast<long long>(block_row + row_a + n * kPassRowsA) * K + chunk_a * 8;
#pragma unroll
    for (int n = 0; n < kCopiesB; ++n)
        from_b[n] = B + static_cast<long long>(row_b + n * kPassRowsB) * N + block_col + chunk_b * 8;

    // Issues the copies of the block's tiles of A (BM x BK) and B (BK x BN)
    // at k0 (the next tile) into `stage`, one 16-byte chunk per copy.
    const auto fetch = [&](int k0, int stage) {
        if constexpr (kWhole) {
            const std::uint32_t to_a = as + stage * kStageABytes + place_a * sizeof(__half);
            const std::uint32_t to_b = bs + stage * kStageBBytes + place_b * sizeof(__half);
#pragma unroll
            for (int n = 0; n < kCopiesA; ++n) {
                copy_16_bytes_async(to_a + n * kThreads * 16, from_a[n]);
                from_a[n] += T::BK;
            }
#pragma unroll
            for (int n = 0; n < kCopiesB; ++n) {
                copy_16_bytes_async(to_b + n * kThreads * 16, from_b[n]);
                from_b[n] += static_cast<long long>(T::BK) * N;
            }
        } else {
            __half* const to_a = As + stage * T::kStageAHalves + place_a;
            __half* const to_b = Bs + stage * T::kStageBHalves + place_b;
#pragma unroll
            for (int n = 0; n < kCopiesA; ++n)
                copy_8_halves_async(to_a + n * kThreads * 8, A, block_row + row_a + n * kPassRowsA, k0 + chunk_a * 8, M,
                                    K, a_vectors);
#pragma unroll
            for (int n = 0; n < kCopiesB; ++n)
                copy_8_halves_async(to_b + n * kThreads * 8, B, k0 + row_b + n * kPassRowsB, block_col + chunk_b * 8, K,
                                    N, b_vectors);
        }
    };

    // This lane's ldmatrix addresses within a stage, in bytes, worked out
    // once. As in step 04, lane l points at row l % 16 and chunk l / 16 of
    // each 16 x 16 piece (of A: rows x terms; of B: terms x columns,
    // transposed on the way). For A: rows warp_row + l % 16, chunk ks * 2 +
    // l / 16 at 16-term step ks, in at_a[ks]; fragment i is 16 i rows further
    // on. For B: terms l % 16, chunk (warp_col + 16 j) / 8 + l / 16 for
    // fragment pair j, in at_b[j]; step ks is 16 ks rows further on. "16 rows
    // further on" is a constant because the swizzle repeats every 16 rows.
    static_assert(swizzle_repeats_every<T::kChunksA>(16) && swizzle_repeats_every<T::kChunksB>(16),
                  "the next 16 rows of a tile are stored as the first 16 are, 16 rows further on");
    constexpr std::uint32_t kRows16ABytes = 16 * T::kChunksA * 16, kRows16BBytes = 16 * T::kChunksB * 16;
    std::uint32_t at_a[T::kKSteps], at_b[kMmaN / 2];
#pragma unroll
    for (int ks = 0; ks < T::kKSteps; ++ks)
        at_a[ks] = swizzled<T::kChunksA>(warp_row + lane % 16, ks * 2 + lane / 16) * sizeof(__half);
#pragma unroll
    for (int j = 0; j < kMmaN / 2; ++j)
        at_b[j] = swizzled<T::kChunksB>(lane % 16, (warp_col + j * 16) / 8 + lane / 16) * sizeof(__half);

    // Two sets of fragments: the mma.syncs of one 16-term step read one set
    // while the ldmatrix of the next step fill the other.
    std::uint32_t a[2][kMmaM][4], b[2][kMmaN / 2][4];
    float acc[kMmaM][kMmaN][4] = {};

    // The fragments of 16-term step `ks` of `stage` into set `set`: in the
    // loop, ks is a constant, so each address is a register plus a constant.
    const auto load_fragments = [&](int set, int stage, int ks) {
        const std::uint32_t a_step = as + stage * kStageABytes + at_a[ks];
        const std::uint32_t b_step = bs + stage * kStageBBytes + ks * kRows16BBytes;
#pragma unroll
        for (int i = 0; i < kMmaM; ++i) ldmatrix_x4(a[set][i], a_step + i * kRows16ABytes);
#pragma unroll
        for (int j = 0; j < kMmaN / 2; ++j) ldmatrix_x4_trans(b[set][j], b_step + at_b[j]);
    };

    const auto multiply = [&](int set) {
#pragma unroll
        for (int i = 0; i < kMmaM; ++i)
#pragma unroll
            for (int j = 0; j < kMmaN; ++j)
                mma_16x8x16(acc[i][j], a[set][i], b[set][j / 2][j % 2 * 2], b[set][j / 2][j % 2 * 2 + 1]);
    };

    const int tiles = (K + T::BK - 1) / T::BK;
    // The first kStages - 1 tiles, one group of copies each (empty past the
    // last tile, when K is short), and the first fragments of tile 0.
#pragma unroll
    for (int s = 0; s < T::kStages - 1; ++s) {
        if (s < tiles) fetch(s * T::BK, s);
        copy_async_commit();
    }
    copy_async_wait<T::kStages - 2>();
    __syncthreads();
    load_fragments(0, 0, 0);

    int stage = 0;                // the stage the fragments are read from
    int refill = T::kStages - 1;  // the stage tile t + kStages - 1 goes into: tile t - 1's
    for (int t = 0; t < tiles; ++t) {
#pragma unroll
        for (int ks = 0; ks < T::kKSteps; ++ks) {
            const bool last_step = ks == T::kKSteps - 1;
            if (last_step && t + 1 < tiles) {
                // The next fragments are tile t + 1's first: wait for it. This
                // thread's copies of it have landed, then everyone's; and
                // every warp has loaded its last fragments of tile t (in the
                // k-step before), so tile t's stage may be refilled after this
                // (at ks == 0 of tile t + 1).
                stage = stage + 1 == T::kStages ? 0 : stage + 1;
                copy_async_wait<T::kStages - 2>();
                __syncthreads();
            }
            if (!last_step || t + 1 < tiles) load_fragments((ks + 1) % 2, stage, (ks + 1) % T::kKSteps);
            if (ks == 0) {
                if (t + T::kStages - 1 < tiles) fetch((t + T::kStages - 1) * T::BK, refill);
                copy_async_commit();
                refill = refill + 1 == T::kStages ? 0 : refill + 1;
            }
            multiply(ks % 2);
        }
    }

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
}

// True when this GPU gives a block less shared memory than the stages above
// need, so that the launcher runs the two-stage Fallback instead, and says so
// once. Asked once per program (in a static): the course runs on one device.
bool needs_fallback() {
    static const bool fallback = [] {
        int device = 0, limit = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
        if (static_cast<std::size_t>(limit) >= Tiles::kSharedBytes) return false;
        std::fprintf(stderr,
                     "note: hgemm step 05's %d stages need %zu bytes of shared memory per block, and this GPU gives "
                     "a block at most %d: it runs with 2 stages of 32 terms (%zu bytes)\n",
                     Tiles::kStages, Tiles::kSharedBytes, limit, Fallback::kSharedBytes);
        return true;
    }();
    return fallback;
}

// True when the shape is whole tiles, with at least one tile of K, and A
// and B may be copied 16 bytes at a time: the kernel without bounds checks.
template <typename T>
bool whole_tiles(const __half* A, const __half* B, int M, int N, int K) {
    return M % BM == 0 && N % BN == 0 && K % T::BK == 0 && K >= T::BK && vectors_fit(A, K) && vectors_fit(B, N);
}

template <typename T, bool kWhole>
void launch(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const void* kernel = reinterpret_cast<const void*>(hgemm_swizzled<T, kWhole>);
    course::note_if_copies_synchronously(kernel, "hgemm step 05");
    course::allow_dynamic_shared(kernel, T::kSharedBytes);  // past 48 KiB: the kernel opts in
    const dim3 grid = grid_for(N, BN, M, BM);               // a block per tile; tile_position picks which
    const bool pairs = N % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
    hgemm_swizzled<T, kWhole>
        <<<grid, kThreads, T::kSharedBytes, stream>>>(A, B, C, M, N, K, pairs, vectors_fit(A, K), vectors_fit(B, N));
    CUDA_CHECK_LAUNCH();
}

template <typename T>
void launch(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    if (whole_tiles<T>(A, B, M, N, K))
        launch<T, true>(A, B, C, M, N, K, stream);
    else
        launch<T, false>(A, B, C, M, N, K, stream);
}

// The kernels' registers and shared memory, with their dynamic shared memory
// added (cudaFuncGetAttributes counts static shared memory only): the larger
// of the two kernels' registers and local memory, so that a spill in either
// shows (the ladder's shapes run the whole-tile kernel, a ragged shape the
// checked one).
template <typename T>
cudaFuncAttributes pipeline_attributes() {
    cudaFuncAttributes attributes = attributes_of(hgemm_swizzled<T, true>);
    const cudaFuncAttributes checked = attributes_of(hgemm_swizzled<T, false>);
    if (checked.numRegs > attributes.numRegs) attributes.numRegs = checked.numRegs;
    if (checked.localSizeBytes > attributes.localSizeBytes) attributes.localSizeBytes = checked.localSizeBytes;
    attributes.sharedSizeBytes += T::kSharedBytes;
    return attributes;
}

}  // namespace

void hgemm::step05_swizzled(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    if (needs_fallback())
        launch<Fallback>(A, B, C, M, N, K, stream);
    else
        launch<Tiles>(A, B, C, M, N, K, stream);
}

// The kernel this GPU runs, for the ladder's last columns.
cudaFuncAttributes hgemm::step05_swizzled_attributes() {
    return needs_fallback() ? pipeline_attributes<Fallback>() : pipeline_attributes<Tiles>();
}
