// The host side of the hgemm track's Hopper steps (06 to 09), written once
// for their launchers. Introduced by step 06 (lessons/hgemm/06_tma/README.md),
// whose student reads tensor_map's comments below, argument by argument:
//
//   require_hopper   steps 06-09: throws course::Error unless this GPU and
//                    this build can run the step's kernel
//   tensor_map       steps 06-09: the tensor map of a row-major matrix of
//                    halves, read by the TMA in boxes into the 128-byte
//                    swizzle (step 09 passes a padded row pitch)
//   encode_tiled     tensor_map's cuTensorMapEncodeTiled, from the driver
//   multiprocessors  steps 08-09: the GPU's SMs, the persistent grid
//
// Every message names the step that called (`step`, e.g. "hgemm step 06").
#pragma once

#include "tracks/hgemm/kernels.h"

#include "course/check.h"
#include "course/device.h"
#include "course/launch_helpers.h"

#include <cuda.h>  // CUtensorMap and cuTensorMapEncodeTiled's types; the function comes from the driver at run time
#include <cudaTypedefs.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace hgemm {

// What a Hopper step's kernel needs of the GPU, besides compute capability
// 9.0 (kHopper).
enum class Needs {
    // The TMA and mbarrier's transaction counts (step 06): in sm_90's PTX, so
    // any GPU of 9.0 or later runs them.
    sm_90_or_later,
    // wgmma.mma_async and setmaxnreg (steps 07 to 09): sm_90a's, the
    // architecture-specific features of 9.0, which no later GPU runs (the
    // build compiles the Hopper steps as sm_90a; a later GPU would run the
    // empty kernel of the PTX).
    sm_90a,
};

// Throws course::Error unless this GPU has what `kernel` (the step's
// __global__ function) needs and the kernel was built for it. `step` and
// `feature` name the step in the message: "hgemm step 07 (wgmma) runs on
// compute capability 9.0 only: ...". Asked once per kernel and program: the
// course runs on one device, and the launcher calls this at every launch.
inline void require_hopper(const void* kernel, const std::string& step, const std::string& feature, Needs needs) {
    static std::mutex mutex;
    static std::map<const void*, std::string> missing;  // per kernel: "" where it may run, else why not
    const std::lock_guard<std::mutex> lock(mutex);
    auto found = missing.find(kernel);
    if (found == missing.end()) {
        const std::string what = step + " (" + feature + ")";
        int device = 0, major = 0, minor = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
        CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
        std::string why = course::capability_missing(major, minor, kHopper, what);
        if (why.empty() && needs == Needs::sm_90a && major != kHopper / 10)
            why = what +
                  " runs on compute capability 9.0 only: wgmma.mma_async is Hopper's (sm_90a), and this GPU is " +
                  std::to_string(major) + "." + std::to_string(minor);
        // A GPU of 9.0 (or later) that runs PTX of an older architecture (a
        // build whose gpu_arch has no 9.0) runs the empty kernel too.
        if (why.empty() && course::attributes_of(kernel).ptxVersion < kHopper)
            why = what + " was built without compute capability 9.0: configure the build with -Dgpu_arch=9.0 (or auto "
                         "on this GPU)";
        found = missing.emplace(kernel, why).first;
    }
    if (!found->second.empty()) throw course::Error(found->second);
}

// cuTensorMapEncodeTiled, from the driver: the runtime hands out the driver's
// entry points, so the course needs no -lcuda. Looked up once per program
// (the lookup is tried again after a failure, which names `step`).
inline PFN_cuTensorMapEncodeTiled_v12000 encode_tiled(const std::string& step) {
    static const PFN_cuTensorMapEncodeTiled_v12000 function = [&step] {
        void* pointer = nullptr;
        cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
        CUDA_CHECK(
            cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &pointer, 12000, cudaEnableDefault, &found));
#else
        CUDA_CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &pointer, cudaEnableDefault, &found));
#endif
        if (found != cudaDriverEntryPointSuccess || pointer == nullptr)
            throw course::Error(step + ": the driver has no cuTensorMapEncodeTiled (it needs CUDA 12.0 or later)");
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(pointer);
    }();
    return function;
}

// The tensor map of a rows x cols row-major matrix of halves at `X`, its rows
// `pitch_halves` apart (cols for a matrix stored without gaps), read by the
// TMA in boxes of box_rows x box_cols halves into the 128-byte swizzle, zeros
// outside the matrix. The TMA's rule, which cuTensorMapEncodeTiled enforces
// (it fails otherwise, and this throws course::Error naming `step`): X
// 16-byte aligned, and the stride from one row to the next a multiple of 16
// bytes, i.e. pitch_halves a multiple of 8. It only encodes (host memory, no
// CUDA call on a stream), so a launcher may make its maps at every launch;
// the map (128 bytes) is passed to the kernel by value, as a
// `const __grid_constant__ CUtensorMap` parameter.
inline CUtensorMap tensor_map(const __half* X, int rows, int cols, std::size_t pitch_halves, int box_rows, int box_cols,
                              const std::string& step) {
    CUtensorMap map{};
    // The matrix's extents in elements, innermost (fastest-varying) dimension
    // first: a row's cols, then the rows. Coordinates past them are outside.
    const cuuint64_t extent[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
    // The strides of the outer dimensions, in bytes (the innermost one is the
    // element itself, so a 2-D map has one): row to row. The rule: each a
    // multiple of 16 (and below 2^40), so that, with X 16-byte aligned, every
    // row starts on a 16-byte boundary. A row of K or N halves keeps it only
    // when K or N is a multiple of 8; step 09 pads the rows that do not.
    const cuuint64_t pitch[1] = {static_cast<cuuint64_t>(pitch_halves) * sizeof(__half)};
    // The box, innermost first: what one cp.async.bulk.tensor copies into
    // shared memory, at most 256 elements each way, its rows a multiple of
    // 16 bytes. In the 128-byte swizzle a box row is at most 128 bytes: 64
    // halves, the steps' kBoxCols.
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
    // The element strides within the box, per dimension (1 to 8): 1 takes
    // every element, 2 would take every other one.
    const cuuint32_t step_in_box[2] = {1, 1};
    const CUresult result = encode_tiled(step)(
        &map,
        CU_TENSOR_MAP_DATA_TYPE_FLOAT16,  // the element: a 2-byte half
        2,                                // the rank: rows and columns
        const_cast<__half*>(X),           // the global address, 16-byte aligned
        extent, pitch, box, step_in_box,
        CU_TENSOR_MAP_INTERLEAVE_NONE,       // a plain row-major layout (interleave is for channel-packed tensors)
        CU_TENSOR_MAP_SWIZZLE_128B,          // box rows of 128 bytes, 16-byte chunk c of row r stored at c ^ (r % 8)
        CU_TENSOR_MAP_L2_PROMOTION_L2_128B,  // L2 promotion: each read brings 128 bytes into L2, a box row
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);  // elements outside the extents arrive as zeros (NONE: no NaN request)
    if (result != CUDA_SUCCESS)
        throw course::Error(step + ": cuTensorMapEncodeTiled failed (CUresult " + std::to_string(result) + ") for a " +
                            std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
    return map;
}

// The GPU's SMs: the persistent kernel's blocks (steps 08 and 09). Asked once
// per program (in a static): the course runs on one device.
inline int multiprocessors() {
    static const int count = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return sms;
    }();
    return count;
}

}  // namespace hgemm
