// Hgemm, step 05, lean: kernel.cu's pipeline with its address arithmetic
// out of the main loop, for tests/hgemm/sweep-tiles.sh to time beside it.
//
// Not part of the build: the lesson and its grading use kernel.cu alone. The
// sweep compiles this file in kernel.cu's place, with the same -D defines.
// Without HGEMM05_LEAN (or with 0) this file is kernel.cu. With
// HGEMM05_LEAN=1 the launcher runs hgemm_swizzled_lean (below) wherever the
// shape is whole tiles and A and B may be copied 16 bytes at a time, and
// kernel.cu's launcher everywhere else: the checked path is kernel.cu's.
//
// Why: kernel.cu checks bounds on every copy and swizzles every address anew
// at every 16-term step, and its tensor pipe is busy a smaller fraction of
// the time than step 06's, which has the same mma.sync and ldmatrix and
// copies with the TMA (Nsight Compute: slides/data/h100/ncu/hgemm-05-2.csv,
// hgemm-06-2.csv). Here each thread works out its copies' places and its
// ldmatrix addresses once, before the main loop; in the loop another stage or
// another 16 rows is an added constant, and a copy's source a pointer moved
// on by one tile. Nothing else differs, and this kernel runs much faster
// (slides/data/h100/hgemm-sweep-tiles.txt): that address arithmetic is most
// of what step 05 loses to step 06.
#ifndef HGEMM05_LEAN
#define HGEMM05_LEAN 0
#endif

#if HGEMM05_LEAN
// kernel.cu's launcher and resource report, renamed: the ones below choose
// between it and the lean kernel.
#define step05_swizzled step05_swizzled_checked
#define step05_swizzled_attributes step05_swizzled_checked_attributes
#endif
#include "kernel.cu"
#if HGEMM05_LEAN
#undef step05_swizzled
#undef step05_swizzled_attributes

namespace hgemm {
inline namespace COURSE_KERNEL_COPY {
void step05_swizzled(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream);
cudaFuncAttributes step05_swizzled_attributes();
}  // namespace COURSE_KERNEL_COPY
}  // namespace hgemm

namespace {

// kernel.cu's ldmatrix_x4 and ldmatrix_x4_trans, from a shared address
// already in ldmatrix's form: the lean kernel works its addresses out as
// such numbers.
__device__ inline void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address));
}

__device__ inline void ldmatrix_x4_trans(std::uint32_t (&r)[4], std::uint32_t address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address));
}

// 16 bytes from global `from` to the shared address `to`, with no bounds:
// the lean kernel copies whole tiles only. Synchronous below compute
// capability 8.0, as in course/async_copy.cuh.
__device__ inline void copy_16_bytes_async(std::uint32_t to, const __half* from) {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to), "l"(from) : "memory");
#else
    *static_cast<uint4*>(__cvta_shared_to_generic(to)) = *reinterpret_cast<const uint4*>(from);
#endif
}

// True when the swizzle of a tile of kChunks chunks per row repeats every
// `rows` rows: row r + rows is stored as row r is, `rows` rows further on.
// The lean kernel relies on it to reach the rows of a warp's next fragment,
// and of a thread's next copy, by adding a constant.
template <int kChunks>
constexpr bool swizzle_repeats_every(int rows) {
    for (int row = 0; row < 64; ++row)
        for (int chunk = 0; chunk < kChunks; ++chunk)
            if (swizzled<kChunks>(row + rows, chunk) != swizzled<kChunks>(row, chunk) + rows * kChunks * 8)
                return false;
    return true;
}

