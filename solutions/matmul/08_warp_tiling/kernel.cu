// Matmul, step 08: warp tiling, double-buffered.
//
// Two changes in one step; the README says how to measure each on its own.
// The tiles are also 16 terms deep (BK = 16; step 07: 8), so each thread
// moves two float4s of A's tile and two of B's per phase.
//
//  1. Warp tiling. In step 07 the 256 threads of a block are a 16 x 16 grid
//     over the 128 x 128 tile, so a warp (32 consecutive threads) is two rows
//     of 16 threads: 16 rows of C by all 128 columns. Per k it reads 16
//     floats of A and 128 of B from shared memory (576 bytes). Here each warp
//     owns a compact 32 x 64 rectangle of the tile (the block is 4 x 2 such
//     warp tiles), its 32 lanes a 4 x 8 grid inside it, each lane still 8 x 8
//     outputs in two groups of 4 each way. Per k a warp now reads 32 floats of
//     A and 64 of B: 384 bytes for the same 2048 multiply-adds, and each
//     16-byte read of the warp touches at most 128 contiguous bytes (step
//     07: up to 256). Every level of the hierarchy now has its own tile:
//     block (shared memory), warp, thread (registers).
//  2. Double buffering. Steps 03 to 07 load a tile, wait at a barrier,
//     compute, wait again: while a block loads, its multiply-adds stop (other
//     blocks on the multiprocessor fill in only partly). Here shared memory
//     holds two stages of tiles. While the block computes on one, each
//     thread's loads of the next tile are in flight into registers; after the
//     computation it stores them into the other stage, and one barrier per
//     phase is enough: a stage is overwritten only after the barrier that
//     follows the last reads of it.
//
// The tile sizes are a template parameter (Tiles), so that other shapes can be
// tried without touching the kernel; step08_warp_tiling uses DefaultTiles.
// As in steps 06 and 07, shapes that are multiples of the block tile, with
// 16-byte aligned matrices, take the float4 fast path; any other shape runs
// the checked path (single floats, zeros outside the matrices).
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"

namespace {

// From tracks/matmul/device.cuh.
using matmul::load4;
using matmul::spread;
using matmul::store4;

// A block tile of BM x BN outputs in phases of BK terms, split into warp tiles
// of WM x WN; each lane computes 8 x 8 outputs (two groups of 4 rows, WM / 2
// apart, times two groups of 4 columns, WN / 2 apart).
template <int BM_, int BN_, int BK_, int WM_, int WN_, bool kDoubleBuffer_>
struct Tiles {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_;
    static constexpr bool kDoubleBuffer = kDoubleBuffer_;
    static constexpr int kStages = kDoubleBuffer ? 2 : 1;
    static constexpr int kPad = 4;  // floats after each row of As (step 07)
    static constexpr int kWarps = (BM / WM) * (BN / WN);
    static constexpr int kThreads = 32 * kWarps;
    static constexpr int kLaneCols = WN / 8;  // a warp's lanes as a grid over its tile
    static constexpr int kLaneRows = WM / 8;
    static constexpr int kAVectors = BM * BK / 4 / kThreads;  // float4s of A's tile per thread
    static constexpr int kBVectors = BK * BN / 4 / kThreads;  // float4s of B's tile per thread
    // Enough resident blocks for 512 threads per multiprocessor (two of 256):
    // __launch_bounds__ then caps registers at 65536 / 512 = 128 per thread,
    // which the 64 accumulators and the prefetched tiles fit in.
    static constexpr int kMinBlocks = kThreads >= 512 ? 1 : 512 / kThreads;

