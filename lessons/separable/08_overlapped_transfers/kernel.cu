// Separable, step 08: the whole job, host to host, cut into chunks of rows on
// several streams, so that uploads, filtering and downloads overlap (beyond
// the blog post).
//
// The starter: step 07's solution, renamed, and the job done in turn on the
// job's first stream: the whole image up, step 07's kernel on all of it, the
// whole image down. It is right, and records every chunk's events, but the
// copy engines and the SMs take turns. At the TODO(step 08) markers: give the
// kernel a band of output rows, then cut the job into its chunks, each on a
// stream of its own (lessons/separable/08_overlapped_transfers/README.md).
#include "tracks/separable/device.cuh"
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <cstddef>

namespace {

using separable::device::filter_weights;
using separable::device::fma4;

constexpr int kThreadsX = 32;
constexpr int kThreadsY = 8;
constexpr int kTileWidth = 4 * kThreadsX;  // 128 outputs: one float4 per thread

// Rows of outputs per thread: 8 (a 64-row tile) up to 31 taps, 4 at 63.
__host__ __device__ constexpr int rows_per_thread(int taps) { return taps <= 31 ? 8 : 4; }

constexpr std::size_t shared_bytes(int taps) {
    return sizeof(float) * kTileWidth * (rows_per_thread(taps) * kThreadsY + taps - 1);
}
static_assert(shared_bytes(31) <= 48 * 1024 && shared_bytes(63) <= 48 * 1024,
              "the tile of row-pass outputs must fit the 48 KiB every GPU gives a block without opting in");

// TODO(step 08): the band. Give the kernel two more parameters, first_row and
// last_row, and compute only output rows first_row .. last_row - 1: the
// tile's first row is first_row + blockIdx.y * kTileHeight, and rows at or
// past last_row are not stored. Clamp the input rows to
// min(height, last_row + kRadius), not height: the rows past that belong to
// later chunks, which may still be uploading them (they feed only outputs
// past the band).
template <int kTaps, bool kVector>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    fused_band(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
    constexpr int kRadius = kTaps / 2, kRows = rows_per_thread(kTaps), kTileHeight = kRows * kThreadsY;
    extern __shared__ float4 rows[];  // kTileHeight + 2r rows of kThreadsX float4s
    const int x = blockIdx.x * kTileWidth + 4 * threadIdx.x, y0 = blockIdx.y * kTileHeight;

    // 1. The row pass for image rows y0 - r .. y0 + kTileHeight - 1 + r (rows
    // past an edge repeat the edge row), into shared memory. Columns past the
    // right edge are computed from clamped pixels and never stored.
#pragma unroll 2
    for (int i = threadIdx.y; i < kTileHeight + 2 * kRadius; i += kThreadsY) {
        const int y = separable::clamp_index(y0 - kRadius + i, height);
        rows[i * kThreadsX + threadIdx.x] =
            separable::device::row_filter4_fixed<kTaps, kVector>(in + static_cast<std::size_t>(y) * width, x, width);
    }
    __syncthreads();

    // 2. The column pass from shared memory: columns x..x+3, tile rows
    // first .. first + kRows - 1.
    const int first = kRows * threadIdx.y;
    if (x >= width || y0 + first >= height) return;
    float4 sum[kRows];
#pragma unroll
    for (int j = 0; j < kRows; ++j) sum[j] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
    for (int m = 0; m < kTaps + kRows - 1; ++m) {  // tile row first + m
        const float4 v = rows[(first + m) * kThreadsX + threadIdx.x];
#pragma unroll
        for (int j = 0; j < kRows; ++j)
            if (m - j >= 0 && m - j < kTaps) sum[j] = fma4(filter_weights[m - j], v, sum[j]);
    }
#pragma unroll
    for (int j = 0; j < kRows; ++j)
        if (y0 + first + j < height)
            separable::device::store4<kVector>(out + static_cast<std::size_t>(y0 + first + j) * width, x, width,
                                               sum[j]);
}

// The filter, centred in kTaps constant-memory weights with zeros around it.
template <int kTaps>
void upload_padded_filter(const separable::Params& p, cudaStream_t stream) {
    static float* bank = [] {
        void* address = nullptr;
        CUDA_CHECK(cudaGetSymbolAddress(&address, filter_weights));
        return static_cast<float*>(address);
    }();
    if (p.taps < kTaps) CUDA_CHECK(cudaMemsetAsync(bank, 0, kTaps * sizeof(float), stream));
    CUDA_CHECK(cudaMemcpyAsync(bank + (kTaps - p.taps) / 2, p.weights, p.taps * sizeof(float), cudaMemcpyDeviceToDevice,
                               stream));
}

template <int kTaps>
void launch(const separable::Params& p, cudaStream_t stream) {
    upload_padded_filter<kTaps>(p, stream);
    const dim3 block(kThreadsX, kThreadsY);
    const dim3 grid = separable::grid_for(p, kTileWidth, rows_per_thread(kTaps) * kThreadsY);
    if (separable::device::rows_allow_float4(p, p.in, p.out))
        fused_band<kTaps, true><<<grid, block, shared_bytes(kTaps), stream>>>(p.in, p.out, p.width, p.height);
    else
        fused_band<kTaps, false><<<grid, block, shared_bytes(kTaps), stream>>>(p.in, p.out, p.width, p.height);
    CUDA_CHECK_LAUNCH();
}

// TODO(step 08): done for you: the job in turn, all of it on job.streams[0].
// Replace it: chunk c (0 .. job.chunks - 1, its output rows
// separable::chunk_rows(job, c)) on stream job.streams[c % job.stream_count]:
//   1. wait (cudaStreamWaitEvent) for chunk c-1's .uploaded; record
//      job.events[c].start; upload the input rows no earlier chunk sent,
//      through r = kTaps / 2 rows past the band (the lower halo); record
//      .uploaded. Chained so, every earlier row (the upper halo) is on the
//      GPU when chunk c's upload ends;
//   2. the kernel for the band (a grid of the band's rows); record .filtered;
//   3. wait for chunk c-1's .downloaded; download the band's output rows;
//      record .downloaded.
// Copy the filter to constant memory once, on stream 0 before chunk 0's
// upload: every later upload, and so every kernel, comes after it.
template <int kTaps>
void enqueue(const separable::TransferJob& job) {
    const separable::Params& p = job.device;
    const cudaStream_t stream = job.streams[0];
    const std::size_t bytes = static_cast<std::size_t>(p.width) * static_cast<std::size_t>(p.height) * sizeof(float);
    const separable::ChunkEvents& events = job.events[0];
    // Chunk 0 does it all: the other chunks' events, recorded first, are empty.
    for (int c = 1; c < job.chunks; ++c) {
        CUDA_CHECK(cudaEventRecord(job.events[c].start, stream));
        CUDA_CHECK(cudaEventRecord(job.events[c].uploaded, stream));
        CUDA_CHECK(cudaEventRecord(job.events[c].filtered, stream));
        CUDA_CHECK(cudaEventRecord(job.events[c].downloaded, stream));
    }
    CUDA_CHECK(cudaEventRecord(events.start, stream));
    CUDA_CHECK(cudaMemcpyAsync(job.device_in, job.host_in, bytes, cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaEventRecord(events.uploaded, stream));
    launch<kTaps>(p, stream);
    CUDA_CHECK(cudaEventRecord(events.filtered, stream));
    CUDA_CHECK(cudaMemcpyAsync(job.host_out, p.out, bytes, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaEventRecord(events.downloaded, stream));
}

}  // namespace

// TODO(step 08): done for you: the launcher takes the job, and picks the
// filter's length at compile time as step 07 does.
void separable::step08_overlapped_transfers(const TransferJob& job) {
    const int taps = job.device.taps;
    const auto enqueue_job = taps <= 7 ? enqueue<7> : taps <= 15 ? enqueue<15> : taps <= 31 ? enqueue<31> : enqueue<63>;
    enqueue_job(job);
}
