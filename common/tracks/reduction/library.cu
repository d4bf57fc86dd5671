// The library rung: CUB's device-wide sum (CUB is header-only and needs nvcc).
#include "tracks/reduction/track.h"

#include <cub/device/device_reduce.cuh>

namespace reduction {

CubSum::CubSum(const int* in, std::size_t n, long long* sum) : in_(in), n_(n), sum_(sum) {
    // Asking with a null buffer returns the temporary storage CUB needs; it is
    // allocated once here, so the timed call does no allocation.
    std::size_t temp_bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in_, sum_, static_cast<long long>(n_)));
    temp_ = course::DeviceBuffer<unsigned char>(temp_bytes);
}

void CubSum::enqueue(cudaStream_t stream) {
    std::size_t temp_bytes = temp_.size();
    CUDA_CHECK(cub::DeviceReduce::Sum(temp_.data(), temp_bytes, in_, sum_, static_cast<long long>(n_), stream));
}

}  // namespace reduction
