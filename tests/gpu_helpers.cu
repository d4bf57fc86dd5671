#include "gpu_helpers.h"

#include "course/check.h"

namespace {

__global__ void write_index_kernel(float* out, std::size_t begin, std::size_t end) {
    const std::size_t i = begin + blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < end) out[i] = static_cast<float>(i);
}

void launch_range(float* out, std::size_t begin, std::size_t end, cudaStream_t stream) {
    if (end <= begin) return;
    const auto blocks = static_cast<unsigned int>((end - begin + 255) / 256);
    write_index_kernel<<<blocks, 256, 0, stream>>>(out, begin, end);
    CUDA_CHECK_LAUNCH();
}

__global__ void empty_kernel() {}

}  // namespace

namespace test_kernels {

void write_index(float* out, std::size_t n, cudaStream_t stream) { launch_range(out, 0, n, stream); }

void write_first_half(float* out, std::size_t n, cudaStream_t stream) { launch_range(out, 0, n / 2, stream); }

void write_once(float* out, std::size_t n, cudaStream_t stream) {
    static bool done = false;
    if (!done) launch_range(out, 0, n, stream);
    done = true;
}

void launch_too_many_threads(cudaStream_t stream) {
    empty_kernel<<<1, 4096, 0, stream>>>();
    CUDA_CHECK_LAUNCH();
}

}  // namespace test_kernels
