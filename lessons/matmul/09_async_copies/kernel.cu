// Matmul, step 09: asynchronous copies, three stages in flight.   (your starting point)
//
// This is the solution of step 08, renamed: 128 x 128 x 16 block tiles, warp
// tiles of 32 x 64, 8 x 8 outputs per lane, two stages in shared memory, the
// next tiles loaded into registers while the block computes. The computation
// stays as it is. What changes, where the TODO(step 09) markers are, is how
// the tiles get into shared memory:
//   1. cp.async: every piece of a tile is copied from global memory straight
//      into shared memory (copy_async in tracks/matmul/device.cuh), through
//      no register, and the thread does not wait for it;
//   2. three stages: while the block computes on one, the copies of the next
//      two tiles are in flight; still one barrier per phase;
//   3. three stages are 48.75 KiB, past the 48 KiB of static shared memory: the
//      tiles become dynamic shared memory, which the launcher asks for.
// README.md in this folder explains all three; `meson compile -C build
// matmul-09 && build/lessons/matmul-09` runs your kernel beside the others
// and cuBLAS.
#include "tracks/matmul/device.cuh"
#include "tracks/matmul/kernels.h"

#include "course/check.h"
// TODO(step 09): include "course/launch_helpers.h" for course::allow_dynamic_shared.

namespace {

// From tracks/matmul/device.cuh.
// TODO(step 09): copy_async, copy_async_or_zero, copy_async_commit and
// copy_async_wait take the place of load4.
using matmul::load4;
using matmul::spread;
using matmul::store4;

// A block tile of BM x BN outputs in phases of BK terms, split into warp tiles
// of WM x WN; each lane computes 8 x 8 outputs (two groups of 4 rows, WM / 2
// apart, times two groups of 4 columns, WN / 2 apart).
// TODO(step 09): the last parameter becomes `int kStages_`, the number of
// stages (3), in place of kDoubleBuffer.
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
    // TODO(step 09): A's tile moves 4 bytes at a time (a copy cannot
    // transpose a float4): kACopies = BM * BK / kThreads copies per thread
    // (8). B's stays in 16-byte pieces (kBVectors), or 4-byte copies
    // (kBCopies = BK * BN / kThreads) where its rows are not 16-byte aligned.
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
    // TODO(step 09): the limit goes: the tiles become dynamic shared memory.
    // kSharedBytes = kStages * (BK * (BM + kPad) + BK * BN) * 4, what a
    // launch asks for (49,920 bytes with three stages).
    static_assert(kStages * BK * ((BM + kPad) + BN) * 4 <= 48 * 1024,
                  "static shared memory is limited to 48 KiB per block");
};
// TODO(step 09): Tiles<128, 128, 16, 32, 64, 3>: three stages.
using DefaultTiles = Tiles<128, 128, 16, 32, 64, true>;

// TODO(step 09): three kernels instead of two: the second template
// parameter tells which copies a kernel may use, e.g. an enum class Edges:
//   none          whole tiles, 16-byte aligned matrices: no checks;
//   aligned_rows  B's rows start 16-byte aligned (N % 4 == 0, B aligned):
//                 16-byte copies of B, checked;
//   any           any shape: B copied 4 bytes at a time, checked.
template <typename T, bool kChecked>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocks)
                                      async_pipeline(const float* __restrict__ A, const float* __restrict__ B,
                                                     float* __restrict__ C, int M, int N, int K) {
    // TODO(step 09): dynamic shared memory: `extern __shared__ __align__(16)
    // float shared[];`, then As and Bs as pointers to arrays into it, so that
    // As[stage][k][m] still works:
    //   auto As = reinterpret_cast<float(*)[T::BK][T::BM + T::kPad]>(shared);
    //   and Bs after kStages tiles of A (T::kStages * T::BK * (T::BM + T::kPad) floats).
    __shared__ __align__(16) float As[T::kStages][T::BK][T::BM + T::kPad];  // transposed, padded
    __shared__ __align__(16) float Bs[T::kStages][T::BK][T::BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * T::BM, col0 = blockIdx.x * T::BN;
    // Which warp tile, and which lane of it.
    const int warp = tid / 32, lane = tid % 32;
    const int warp_row0 = warp / (T::BN / T::WN) * T::WM, warp_col0 = warp % (T::BN / T::WN) * T::WN;
    const int lane_row = lane / T::kLaneCols, lane_col = lane % T::kLaneCols;

    // TODO(step 09): no registers for the next tiles, and no stash(): one
    // fetch(k0, stage) issues the copies of the tiles at k0 into `stage`.
    //   A: copy_async<4>, kACopies per thread. A warp's 32 copies are 4 rows
    //      (m) by 8 terms (k): the thread's first copy goes to As[stage][k][m]
    //      with k = tid % 8 + tid / 32 % (BK / 8) * 8 and
    //      m = tid / (4 * BK) * 4 + tid / 8 % 4; its next ones are
    //      kThreads / (4 * BK) * 4 = 16 rows further down each (README.md:
    //      32-byte pieces of global memory, 32 different banks);
    //   B: copy_async<16> where the float4s below went (4-byte copies, row
    //      tid / BN and column tid % BN, then kThreads / BN rows further, for
    //      Edges::any).
    // Keep one source pointer per matrix and step it from copy to copy: the
    // kernel runs at the 128-register cap, and addresses computed afresh for
    // every copy can push it into spills (the ladder's regs column shows them).
    // Checked kernels use copy_async_or_zero<4 or 16>(dst, inside ? src : X,
    // inside): zeros outside the matrix, and never an address outside it.
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

    // TODO(step 09): the pipeline, one barrier per phase (README.md proves it):
    //   tiles 0 .. kStages - 2: fetch(s * BK, s); copy_async_commit(); each
    //   (commit even when there is no such tile: an empty group);
    //   for each tile t:
    //     copy_async_wait<kStages - 2>();  this thread's copies of tile t landed
    //     __syncthreads();                 everyone's did; nobody reads t - 1
    //     if tile t + kStages - 1 exists, fetch it into the stage t - 1 used;
    //     copy_async_commit();             always, so the count stays right
    //     compute(t % kStages);
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
// TODO(step 09): for each of the three kernels: course::allow_dynamic_shared(
// p, T::kSharedBytes) with p = reinterpret_cast<const void*>(kernel), then
// launch it with T::kSharedBytes of dynamic shared memory (the third launch
// parameter). Aligned rows: N % 4 == 0 and course::aligned16(B). And once,
// first thing: matmul::note_if_copies_synchronously(p of the fast kernel,
// "matmul step 09").
template <typename T>
void launch_warp_tiled(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const dim3 grid = matmul::grid_for(N, T::BN, M, T::BM);
    if (matmul::fits_fast_path(A, B, C, M, N, K, T::BM, T::BN, T::BK))
        async_pipeline<T, false><<<grid, T::kThreads, 0, stream>>>(A, B, C, M, N, K);
    else
        async_pipeline<T, true><<<grid, T::kThreads, 0, stream>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

// TODO(step 09): cudaFuncGetAttributes counts static shared memory only: add
// T::kSharedBytes to sharedSizeBytes, so that the ladder shows the tiles.
template <typename T>
cudaFuncAttributes warp_tiled_attributes() {
    return matmul::attributes_of(async_pipeline<T, false>);
}

}  // namespace

void matmul::step09_async_copies(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream) {
    launch_warp_tiled<DefaultTiles>(A, B, C, M, N, K, stream);
}

// The fast path's kernel: the one that runs at the ladder's default size.
cudaFuncAttributes matmul::step09_async_copies_attributes() { return warp_tiled_attributes<DefaultTiles>(); }
