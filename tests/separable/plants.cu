#include "separable/plants.h"

#include "course/check.h"

#include <algorithm>
#include <cstddef>

namespace {

__global__ void band_filter(const float* in, float* out, const float* weights, int width, int height, int taps,
                            int first_row, int last_row) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = first_row + blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= last_row) return;
    const int r = taps / 2;
    float sum = 0.0f;
    for (int k = 0; k < taps; ++k) {
        const int yy = separable::clamp_index(y + k - r, height);
        float row = 0.0f;
        for (int j = 0; j < taps; ++j)
            row += weights[j] * in[static_cast<std::size_t>(yy) * width + separable::clamp_index(x + j - r, width)];
        sum += weights[k] * row;
    }
    out[static_cast<std::size_t>(y) * width + x] = sum;
}

void copy_rows(float* to, const float* from, int width, int first, int last, cudaMemcpyKind kind, cudaStream_t stream) {
    if (last <= first) return;
    const std::size_t offset = static_cast<std::size_t>(first) * width;
    CUDA_CHECK(cudaMemcpyAsync(to + offset, from + offset,
                               static_cast<std::size_t>(last - first) * width * sizeof(float), kind, stream));
}

template <bool kWaitForHalo>
void enqueue(const separable::TransferJob& job) {
    const separable::Params& p = job.device;
    const int radius = p.radius();
    int next_row = 0;
    for (int c = 0; c < job.chunks; ++c) {
        const cudaStream_t stream = job.streams[c % job.stream_count];
        const separable::ChunkEvents& events = job.events[c];
        const separable::RowRange band = separable::chunk_rows(job, c);
        const int needed_to = std::min(p.height, band.last + radius);
        if (kWaitForHalo && c > 0) CUDA_CHECK(cudaStreamWaitEvent(stream, job.events[c - 1].uploaded, 0));
        CUDA_CHECK(cudaEventRecord(events.start, stream));
        copy_rows(job.device_in, job.host_in, p.width, next_row, needed_to, cudaMemcpyHostToDevice, stream);
        CUDA_CHECK(cudaEventRecord(events.uploaded, stream));
        next_row = std::max(next_row, needed_to);
        const dim3 block(32, 4);
        const dim3 grid((p.width + 31) / 32, (band.last - band.first + 3) / 4);
        band_filter<<<grid, block, 0, stream>>>(job.device_in, p.out, p.weights, p.width, p.height, p.taps, band.first,
                                                band.last);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(events.filtered, stream));
        if (c > 0) CUDA_CHECK(cudaStreamWaitEvent(stream, job.events[c - 1].downloaded, 0));
        copy_rows(job.host_out, p.out, p.width, band.first, band.last, cudaMemcpyDeviceToHost, stream);
        CUDA_CHECK(cudaEventRecord(events.downloaded, stream));
    }
}

__constant__ float copied_weights[separable::kMaxTaps];
__device__ float device_weights[separable::kMaxTaps];

}  // namespace

void separable::testing::plant_constant_copied_not_read(const Params& p, cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyToSymbolAsync(copied_weights, p.weights, p.taps * sizeof(float), 0, cudaMemcpyDeviceToDevice,
                                       stream));
    const dim3 block(32, 4);
    const dim3 grid((p.width + 31) / 32, (p.height + 3) / 4);
    band_filter<<<grid, block, 0, stream>>>(p.in, p.out, p.weights, p.width, p.height, p.taps, 0, p.height);
    CUDA_CHECK_LAUNCH();
}

void separable::testing::plant_device_copy(const Params& p, cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyToSymbolAsync(device_weights, p.weights, p.taps * sizeof(float), 0, cudaMemcpyDeviceToDevice,
                                       stream));
    float* weights = nullptr;
    CUDA_CHECK(cudaGetSymbolAddress(reinterpret_cast<void**>(&weights), device_weights));
    const dim3 block(32, 4);
    const dim3 grid((p.width + 31) / 32, (p.height + 3) / 4);
    band_filter<<<grid, block, 0, stream>>>(p.in, p.out, weights, p.width, p.height, p.taps, 0, p.height);
    CUDA_CHECK_LAUNCH();
}

void separable::testing::plant_transfers_in_order(const TransferJob& job) { enqueue<true>(job); }
void separable::testing::plant_transfers_missing_halo_wait(const TransferJob& job) { enqueue<false>(job); }
