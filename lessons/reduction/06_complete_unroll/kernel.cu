// Reduction, step 06: the tree completely unrolled, block size as a template parameter.
//                                                          (your starting point)
// This is step 05's solution, its kernel and launcher renamed to this
// step's, with the kernel already templated on its block size, and the
// rounds this step writes out taken out (TODO(step 06)).
// README.md in this folder explains the change. Build and run:
// meson compile -C build reduction-06 && build/lessons/reduction-06
#include "tracks/reduction/kernels.h"

namespace {

constexpr unsigned int kThreads = 256;
static_assert((kThreads & (kThreads - 1)) == 0,
              "the tree halves the block each round: kThreads must be a power of two");
static_assert(kThreads >= 64, "the unrolled warp starts by adding element tid + 32: kThreads must be at least 64");

// Warp 0 sums sum[0..63] into the return value of lane 0.
__device__ long long last_warp_sum(long long* sum, unsigned int tid) {
    long long v = sum[tid] + sum[tid + 32];
#pragma unroll
    for (unsigned int offset = 16; offset > 0; offset >>= 1) {
        __syncwarp();  // every lane has read what it needed from the last round...
        sum[tid] = v;
        __syncwarp();  // ...and every lane's new value is in place before anyone reads it
        v += sum[tid + offset];
    }
    return v;
}

// TODO(step 06): done for you: the block size is the template parameter
// kBlockSize (step 05 used the constant kThreads), checked at compile time
// below and used for the shared array and the two loads.
template <unsigned int kBlockSize, typename T>
__global__ void reduce_complete_unroll(const T* __restrict__ in, long long* __restrict__ partial, std::size_t n) {
    static_assert(kBlockSize >= 64 && kBlockSize <= 1024 && (kBlockSize & (kBlockSize - 1)) == 0,
                  "kBlockSize must be a power of two from 64 to 1024");
    __shared__ long long sum[kBlockSize];
    const unsigned int tid = threadIdx.x;
    // TODO(step 06): done for you: kBlockSize in place of kThreads here too.
    const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(kBlockSize)) + tid;
    long long v = i < n ? static_cast<long long>(in[i]) : 0;
    if (i + kBlockSize < n) v += in[i + kBlockSize];
    sum[tid] = v;
    __syncthreads();

    // TODO(step 06): step 05 ran the rounds s = kThreads / 2 .. 64 in a loop
    // here. Write each round out instead, largest first: the round that adds
    // sum[tid + 512] (only when kBlockSize >= 1024), then + 256 (>= 512),
    // + 128 (>= 256) and + 64 (>= 128). Put each inside
    // `if constexpr (kBlockSize >= ...)`, with its `if (tid < ...)` and a
    // __syncthreads() after it.

    if (tid < 32) {
        const long long total = last_warp_sum(sum, tid);
        if (tid == 0) partial[blockIdx.x] = total;
    }
}

}  // namespace

void reduction::step06_complete_unroll(const int* in, std::size_t n, long long* sum, long long* scratch,
                                       cudaStream_t stream) {
    reduce_in_passes(
        in, n, sum, scratch, stream,
        [](auto* input, std::size_t count, long long* output, unsigned int blocks, cudaStream_t s) {
            // TODO(step 06): done for you: the launch picks the kernel's block size.
            reduce_complete_unroll<kThreads><<<blocks, kThreads, 0, s>>>(input, output, count);
            CUDA_CHECK_LAUNCH();
        },
        [](std::size_t count) { return blocks_covering(count, 2 * kThreads); });
}
