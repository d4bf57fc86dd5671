// The stream context NPP's _Ctx functions take (CUDA 13's NPP has only those):
// the harness's stream and the device's properties. Include it only where
// NPP is found (COURSE_HAVE_NPP): it needs NPP's headers.
#pragma once

#include "course/check.h"

#include <cuda_runtime.h>
#include <nppdefs.h>

namespace course {

inline NppStreamContext npp_stream_context(cudaStream_t stream) {
    int device = 0;
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    unsigned int flags = 0;
    CUDA_CHECK(cudaStreamGetFlags(stream, &flags));
    NppStreamContext context{};
    context.hStream = stream;
    context.nCudaDeviceId = device;
    context.nMultiProcessorCount = prop.multiProcessorCount;
    context.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
    context.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
    context.nSharedMemPerBlock = prop.sharedMemPerBlock;
    context.nCudaDevAttrComputeCapabilityMajor = prop.major;
    context.nCudaDevAttrComputeCapabilityMinor = prop.minor;
    context.nStreamFlags = flags;
    return context;
}

}  // namespace course
