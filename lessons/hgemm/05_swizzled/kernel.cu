// Hgemm, step 05: a swizzled shared-memory layout, bigger tiles, fragments
// loaded one step ahead.                                   (your starting point)
//
// This is the step 04 solution, renamed. Keep its pipeline and instructions,
// and change what goes together: the tiles' rows packed, with the 16-byte
// chunks of each row permuted (XOR-swizzled) instead of padded, so that
// ldmatrix and the copies stay free of bank conflicts; a 128 x 256 block tile
// of 8 warps of 64 x 64 in four stages, which the packed tiles make room for;
// each 16-term step's fragments loaded while the step before it multiplies;
// and every swizzled address worked out once, before the main loop. The
// TODO(step 05) markers say where; README.md in this folder draws the swizzle.
// `meson compile -C build hgemm-05 && build/lessons/hgemm-05 --size 1024`
// runs your kernel against the CPU reference, beside the solutions of steps
// 01 to 04.
#include "tracks/hgemm/device.cuh"
#include "tracks/hgemm/kernels.h"

#include "course/async_copy.cuh"
#include "course/check.h"
#include "course/launch_helpers.h"

#include <cstddef>
#include <cstdint>
// TODO(step 05): <cstdio> too, for the launcher's note on GPUs with less
// shared memory (std::fprintf).

