// Small kernels with known flaws, for testing the harness itself.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace test_kernels {

// out[i] = i for every i < n: a correct kernel.
void write_index(float* out, std::size_t n, cudaStream_t stream);
// Writes only out[0 .. n/2): the rest keeps whatever was there.
void write_first_half(float* out, std::size_t n, cudaStream_t stream);
// Correct on its first launch of the program, writes nothing afterwards.
void write_once(float* out, std::size_t n, cudaStream_t stream);
// Asks for 4096 threads per block, more than any GPU allows.
void launch_too_many_threads(cudaStream_t stream);

}  // namespace test_kernels
