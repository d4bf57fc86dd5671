// Separable, step 08: the whole job, host to host, cut into chunks of rows on
// several streams, so that uploads, filtering and downloads overlap (beyond
// the blog post).
//
// Steps 01 to 07 time the filter alone, with the image already on the GPU. A
// program whose image is in host memory also pays to move it: at 8192x8192
// the image is 256 MiB each way, about 5 ms over a PCIe 5 link at 50 GB/s,
// against 0.2 ms for step 07's kernel. Done in turn, the job takes upload +
// filter + download, and at every moment two of the three engines that could
// work (the copy engine up, the SMs, the copy engine down) are idle.
//
// Here the image is cut into bands of rows, the job's chunks. Chunk c goes to
// stream c % stream_count: its new input rows up, step 07's fused kernel for
// its output rows, those rows down. Work on one stream runs in order; work on
// different streams may run at once, so while chunk c is filtered, chunk c+1
// goes up and chunk c-1 comes down, and the job takes about one upload of the
// image plus one chunk's filter and download (the link carries both
// directions at once).
//
// A chunk's output rows need the r input rows above and below them, its halo.
// Each input row goes up once: chunk c uploads from where chunk c-1's upload
// stopped to r rows past its own last row. Its upper halo came up with
// earlier chunks, on other streams, so the uploads are chained: chunk c's
// waits for chunk c-1's `uploaded` event (cudaStreamWaitEvent). Then every
// earlier row is on the GPU when chunk c's upload ends, and the link carries
// one upload at a time, in chunk order (two at once would share it, and
// chunk c's kernel would wait for both). The downloads are chained the same
// way. The kernel takes the band of output rows to compute and reads no row
// past what the band's uploads hold.
#include "tracks/separable/device.cuh"
#include "tracks/separable/kernels.h"

#include "course/check.h"

#include <algorithm>
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

// Step 07's kernel for the output rows first_row .. last_row - 1 only. Input
// rows are clamped into the image and to last_row + r - 1, the last row the
// band's uploads hold: a tile that runs past the band reads no row that
// another chunk may still be uploading (those rows feed only outputs past
// the band, which are not stored).
template <int kTaps, bool kVector>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    fused_band(const float* __restrict__ in, float* __restrict__ out, int width, int height, int first_row,
               int last_row) {
    constexpr int kRadius = kTaps / 2, kRows = rows_per_thread(kTaps), kTileHeight = kRows * kThreadsY;
    extern __shared__ float4 rows[];  // kTileHeight + 2r rows of kThreadsX float4s
    const int x = blockIdx.x * kTileWidth + 4 * threadIdx.x, y0 = first_row + blockIdx.y * kTileHeight;
    const int readable = min(height, last_row + kRadius);  // input rows 0 .. readable - 1

    // 1. The row pass for image rows y0 - r .. y0 + kTileHeight - 1 + r (rows
    // past an edge repeat the edge row), into shared memory. Columns past the
    // right edge are computed from clamped pixels and never stored.
#pragma unroll 2
    for (int i = threadIdx.y; i < kTileHeight + 2 * kRadius; i += kThreadsY) {
        const int y = separable::clamp_index(y0 - kRadius + i, readable);
        rows[i * kThreadsX + threadIdx.x] =
            separable::device::row_filter4_fixed<kTaps, kVector>(in + static_cast<std::size_t>(y) * width, x, width);
    }
    __syncthreads();

    // 2. The column pass from shared memory: columns x..x+3, tile rows
    // first .. first + kRows - 1.
    const int first = kRows * threadIdx.y;
    if (x >= width || y0 + first >= last_row) return;
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
        if (y0 + first + j < last_row)
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

// The kernel for the output rows of `band`, on `stream`.
template <int kTaps>
void launch(const separable::Params& p, separable::RowRange band, cudaStream_t stream) {
    separable::Params shape = p;  // the grid covers the band, not the image
    shape.height = band.last - band.first;
    const dim3 block(kThreadsX, kThreadsY);
    const dim3 grid = separable::grid_for(shape, kTileWidth, rows_per_thread(kTaps) * kThreadsY);
    if (separable::device::rows_allow_float4(p, p.in, p.out))
        fused_band<kTaps, true>
            <<<grid, block, shared_bytes(kTaps), stream>>>(p.in, p.out, p.width, p.height, band.first, band.last);
    else
        fused_band<kTaps, false>
            <<<grid, block, shared_bytes(kTaps), stream>>>(p.in, p.out, p.width, p.height, band.first, band.last);
    CUDA_CHECK_LAUNCH();
}

// Rows [first, last) of an image `width` floats wide, from `from` to `to`.
void copy_rows(float* to, const float* from, int width, separable::RowRange rows, cudaMemcpyKind kind,
               cudaStream_t stream) {
    if (rows.last <= rows.first) return;
    const std::size_t offset = static_cast<std::size_t>(rows.first) * width;
    const std::size_t bytes = static_cast<std::size_t>(rows.last - rows.first) * width * sizeof(float);
    CUDA_CHECK(cudaMemcpyAsync(to + offset, from + offset, bytes, kind, stream));
}

template <int kTaps>
void enqueue(const separable::TransferJob& job) {
    const separable::Params& p = job.device;
    constexpr int kRadius = kTaps / 2;  // the halo: the kernel's window, zero weights included
    // The filter goes to constant memory once, on stream 0 before chunk 0's
    // upload, which every later upload waits for. (Copied again for each
    // chunk, from several streams, it would be overwritten under a kernel
    // still reading it.)
    upload_padded_filter<kTaps>(p, job.streams[0]);
    int next_row = 0;  // the first input row not yet sent
    for (int c = 0; c < job.chunks; ++c) {
        const cudaStream_t stream = job.streams[c % job.stream_count];
        const separable::ChunkEvents& events = job.events[c];
        const separable::RowRange band = separable::chunk_rows(job, c);
        const int needed_to = std::min(p.height, band.last + kRadius);

        // Up, after chunk c-1's upload: the input rows no earlier chunk sent,
        // through the lower halo.
        if (c > 0) CUDA_CHECK(cudaStreamWaitEvent(stream, job.events[c - 1].uploaded, 0));
        CUDA_CHECK(cudaEventRecord(events.start, stream));
        copy_rows(job.device_in, job.host_in, p.width, {next_row, needed_to}, cudaMemcpyHostToDevice, stream);
        CUDA_CHECK(cudaEventRecord(events.uploaded, stream));
        next_row = std::max(next_row, needed_to);

        launch<kTaps>(p, band, stream);
        CUDA_CHECK(cudaEventRecord(events.filtered, stream));

        // Down, after chunk c-1's download: the band's output rows.
        if (c > 0) CUDA_CHECK(cudaStreamWaitEvent(stream, job.events[c - 1].downloaded, 0));
        copy_rows(job.host_out, p.out, p.width, band, cudaMemcpyDeviceToHost, stream);
        CUDA_CHECK(cudaEventRecord(events.downloaded, stream));
    }
}

}  // namespace

void separable::step08_overlapped_transfers(const TransferJob& job) {
    const int taps = job.device.taps;
    const auto enqueue_job = taps <= 7 ? enqueue<7> : taps <= 15 ? enqueue<15> : taps <= 31 ? enqueue<31> : enqueue<63>;
    enqueue_job(job);
}
