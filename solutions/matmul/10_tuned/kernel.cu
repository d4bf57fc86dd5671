// Matmul, step 10: the tile configuration picked for the GPU and the shape.
//
// Step 09's kernel, unchanged, compiled for nine tile configurations: the
// block tile BM x BN, the phase depth BK, the warp tile, a lane's outputs,
// the number of stages, how A is copied, and with them the threads per block.
// Which is fastest depends on the GPU (its shared memory, its multiprocessors)
// and on the shape (how many blocks a grid has, how many of them are partial,
// how long K is). The launcher does not guess: the first time it meets a
// device, a shape and an alignment of the matrices, it runs every
// configuration that fits the GPU's shared memory on the problem itself (a
// warm-up and the best of 3 runs), keeps the fastest, and launches it from
// then on. That first call waits for its timing runs; every later call only
// enqueues its kernel.
//
// What each parameter trades (README.md has the table):
//   BM x BN  bigger tiles read fewer bytes per multiply-add from global
//            memory, but make fewer blocks: a small or ragged problem leaves
//            multiprocessors idle, or computes on padding;
//   BK       deeper phases mean fewer barriers per term, and more shared
//            memory per stage;
//   stages   more tiles in flight hide a longer wait for global memory, for
//            more shared memory, which may leave room for fewer blocks;
//   lanes    8 x 16 outputs a lane instead of 8 x 8: 6 shared-memory reads
//            per 128 multiply-adds instead of 4 per 64, for about 210
//            registers, so half the threads fit on a multiprocessor;
//   A        copied 16 bytes at a time by rows (a quarter of the copies),
//            transposed where it is read, for more registers;
//   threads  follow from the tiles: 128 x 256 tiles of 64 x 64 warps are 256
//            threads, 64 x 128 tiles of 32 x 64 warps 128.
// The sweep printed after the ladder runs every configuration alone at the
// ladder's shape and marks the one picked.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"
#include "course/launch_helpers.h"
#include "course/timing.h"

#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace {

// From tracks/matmul/device.cuh.
using matmul::copy_async;
using matmul::copy_async_commit;
using matmul::copy_async_or_zero;
using matmul::copy_async_wait;
using matmul::store4;

// How A's tile goes into shared memory.
enum class ACopy {
    transposed,  // As[k][m]: 4-byte copies into the transposed place; a float4 of As is 4 rows at one k
    rows,        // As[m][k], as in A: 16-byte copies; a float4 of As is 4 terms of one row
};

// A block tile of BM x BN outputs in phases of BK terms, split into warp tiles
// of WM x WN; each lane computes TM x TN outputs, in groups of 4 columns
// (TN / 4 groups, WN / (TN / 4) apart) and, with A transposed, groups of 4
// rows likewise (with A by rows, its rows are WM / TM apart: see row_in_warp).
// kStages tiles of A and of B in shared memory. __launch_bounds__ asks for
// room for kSmThreads threads per multiprocessor, which caps the registers
// at 65536 / kSmThreads per thread (128 for 512).
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int kStages_, ACopy kACopy_, int kSmThreads_>
struct Tiles {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
    static constexpr int kStages = kStages_;
    static constexpr ACopy kACopy = kACopy_;
    static constexpr int kSmThreads = kSmThreads_;
    static constexpr bool kATransposed = kACopy == ACopy::transposed;
    static constexpr int kPad = 4;  // floats after each row of As (step 07)
    static constexpr int kWarps = (BM / WM) * (BN / WN);
    static constexpr int kThreads = 32 * kWarps;
    static constexpr int kLaneCols = WN / TN;  // a warp's lanes as a grid over its tile
    static constexpr int kLaneRows = WM / TM;
    static constexpr int kBVectors = BK * BN / 4 / kThreads;  // 16-byte pieces of B's tile per thread
    static constexpr int kMinBlocks = kThreads >= kSmThreads ? 1 : kSmThreads / kThreads;
    // A's tile: transposed, BK rows of BM (+ pad) floats; or BM rows of BK (+ pad).
    static constexpr int kARows = kATransposed ? BK : BM;
    static constexpr int kARowFloats = (kATransposed ? BM : BK) + kPad;
    static constexpr int kAStageFloats = kARows * kARowFloats;
    static constexpr int kBStageFloats = BK * BN;
    static constexpr std::size_t kSharedBytes = std::size_t{kStages} * (kAStageFloats + kBStageFloats) * 4;