namespace {

using course::device::copy_async_commit;
using course::device::copy_async_wait;
using hgemm::copy_8_halves_async;
// TODO(step 05): the templates below run outside hgemm's launcher, so they
// name hgemm::attributes_of, hgemm::grid_for and hgemm::vectors_fit with
// using-declarations too. Done for you: hgemm::tile_position (below).
using hgemm::tile_position;

// The block tile, as in step 02: BM x BN outputs, BK terms per step; 8 warps,
// 2 x 4 over it, each a WM x WN warp tile of kMmaM x kMmaN mma tiles of 16 x 8.
// kStages tiles of A and of B in shared memory.
// TODO(step 05): BN = 256, so that each of the 2 x 4 warps has a 64 x 64
// warp tile (kMmaM x kMmaN = 4 x 8), and the stages' constants (BK,
// kStages = 4, the packed stages' halves and bytes, kKSteps = BK / 16,
// kChunksA = BK / 8, kChunksB = BN / 8) as members of a template
// Pipeline<BK, kStages>: Tiles = Pipeline<32, 4> and Fallback =
// Pipeline<32, 2> (48 KiB, for GPUs that give a block less than Tiles's
// 96 KiB, such as Turing: static_assert that it fits 64 KiB).
constexpr int BM = 128, BN = 128, BK = 32;
constexpr int kStages = 3;
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int WM = BM / kWarpsM, WN = BN / kWarpsN;  // 64 x 32
constexpr int kMmaM = WM / 16, kMmaN = WN / 8;       // 4 x 4 accumulators of 16 x 8 per warp
constexpr int kWarps = kWarpsM * kWarpsN;
constexpr int kThreads = kWarps * 32;
// TODO(step 05): no padding: the rows are packed (kPad and the pitches go).
constexpr int kPad = 8;  // halves added to each row of the tiles: 16 bytes
constexpr int kPitchA = BK + kPad, kPitchB = BN + kPad;
static_assert(WM % 16 == 0 && WN % 16 == 0, "warp tiles must be whole 16 x 16 fragments of A and pairs of 16 x 8 of B");
static_assert(BK % 16 == 0, "a step of BK terms must be whole mma.syncs");
static_assert((BM * BK / 8) % kThreads == 0 && (BK * BN / 8) % kThreads == 0,
              "the threads must share each tile evenly, 8 halves (16 bytes) each");
static_assert(kPitchA % 8 == 0 && kPitchB % 8 == 0, "ldmatrix reads 16-byte rows: pitches of whole 8 halves");
// A stage: A's padded tile, then B's; the stages one after the other.
constexpr int kStageAHalves = BM * kPitchA, kStageBHalves = BK * kPitchB;
constexpr std::size_t kSharedBytes = std::size_t{kStages} * (kStageAHalves + kStageBHalves) * sizeof(__half);
static_assert(kStages >= 2, "the pipeline needs a stage to multiply and one to copy into");
static_assert(kSharedBytes <= 64 * 1024, "the stages must fit the 64 KiB a Turing block may have");

// TODO(step 05): swizzled<kChunks>(row, chunk), the offset in halves of
// chunk `chunk` (8 halves) of row `row` in a packed tile of kChunks chunks
// per row: (row * kChunks + (chunk ^ f(row))) * 8, with f(row) = row % 8 when
// kChunks >= 8, and row / (8 / kChunks) % kChunks when a 128-byte line holds
// several rows. README.md shows why the 8 rows of an ldmatrix then fall in 8
// different groups of banks.

// The shared-memory address of p, as ldmatrix wants it (32 bits).
__device__ inline std::uint32_t shared_address(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

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

// TODO(step 05): a template on the Pipeline T and on bool kWhole (whole
// tiles: no copy needs a bounds check), and __launch_bounds__(kThreads, 1):
// 128 accumulators and two sets of fragments need up to 255 registers.
__global__ void __launch_bounds__(kThreads)
    hgemm_swizzled(const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C, int M, int N,
                   int K, bool pairs, bool a_vectors, bool b_vectors) {
    // kStages tiles of A, then kStages tiles of B: As[stage][row][col] and
    // Bs[stage][row][col] read as step 03's As[row][col] and Bs[row][col].
    extern __shared__ __align__(128) unsigned char shared[];
    // TODO(step 05): As and Bs as plain __half pointers to the packed stages:
    // element (row, col) of stage s is at As + s * kStageAHalves +
    // swizzled<kChunksA>(row, col / 8) + col % 8.
    auto As = reinterpret_cast<__half(*)[BM][kPitchA]>(shared);
    auto Bs = reinterpret_cast<__half(*)[BK][kPitchB]>(shared + kStages * kStageAHalves * sizeof(__half));

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    // TODO(step 05): done for you: the blocks take the tiles of C in groups
    // of 8 tile rows, column by column (tile_position in device.cuh), so
    // that the blocks running at one time share strips of A and B in L2.
    int tile_row, tile_col;
    tile_position(blockIdx.y * gridDim.x + blockIdx.x, gridDim.y, gridDim.x, tile_row, tile_col);
    const int block_row = tile_row * BM, block_col = tile_col * BN;
    const int warp_row = (warp / kWarpsN) * WM, warp_col = (warp % kWarpsN) * WN;  // within the block tile

    // Issues the copies of the block's tiles of A (BM x BK) and B (BK x BN)
    // at k0 into `stage`, 8 halves per copy; nothing waits here.
    // TODO(step 05): one chunk per copy: row = v / kChunks, chunk = v %
    // kChunks, to its swizzled place in the stage. Work the places out once,
    // before the loop: copy n is stored n * kThreads chunks after copy 0 (the
    // swizzle repeats). With kWhole, copy 16 bytes (a cp.async.cg of 16, as
    // course::device::copy_async<16> issues it) from pointers moved on by one
    // tile per fetch, with no bounds; otherwise copy_8_halves_async.
    const auto fetch = [&](int k0, int stage) {
#pragma unroll
        for (int n = 0; n < BM * BK / 8 / kThreads; ++n) {
            const int v = tid + n * kThreads, row = v / (BK / 8), col = v % (BK / 8) * 8;
            copy_8_halves_async(&As[stage][row][col], A, block_row + row, k0 + col, M, K, a_vectors);
        }
#pragma unroll
        for (int n = 0; n < BK * BN / 8 / kThreads; ++n) {
            const int v = tid + n * kThreads, row = v / (BN / 8), col = v % (BN / 8) * 8;
            copy_8_halves_async(&Bs[stage][row][col], B, k0 + row, block_col + col, K, N, b_vectors);
        }
    };

    float acc[kMmaM][kMmaN][4] = {};

    // TODO(step 05): two sets of fragments, a[2][kMmaM][4] and
    // b[2][kMmaN / 2][4]; load_fragments(set, stage, ks) does the ldmatrix of
    // 16-term step ks into one set (chunk ks * 2 + l / 16 of A's rows, chunk
    // (warp_col + j * 16) / 8 + l / 16 of B's), and multiply(set) issues the
    // mma.syncs on one set. Step 03's multiplication below goes. Each lane's
    // ldmatrix addresses within a stage (32-bit shared addresses) are worked
    // out before the loop too: the next 16 rows are a constant further on.
    // Step 03's multiplication of one pair of tiles, on `stage`.
    const auto multiply = [&](int stage) {
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            // A: the four 8 x 8 tiles of a 16 x 16 fragment are (rows 0-7, k 0-7),
            // (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15): lane l
            // points at row l % 16, column 8 (l / 16).
            std::uint32_t a[kMmaM][4];
#pragma unroll
            for (int i = 0; i < kMmaM; ++i)
                ldmatrix_x4(a[i], &As[stage][warp_row + i * 16 + lane % 16][kk + lane / 16 * 8]);
            // B, stored k by n: transposed, the four tiles (k 0-7, n 0-7),
            // (k 8-15, n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15) are the two
            // registers of a 16 x 8 fragment for columns 0-7, then for 8-15.
            std::uint32_t b[kMmaN / 2][4];
#pragma unroll
            for (int j = 0; j < kMmaN / 2; ++j)
                ldmatrix_x4_trans(b[j], &Bs[stage][kk + lane % 16][warp_col + j * 16 + lane / 16 * 8]);
#pragma unroll
            for (int i = 0; i < kMmaM; ++i)
#pragma unroll
                for (int j = 0; j < kMmaN; ++j)
                    mma_16x8x16(acc[i][j], a[i], b[j / 2][j % 2 * 2], b[j / 2][j % 2 * 2 + 1]);
        }
    };

    const int tiles = (K + BK - 1) / BK;
    // The first kStages - 1 tiles, one group of copies each (empty past the
    // last tile, when K is short).
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < tiles) fetch(s * BK, s);
        copy_async_commit();
    }
    // TODO(step 05): after the first tiles' commits, wait, __syncthreads and
    // load_fragments(0, 0, 0). Then for every tile t and 16-term step ks:
    //   on the tile's last step, if tile t + 1 exists: move `stage` on,
    //     copy_async_wait<kStages - 2>() and __syncthreads();
    //   load_fragments((ks + 1) % 2, stage, (ks + 1) % kKSteps), unless this
    //     is the last step of the last tile;
    //   on the first step: fetch tile t + kStages - 1 into `refill` (if it
    //     exists), copy_async_commit(), move `refill` on;
    //   multiply(ks % 2).
    int stage = 0;             // tile t's stage: t % kStages
    int refill = kStages - 1;  // the stage tile t + kStages - 1 goes into: tile t - 1's
    for (int t = 0; t < tiles; ++t) {
        copy_async_wait<kStages - 2>();  // this thread's copies of tile t have landed ...
        __syncthreads();                 // ... everyone's have, and no warp reads tile t - 1 any more
        if (t + kStages - 1 < tiles) fetch((t + kStages - 1) * BK, refill);
        copy_async_commit();
        multiply(stage);
        stage = stage + 1 == kStages ? 0 : stage + 1;
        refill = refill + 1 == kStages ? 0 : refill + 1;
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

}  // namespace