// Step 05's kernel for whole tiles (M, N and K multiples of BM, BN and BK;
// A and B copied 16 bytes at a time): the same stages, swizzle, copies,
// ldmatrix and mma.sync in the same order, with the address arithmetic out of
// the main loop. There are no bounds to check, so each thread's copies are a
// fixed set of chunks of each tile: their swizzled places are worked out once
// (one more stage is a constant further on), and their sources are pointers
// moved on by one tile per copy. A lane's ldmatrix row addresses within a
// stage are worked out once too: the next 16 rows of A, and the next 16 terms
// of B, are stored as the first 16 are, a constant further on
// (swizzle_repeats_every). The copies and the ldmatrix addresses use
// kernel.cu's swizzled, as its kernel does.
template <typename T>
__global__ void __launch_bounds__(kThreads, 1)
                                      hgemm_swizzled_lean(const __half* __restrict__ A, const __half* __restrict__ B,
                                                          float* __restrict__ C, int M, int N, int K, bool pairs) {
    extern __shared__ __align__(128) unsigned char shared[];
    constexpr int kCopiesA = BM * T::kChunksA / kThreads, kCopiesB = T::BK * T::kChunksB / kThreads;
    constexpr int kPassRowsA = kThreads / T::kChunksA, kPassRowsB = kThreads / T::kChunksB;  // rows per copy
    static_assert(kThreads % T::kChunksA == 0 && kThreads % T::kChunksB == 0,
                  "each thread copies the same chunk of every row it copies");
    static_assert(swizzle_repeats_every<T::kChunksA>(kPassRowsA) && swizzle_repeats_every<T::kChunksB>(kPassRowsB),
                  "a thread's next copy goes kThreads chunks further on");
    static_assert(swizzle_repeats_every<T::kChunksA>(16) && swizzle_repeats_every<T::kChunksB>(16),
                  "the next 16 rows of a tile are stored as the first 16 are");
    constexpr std::uint32_t kStageABytes = T::kStageAHalves * sizeof(__half);
    constexpr std::uint32_t kStageBBytes = T::kStageBHalves * sizeof(__half);
    constexpr std::uint32_t kRows16ABytes = 16 * T::kChunksA * 16, kRows16BBytes = 16 * T::kChunksB * 16;
    const std::uint32_t as = shared_address(shared), bs = as + T::kStages * kStageABytes;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const int warp_row = (warp / kWarpsN) * WM, warp_col = (warp % kWarpsN) * WN;  // within the block tile

    // This thread's copies: as in kernel.cu's hgemm_swizzled, copy n of a
    // tile is chunk tid + n * kThreads, that is row tid / kChunks + n *
    // kPassRows, chunk tid % kChunks. to_a and to_b: the first one's place
    // in stage 0 (bytes); from_a and from_b: each copy's source in the next
    // tile to fetch.
    const int row_a = tid / T::kChunksA, chunk_a = tid % T::kChunksA;
    const int row_b = tid / T::kChunksB, chunk_b = tid % T::kChunksB;
    const std::uint32_t to_a = as + swizzled<T::kChunksA>(row_a, chunk_a) * sizeof(__half);
    const std::uint32_t to_b = bs + swizzled<T::kChunksB>(row_b, chunk_b) * sizeof(__half);
    const __half* from_a[kCopiesA];
    const __half* from_b[kCopiesB];
#pragma unroll
    for (int n = 0; n < kCopiesA; ++n)
        from_a[n] = A + static_cast<long long>(block_row + row_a + n * kPassRowsA) * K + chunk_a * 8;
#pragma unroll
    for (int n = 0; n < kCopiesB; ++n)
        from_b[n] = B + static_cast<long long>(row_b + n * kPassRowsB) * N + block_col + chunk_b * 8;
    const long long tile_b = static_cast<long long>(T::BK) * N;  // halves from one tile of B to the next

    // The next tile (tiles are fetched in order) into `stage`.
    const auto fetch = [&](int stage) {
        const std::uint32_t to_a_stage = to_a + stage * kStageABytes, to_b_stage = to_b + stage * kStageBBytes;
#pragma unroll
        for (int n = 0; n < kCopiesA; ++n) {
            copy_16_bytes_async(to_a_stage + n * kThreads * 16, from_a[n]);
            from_a[n] += T::BK;
        }
#pragma unroll
        for (int n = 0; n < kCopiesB; ++n) {
            copy_16_bytes_async(to_b_stage + n * kThreads * 16, from_b[n]);
            from_b[n] += tile_b;
        }
    };

    // This lane's ldmatrix addresses within a stage (bytes from its start),
    // as in kernel.cu's hgemm_swizzled: for A, row warp_row + lane % 16 and
    // chunk ks * 2 + lane / 16 at each 16-term step ks (fragment i is 16 i
    // rows further on); for B, row lane % 16 and chunk (warp_col + 16 j) / 8
    // + lane / 16 of fragment pair j (step ks is 16 ks rows further on).
    std::uint32_t at_a[T::kKSteps], at_b[kMmaN / 2];
#pragma unroll
    for (int ks = 0; ks < T::kKSteps; ++ks)
        at_a[ks] = swizzled<T::kChunksA>(warp_row + lane % 16, ks * 2 + lane / 16) * sizeof(__half);
#pragma unroll
    for (int j = 0; j < kMmaN / 2; ++j)
        at_b[j] = swizzled<T::kChunksB>(lane % 16, (warp_col + j * 16) / 8 + lane / 16) * sizeof(__half);

    std::uint32_t a[2][kMmaM][4], b[2][kMmaN / 2][4];
    float acc[kMmaM][kMmaN][4] = {};

    const auto load_fragments = [&](int set, int stage, int ks) {
        const std::uint32_t a_stage = as + stage * kStageABytes + at_a[ks];
        const std::uint32_t b_stage = bs + stage * kStageBBytes + ks * kRows16BBytes;
#pragma unroll
        for (int i = 0; i < kMmaM; ++i) ldmatrix_x4(a[set][i], a_stage + i * kRows16ABytes);
#pragma unroll
        for (int j = 0; j < kMmaN / 2; ++j) ldmatrix_x4_trans(b[set][j], b_stage + at_b[j]);
    };

    const auto multiply = [&](int set) {
#pragma unroll
        for (int i = 0; i < kMmaM; ++i)
#pragma unroll
            for (int j = 0; j < kMmaN; ++j)
                mma_16x8x16(acc[i][j], a[set][i], b[set][j / 2][j % 2 * 2], b[set][j / 2][j % 2 * 2 + 1]);
    };

    // From here on, hgemm_swizzled's pipeline, step for step.
    const int tiles = K / T::BK;
#pragma unroll
    for (int s = 0; s < T::kStages - 1; ++s) {
        if (s < tiles) fetch(s);
        copy_async_commit();
    }
    copy_async_wait<T::kStages - 2>();
    __syncthreads();
    load_fragments(0, 0, 0);

    int stage = 0;
    int refill = T::kStages - 1;
    for (int t = 0; t < tiles; ++t) {
#pragma unroll
        for (int ks = 0; ks < T::kKSteps; ++ks) {
            const bool last_step = ks == T::kKSteps - 1;
            if (last_step && t + 1 < tiles) {
                stage = stage + 1 == T::kStages ? 0 : stage + 1;
                copy_async_wait<T::kStages - 2>();
                __syncthreads();
            }
            if (!last_step || t + 1 < tiles) load_fragments((ks + 1) % 2, stage, (ks + 1) % T::kKSteps);
            if (ks == 0) {
                if (t + T::kStages - 1 < tiles) fetch(refill);
                copy_async_commit();
                refill = refill + 1 == T::kStages ? 0 : refill + 1;
            }
            multiply(ks % 2);
        }
    }

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

// True when the launcher runs hgemm_swizzled_lean: at least one tile of K,
// whole tiles, and A and B copied 16 bytes at a time. Every other shape takes
// kernel.cu's launcher (hgemm_swizzled, the checked path).
template <typename T>
bool lean_fits(const __half* A, const __half* B, int M, int N, int K) {
    return M > 0 && N > 0 && K >= T::BK && M % BM == 0 && N % BN == 0 && K % T::BK == 0 && vectors_fit(A, K) &&
           vectors_fit(B, N);
}

template <typename T>
void launch_lean(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    const void* kernel = reinterpret_cast<const void*>(hgemm_swizzled_lean<T>);
    course::note_if_copies_synchronously(kernel, "hgemm step 05");
    course::allow_dynamic_shared(kernel, T::kSharedBytes);  // past 48 KiB: the kernel opts in
    const dim3 grid = grid_for(N, BN, M, BM);               // x over columns, y over rows
    const bool pairs = N % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
    hgemm_swizzled_lean<T><<<grid, kThreads, T::kSharedBytes, stream>>>(A, B, C, M, N, K, pairs);
    CUDA_CHECK_LAUNCH();
}

}  // namespace

void hgemm::step05_swizzled(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream) {
    if (!needs_fallback() && lean_fits<Tiles>(A, B, M, N, K))
        launch_lean<Tiles>(A, B, C, M, N, K, stream);
    else
        hgemm::step05_swizzled_checked(A, B, C, M, N, K, stream);
}

// The lean kernel's registers and shared memory (the ladder's shapes are
// whole tiles), or kernel.cu's where the GPU runs its two-stage fallback.
cudaFuncAttributes hgemm::step05_swizzled_attributes() {
    if (needs_fallback()) return hgemm::step05_swizzled_checked_attributes();
    cudaFuncAttributes attributes = attributes_of(hgemm_swizzled_lean<Tiles>);
    attributes.sharedSizeBytes += Tiles::kSharedBytes;
    return attributes;
}
#endif  // HGEMM05_LEAN