    static_assert(BM % WM == 0 && BN % WN == 0, "the warp tiles must cover the block tile exactly");
    static_assert(WM % 8 == 0 && WN % 8 == 0, "each lane computes 8 x 8 outputs");
    static_assert(kLaneRows * kLaneCols == 32, "a warp tile must be exactly 32 lanes of 8 x 8 outputs");
    static_assert(BK % 4 == 0 && BN % 4 == 0, "rows are moved as whole float4s");
    static_assert(kAVectors >= 1 && BM * BK % (4 * kThreads) == 0, "the threads must share A's tile evenly");
    static_assert(kBVectors >= 1 && BK * BN % (4 * kThreads) == 0, "the threads must share B's tile evenly");
    static_assert(kStages * BK * ((BM + kPad) + BN) * 4 <= 48 * 1024,
                  "static shared memory is limited to 48 KiB per block");
};
using DefaultTiles = Tiles<128, 128, 16, 32, 64, true>;

template <typename T, bool kChecked>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
                                      warp_tiled(const float* __restrict__ A, const float* __restrict__ B,
                                                 float* __restrict__ C, int M, int N, int K) {
    __shared__ __align__(16) float As[T::kStages][T::BK][T::BM + T::kPad];  // transposed, padded
    __shared__ __align__(16) float Bs[T::kStages][T::BK][T::BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * T::BM, col0 = blockIdx.x * T::BN;
    // Which warp tile, and which lane of it.
    const int warp = tid / 32, lane = tid % 32;
    const int warp_row0 = warp / (T::BN / T::WN) * T::WM, warp_col0 = warp % (T::BN / T::WN) * T::WN;
    const int lane_row = lane / T::kLaneCols, lane_col = lane % T::kLaneCols;

    // The next tiles, on their way from global memory.
    float4 a_next[T::kAVectors], b_next[T::kBVectors];
    const auto fetch = [&](int k0) {
#pragma unroll
        for (int l = 0; l < T::kAVectors; ++l) {
            const int v = tid + l * T::kThreads;
            a_next[l] = load4<kChecked>(A, row0 + v / (T::BK / 4), k0 + v % (T::BK / 4) * 4, M, K);
        }
#pragma unroll
        for (int l = 0; l < T::kBVectors; ++l) {
            const int v = tid + l * T::kThreads;
            b_next[l] = load4<kChecked>(B, k0 + v / (T::BN / 4), col0 + v % (T::BN / 4) * 4, K, N);
        }
    };
    // ... and into shared memory, A transposed.
    const auto stash = [&](int stage) {
#pragma unroll
        for (int l = 0; l < T::kAVectors; ++l) {
            const int v = tid + l * T::kThreads;
            const int m = v / (T::BK / 4), k = v % (T::BK / 4) * 4;
            As[stage][k + 0][m] = a_next[l].x;
            As[stage][k + 1][m] = a_next[l].y;
            As[stage][k + 2][m] = a_next[l].z;
            As[stage][k + 3][m] = a_next[l].w;
        }
#pragma unroll
        for (int l = 0; l < T::kBVectors; ++l) {
            const int v = tid + l * T::kThreads;
            *reinterpret_cast<float4*>(&Bs[stage][v / (T::BN / 4)][v % (T::BN / 4) * 4]) = b_next[l];
        }
    };

    float acc[8][8] = {};
    const auto compute = [&](int stage) {
        float a_frag[8], b_frag[8];
#pragma unroll
        for (int k = 0; k < T::BK; ++k) {
#pragma unroll
            for (int i = 0; i < 8; i += 4) {
                const float4 a =
                    *reinterpret_cast<const float4*>(&As[stage][k][warp_row0 + spread(lane_row, i, T::WM)]);
                a_frag[i] = a.x, a_frag[i + 1] = a.y, a_frag[i + 2] = a.z, a_frag[i + 3] = a.w;
            }
#pragma unroll
            for (int j = 0; j < 8; j += 4) {
                const float4 b =
                    *reinterpret_cast<const float4*>(&Bs[stage][k][warp_col0 + spread(lane_col, j, T::WN)]);
                b_frag[j] = b.x, b_frag[j + 1] = b.y, b_frag[j + 2] = b.z, b_frag[j + 3] = b.w;
            }
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] += a_frag[i] * b_frag[j];
        }
    };

    fetch(0);
    stash(0);
    __syncthreads();
    int stage = 0;
    for (int k0 = 0; k0 < K; k0 += T::BK) {
        const bool more = k0 + T::BK < K;
        if constexpr (T::kDoubleBuffer) {
            if (more) fetch(k0 + T::BK);  // issued now, waited for only in stash()
            compute(stage);
            if (more) stash(stage ^ 1);  // the other stage: its last reads were before the last barrier
            __syncthreads();
            stage ^= 1;
        } else {
            compute(0);
            __syncthreads();  // everyone is done reading the tile
            if (more) {
                fetch(k0 + T::BK);
                stash(0);
            }
            __syncthreads();  // the next tile is complete
        }
    }

#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; j += 4)
            store4<kChecked>(C, row0 + warp_row0 + spread(lane_row, i, T::WM),
                             col0 + warp_col0 + spread(lane_col, j, T::WN), M, N, &acc[i][j]);
}

// The launcher for any Tiles: the fast path when the shape and the pointers
// allow 16-byte accesses everywhere, the checked path otherwise.
template <typename T>
void launch_warp_tiled(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 grid = matmul::grid_for(N, T::BN, M, T::BM);
    if (matmul::fits_fast_path(A, B, C, M, N, K, T::BM, T::BN, T::BK))
        warp_tiled<T, false><<<grid, T::kThreads, 0, stream>>>(A, B, C, M, N, K);
    else
        warp_tiled<T, true><<<grid, T::kThreads, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

template <typename T>
cudaFuncAttributes warp_tiled_attributes() {
    return matmul::attributes_of(warp_tiled<T, false>);
}

}  // namespace

void matmul::step08_warp_tiling(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    launch_warp_tiled<DefaultTiles>(A, B, C, M, N, K, stream);
}

// The fast path's kernel: the one that runs at the ladder's default size.
cudaFuncAttributes matmul::step08_warp_tiling_attributes() { return warp_tiled_attributes<DefaultTiles>(); }