    static_assert(BM % WM == 0 && BN % WN == 0, "the warp tiles must cover the block tile exactly");
    static_assert(TM % 4 == 0 && TN % 4 == 0, "a lane reads its fragments as float4s");
    static_assert(WM % TM == 0 && WN % TN == 0 && kLaneRows * kLaneCols == 32,
                  "a warp tile must be exactly 32 lanes of TM x TN outputs");
    static_assert(kATransposed ? WM % (4 * kLaneRows) == 0 : true, "a lane's groups of 4 rows must tile WM");
    static_assert(WN % (4 * kLaneCols) == 0, "a lane's groups of 4 columns must tile WN");
    static_assert(BN % 4 == 0 && BK % 4 == 0, "rows are copied as whole 16-byte pieces");
    static_assert(kBVectors >= 1 && BK * BN % (4 * kThreads) == 0, "the threads must share B's tile evenly");
    static_assert(kThreads % BN == 0, "each thread's copies of B must share one column of the tile");
    static_assert(kARowFloats % 4 == 0 && kAStageFloats % 4 == 0, "every row of every stage must be 16-byte aligned");
    // A transposed: a warp copies patches of 4 rows by 8 terms (see the kernel).
    static_assert(!kATransposed || (BK % 8 == 0 && BM % 4 == 0 && kThreads % (4 * BK) == 0 && BM * BK % kThreads == 0),
                  "A transposed: BK a multiple of 8, and each thread's copies of A in one column of the tile");
    // A by rows: 16-byte pieces (4-byte copies on the ragged path), whole rows per round of copies.
    static_assert(kATransposed || (kThreads % BK == 0 && BM * BK % (4 * kThreads) == 0),
                  "A by rows: the threads must share A's tile evenly, in whole rows");
    static_assert(kStages >= 2, "the pipeline needs a stage to compute on and one to copy into");
    static_assert(kThreads >= kSmThreads || kSmThreads % kThreads == 0, "whole blocks per multiprocessor");
};
// Row i (0 .. TM - 1) of a lane's outputs within its warp tile. A
// transposed: groups of 4 rows, WM / (TM / 4) apart, each one float4 of a
// row of As. A by rows: rows kLaneRows apart, so that the kLaneRows
// different rows a warp reads at once lie in different banks (rows of
// BK + 4 floats: 4, 12 or 20 banks apart).
template <typename T>
__device__ inline int row_in_warp(int lane_row, int i) {
    if constexpr (T::kATransposed)
        return i / 4 * (T::WM / (T::TM / 4)) + 4 * lane_row + i % 4;
    else
        return lane_row + T::kLaneRows * i;
}

// Column j (0 .. TN - 1) of a lane's outputs: groups of 4, WN / (TN / 4)
// apart (spread() in step 07 and 08, for TN = 8).
template <typename T>
__device__ inline int col_in_warp(int lane_col, int j) {
    return j / 4 * (T::WN / (T::TN / 4)) + 4 * lane_col + j % 4;
}

// Which copies a kernel may use (the launcher picks).
enum class Edges {
    none,          // whole tiles, 16-byte aligned matrices: no checks
    aligned_rows,  // B's rows start 16-byte aligned (and A's, if copied by rows): checked 16-byte copies
    any,           // any shape and alignment: 4-byte copies
};