// TODO(step 05): needs_fallback(), asked once (a static): does this GPU give
// a block less than Tiles::kSharedBytes (cudaDevAttrMaxSharedMemoryPerBlockOptin)?
// Then say so once on stderr. A template launch<T> and
// pipeline_attributes<T> for either pipeline, and the two functions below
// pick Fallback or Tiles with it; launch<T> runs the kWhole kernel where the
// shape is whole tiles (whole_tiles<T>) and A and B take 16-byte copies.
void hgemm::step05_swizzled(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const void* kernel = reinterpret_cast<const void*>(hgemm_swizzled);
    course::note_if_copies_synchronously(kernel, "hgemm step 04");
    course::allow_dynamic_shared(kernel, kSharedBytes);  // past 48 KiB: the kernel opts in
    const dim3 grid = grid_for(N, BN, M, BM);            // x over columns, y over rows
    const bool pairs = N % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
    hgemm_swizzled<<<grid, kThreads, kSharedBytes, stream>>>(A, B, C, M, N, K, pairs, vectors_fit(A, K),
                                                             vectors_fit(B, N));
    CUDA_CHECK_LAUNCH();
}

// The kernel's registers and shared memory, for the ladder's last columns:
// cudaFuncGetAttributes counts static shared memory only, and the stages are
// dynamic, so they are added.
cudaFuncAttributes hgemm::step05_swizzled_attributes() {
    cudaFuncAttributes attributes = attributes_of(hgemm_swizzled);
    attributes.sharedSizeBytes += kSharedBytes;
    return attributes;
}