template <typename T, Edges kEdges>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
                                      tuned_pipeline(const float* __restrict__ A, const float* __restrict__ B,
                                                     float* __restrict__ C, int M, int N, int K) {
    // kStages tiles of A (transposed or by rows, padded), then kStages tiles of B.
    extern __shared__ __align__(16) float shared[];
    auto As = reinterpret_cast<float(*)[T::kARows][T::kARowFloats]>(shared);
    auto Bs = reinterpret_cast<float(*)[T::BK][T::BN]>(shared + T::kStages * T::kAStageFloats);
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * T::BM, col0 = blockIdx.x * T::BN;
    // Which warp tile, and which lane of it.
    const int warp = tid / 32, lane = tid % 32;
    const int warp_row0 = warp / (T::BN / T::WN) * T::WM, warp_col0 = warp % (T::BN / T::WN) * T::WN;
    const int lane_row = lane / T::kLaneCols, lane_col = lane % T::kLaneCols;

    // Where this thread's copies go. A transposed moves 4 bytes at a time
    // into its transposed place: a warp's 32 copies are a patch of 4 rows (m)
    // by 8 terms (k), lane = 8 * (m % 4) + k % 8. In global memory that is 4
    // pieces of 32 contiguous bytes; in shared memory the rows of As are
    // BM + kPad = 132 floats apart, 4 banks, so the 32 lanes write banks
    // 4 * (k % 8) + m % 4: all 32 different. The thread's next copy is
    // kARowStep rows further down, in the same column. A by rows, and B, move
    // row by row, kAWidth and kBWidth floats a copy: a warp copies contiguous
    // pieces of its rows, and the thread's next copy is kARowStep (kBRowStep)
    // rows further.
    constexpr int kAWidth = !T::kATransposed && kEdges != Edges::any ? 4 : 1;  // floats per copy of A
    constexpr int kBWidth = kEdges == Edges::any ? 1 : 4;                      // floats per copy of B
    const int a_k = T::kATransposed ? tid % 8 + tid / 32 % (T::BK / 8) * 8 : tid % (T::BK / kAWidth) * kAWidth;
    const int a_m = T::kATransposed ? tid / (4 * T::BK) * 4 + tid / 8 % 4 : tid / (T::BK / kAWidth);
    const int b_k = tid / (T::BN / kBWidth), b_n = tid % (T::BN / kBWidth) * kBWidth;
    constexpr int kARowStep = T::kATransposed ? T::kThreads / (4 * T::BK) * 4 : T::kThreads / (T::BK / kAWidth);
    constexpr int kACount = T::BM / kARowStep;  // copies of A per thread and phase
    constexpr int kBRowStep = T::kThreads / (T::BN / kBWidth);
    constexpr int kBCount = T::BK / kBRowStep;
    // The first copies' sources at k0 = 0; 64-bit offsets, since a block at
    // the edge may start past the matrix's last row.
    const float* a_first = A + static_cast<std::ptrdiff_t>(row0 + a_m) * K + a_k;
    const float* b_first = B + static_cast<std::ptrdiff_t>(b_k) * N + col0 + b_n;

    // Issues the copies of the tiles at k0 into `stage`; nothing waits here.
    // Outside a matrix (checked kernels only) a copy writes zeros, and its
    // source is the matrix's first element, so that no copy ever carries an
    // address outside the matrix.
    const auto fetch = [&](int k0, int stage) {
        const float* a_src = a_first + k0;
#pragma unroll
        for (int l = 0; l < kACount; ++l, a_src += kARowStep * static_cast<std::ptrdiff_t>(K)) {
            const int m = a_m + l * kARowStep;
            float* dst = T::kATransposed ? &As[stage][a_k][m] : &As[stage][m][a_k];
            if constexpr (kEdges == Edges::none) {
                copy_async<4 * kAWidth>(dst, a_src);
            } else {
                // With kAWidth 4, K is a multiple of 4 here: a piece is all inside or all outside.
                const bool inside = row0 + m < M && k0 + a_k < K;
                copy_async_or_zero<4 * kAWidth>(dst, inside ? a_src : A, inside);
            }
        }
        const float* b_src = b_first + static_cast<std::ptrdiff_t>(k0) * N;
#pragma unroll
        for (int l = 0; l < kBCount; ++l, b_src += kBRowStep * static_cast<std::ptrdiff_t>(N)) {
            float* dst = &Bs[stage][b_k + l * kBRowStep][b_n];
            if constexpr (kEdges == Edges::none) {
                copy_async<16>(dst, b_src);
            } else {
                // With kBWidth 4, N is a multiple of 4 here: a piece is all inside or all outside.
                const bool inside = k0 + b_k + l * kBRowStep < K && col0 + b_n < N;
                copy_async_or_zero<4 * kBWidth>(dst, inside ? b_src : B, inside);
            }
        }
    };

    float acc[T::TM][T::TN] = {};
    // The multiply-adds of one k: the lane's TM values of A times its TN of B.
    const auto multiply = [&](const float(&a_frag)[T::TM], int stage, int k) {
        float b_frag[T::TN];
#pragma unroll
        for (int j = 0; j < T::TN; j += 4) {
            const float4 b = *reinterpret_cast<const float4*>(&Bs[stage][k][warp_col0 + col_in_warp<T>(lane_col, j)]);
            b_frag[j] = b.x, b_frag[j + 1] = b.y, b_frag[j + 2] = b.z, b_frag[j + 3] = b.w;
        }
#pragma unroll
        for (int i = 0; i < T::TM; ++i)
#pragma unroll
            for (int j = 0; j < T::TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
    };
    const auto compute = [&](int stage) {
        if constexpr (T::kATransposed) {
            // One k at a time: a float4 of As[k] is 4 of the lane's rows.
#pragma unroll
            for (int k = 0; k < T::BK; ++k) {
                float a_frag[T::TM];
#pragma unroll
                for (int i = 0; i < T::TM; i += 4) {
                    const float4 a =
                        *reinterpret_cast<const float4*>(&As[stage][k][warp_row0 + row_in_warp<T>(lane_row, i)]);
                    a_frag[i] = a.x, a_frag[i + 1] = a.y, a_frag[i + 2] = a.z, a_frag[i + 3] = a.w;
                }
                multiply(a_frag, stage, k);
            }
        } else {
            // Four k at a time: a float4 of a row of As is 4 terms of one of
            // the lane's rows, used over the next 4 steps of k.
#pragma unroll
            for (int k = 0; k < T::BK; k += 4) {
                float4 a4[T::TM];
#pragma unroll
                for (int i = 0; i < T::TM; ++i)
                    a4[i] = *reinterpret_cast<const float4*>(&As[stage][warp_row0 + row_in_warp<T>(lane_row, i)][k]);
#pragma unroll
                for (int kk = 0; kk < 4; ++kk) {
                    float a_frag[T::TM];
#pragma unroll
                    for (int i = 0; i < T::TM; ++i)
                        a_frag[i] = kk == 0 ? a4[i].x : kk == 1 ? a4[i].y : kk == 2 ? a4[i].z : a4[i].w;
                    multiply(a_frag, stage, k + kk);
                }
            }
        }
    };

    const int phases = (K + T::BK - 1) / T::BK;
    // The first kStages - 1 tiles, one group of copies each (empty past the
    // last tile, when K is short).
#pragma unroll
    for (int s = 0; s < T::kStages - 1; ++s) {
        if (s < phases) fetch(s * T::BK, s);
        copy_async_commit();
    }
    int stage = 0;                // tile t's stage: t % kStages
    int refill = T::kStages - 1;  // the stage that tile t + kStages - 1 goes into
    for (int t = 0; t < phases; ++t) {
        copy_async_wait<T::kStages - 2>();  // this thread's copies of tile t have landed ...
        __syncthreads();                    // ... everyone's have, and nobody reads tile t - 1 any more
        if (t + T::kStages - 1 < phases) fetch((t + T::kStages - 1) * T::BK, refill);
        copy_async_commit();
        compute(stage);
        stage = stage + 1 == T::kStages ? 0 : stage + 1;
        refill = refill + 1 == T::kStages ? 0 : refill + 1;
    }

#pragma unroll
    for (int i = 0; i < T::TM; ++i)
#pragma unroll
        for (int j = 0; j < T::TN; j += 4)
            store4<kEdges != Edges::none>(C, row0 + warp_row0 + row_in_warp<T>(lane_row, i),
                                          col0 + warp_col0 + col_in_warp<T>(lane_col, j), M, N, &acc[i][j]);
}

// Launches one of the three kernels with the tiles' shared memory, opting it
// in past 48 KiB.
template <typename T, Edges kEdges>
void launch_with_edges(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const auto kernel = tuned_pipeline<T, kEdges>;
    course::allow_dynamic_shared(reinterpret_cast<const void*>(kernel), T::kSharedBytes);
    kernel<<<matmul::grid_for(N, T::BN, M, T::BM), T::kThreads, T::kSharedBytes, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// One configuration, alone: the fast path when every tile is whole and the
// matrices are 16-byte aligned, 16-byte copies of B (and of A by rows) when
// their rows are aligned, 4-byte copies otherwise (step 09's launcher).
template <typename T>
void launch_tiles(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    if (matmul::fits_fast_path(A, B, C, M, N, K, T::BM, T::BN, T::BK))
        launch_with_edges<T, Edges::none>(A, B, C, M, N, K, stream);
    else if (N % 4 == 0 && course::aligned16(B) && (T::kATransposed || (K % 4 == 0 && course::aligned16(A))))
        launch_with_edges<T, Edges::aligned_rows>(A, B, C, M, N, K, stream);
    else
        launch_with_edges<T, Edges::any>(A, B, C, M, N, K, stream);
}

// The fast path's kernel, with the dynamic shared memory its launches get
// counted in sharedSizeBytes (cudaFuncGetAttributes counts static shared
// memory only, and this kernel has none).
template <typename T>
cudaFuncAttributes tiles_attributes() {
    cudaFuncAttributes attributes = matmul::attributes_of(tuned_pipeline<T, Edges::none>);
    attributes.sharedSizeBytes += T::kSharedBytes;
    return attributes;
}

template <typename T>
matmul::TileConfig config_of() {
    const auto x = [](int a, int b) { return std::to_string(a) + " x " + std::to_string(b); };
    return {x(T::BM, T::BN) + " x " + std::to_string(T::BK) + ", warps " + x(T::WM, T::WN) + ", lanes " +
                x(T::TM, T::TN) + ", " + std::to_string(T::kStages) + " stages, A " +
                (T::kATransposed ? "transposed" : "by rows") + ", " + std::to_string(T::kThreads) + " threads",
            T::kThreads, T::kSharedBytes, launch_tiles<T>, tiles_attributes<T>};
}

constexpr ACopy kT = ACopy::transposed, kR = ACopy::rows;

// Step 09's configuration: the first one, and the one a launch captured into
// a graph takes (it cannot be timed).
using FirstTiles = Tiles<128, 128, 16, 32, 64, 8, 8, 3, kT, 512>;

// The configurations, each with what it tries, and its shared memory per
// block. With 8 x 8 outputs a lane, 512 threads per multiprocessor at 128
// registers each; with 8 x 16 or 16 x 8, 256 threads at up to 255 registers
// (fewer warps to hide latency, three quarters of the shared-memory reads per
// multiply-add). tests/matmul/sweep-configs.sh times these and others.
const std::vector<matmul::TileConfig>& configurations() {
    static const std::vector<matmul::TileConfig> configs = {
        config_of<FirstTiles>(),                                      // step 09's: 48.75 KiB
        config_of<Tiles<128, 128, 16, 32, 64, 8, 8, 4, kT, 512>>(),   // one more tile in flight: 65 KiB
        config_of<Tiles<128, 128, 32, 32, 64, 8, 8, 3, kT, 512>>(),   // half the barriers per term: 97.5 KiB
        config_of<Tiles<128, 128, 32, 32, 64, 8, 8, 3, kR, 512>>(),   // A in 16-byte copies: 102 KiB
        config_of<Tiles<64, 128, 16, 32, 64, 8, 8, 3, kT, 512>>(),    // 128 threads, twice the blocks: 36.75 KiB
        config_of<Tiles<128, 128, 16, 64, 64, 8, 16, 4, kT, 256>>(),  // 8 x 16 a lane, 128 threads: 65 KiB
        config_of<Tiles<128, 256, 16, 64, 64, 8, 16, 3, kT, 256>>(),  // 8 x 16 a lane, 256 threads: 72.75 KiB
        config_of<Tiles<256, 128, 16, 64, 64, 16, 8, 3, kT, 256>>(),  // the same, the other way round
        config_of<Tiles<128, 256, 32, 64, 64, 8, 16, 3, kT, 256>>(),  // and half the barriers: 145.5 KiB
    };
    return configs;
}

// What a pick depends on: the GPU, the shape, and which of A, B and C are
// 16-byte aligned (that decides which kernel each configuration runs).
struct Key {
    int device, M, N, K;
    bool a16, b16, c16;
    bool operator<(const Key& o) const {
        return std::tie(device, M, N, K, a16, b16, c16) < std::tie(o.device, o.M, o.N, o.K, o.a16, o.b16, o.c16);
    }
};

Key key_of(const float* A, const float* B, const float* C, int M, int N, int K) {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    return {device, M, N, K, course::aligned16(A), course::aligned16(B), course::aligned16(C)};
}

std::map<Key, int>& picks() {
    static std::map<Key, int> chosen;
    return chosen;
}

// Runs every configuration that fits the GPU's shared memory on these very
// arguments (after the work already on `stream`, which may be producing A and
// B) and returns the index of the fastest: a warm-up and the best of 3 runs
// each, no L2 flush (what stays in L2 from one run to the next is what a
// program that calls the multiply repeatedly sees too).
int time_and_pick(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    int device = 0, limit = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    course::TimingConfig timing;
    timing.warmup = 1;
    timing.runs = 3;
    timing.flush_l2 = false;
    CUDA_CHECK(cudaStreamSynchronize(stream));
    int best = -1;
    double best_ms = 0;
    const std::vector<matmul::TileConfig>& configs = configurations();
    for (std::size_t i = 0; i < configs.size(); ++i) {
        if (configs[i].shared_bytes > static_cast<std::size_t>(limit)) continue;
        const matmul::Launcher launch = configs[i].launch;
        const course::TimingStats stats =
            course::time_launches([&](cudaStream_t s) { launch(A, B, C, M, N, K, s); }, timing, nullptr, stream);
        if (best < 0 || stats.min_ms < best_ms) {
            best = static_cast<int>(i);
            best_ms = stats.min_ms;
        }
    }
    if (best < 0) throw course::Error("matmul step 10: no tile configuration fits this GPU's shared memory");
    return best;
}

int last_launched = 0;  // for the ladder's regs and smem/block columns

}  // namespace

void matmul::step10_tuned(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const std::vector<TileConfig>& configs = configurations();
    matmul::note_if_copies_synchronously(reinterpret_cast<const void*>(tuned_pipeline<FirstTiles, Edges::none>),
                                         "matmul step 10");
    const Key key = key_of(A, B, C, M, N, K);
    const auto found = picks().find(key);
    int index = 0;
    if (found != picks().end()) {
        index = found->second;
    } else {
        // A launch captured into a graph (course::record_launches) cannot be
        // timed: it takes the first configuration, and picks nothing.
        cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
        CUDA_CHECK(cudaStreamIsCapturing(stream, &capture));
        if (capture == cudaStreamCaptureStatusNone) index = picks()[key] = time_and_pick(A, B, C, M, N, K, stream);
    }
    last_launched = index;
    configs[static_cast<std::size_t>(index)].launch(A, B, C, M, N, K, stream);
}

// The configuration launched last (the first before any launch).
cudaFuncAttributes matmul::step10_tuned_attributes() {
    return configurations()[static_cast<std::size_t>(last_launched)].attributes();
}

std::vector<matmul::TileConfig> matmul::step10_tuned_configs() { return configurations(); }

int matmul::step10_tuned_choice(const float* A, const float* B, const float* C, int M, int N, int K) {
    const auto found = picks().find(key_of(A, B, C, M, N, K));
    return found == picks().end() ? -1 : found->second;
}
