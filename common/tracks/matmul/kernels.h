// The matmul track, as a step's kernel.cu sees it: C = A * B in FP32,
// row-major, any M, N and K.
//
//   A is M x K, B is K x N, C is M x N; element (r, c) of an R x C matrix is
//   at r * C + c (row-major, no padding between rows).
//
// Ten steps take one thread per output to within reach of cuBLAS: every
// step's kernel.cu (the student's or the solution) defines a launcher with the
// Launcher signature below, and a function that reports the kernel's
// registers and shared memory (cudaFuncGetAttributes), shown beside its row
// of the ladder. The device helpers the kernels share are in
// tracks/matmul/device.cuh; how a result is checked, the problem, cuBLAS and
// the ladder, in tracks/matmul/track.h.
#pragma once

#include "course/gemm_check.h"
#include "course/kernel_copy.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

namespace matmul {

// Every step's launcher: A, B and C are device pointers (M x K, K x N, M x N,
// row-major); it enqueues the kernel on `stream` and checks the launch.
using Launcher = void (*)(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream);
// Every step's resource report: cudaFuncGetAttributes of its kernel (of the
// fast path's kernel, where a step has several). From step 09 on the tiles
// are dynamic shared memory, which cudaFuncGetAttributes does not count: those
// steps add what their launches ask for to sharedSizeBytes.
using Attributes = cudaFuncAttributes (*)();

// A tuned step (step 10) compiles in several tile configurations and picks one
// for the GPU and shape at hand. One configuration, as the track's sweep of
// them shows it and as its grading test runs it alone:
struct TileConfig {
    // "128 x 128 x 16, warps 32 x 64, lanes 8 x 8, 3 stages, A transposed, 256 threads"
    std::string name;
    int threads = 0;                  // per block
    std::size_t shared_bytes = 0;     // dynamic shared memory per block
    Launcher launch = nullptr;        // this configuration alone, any shape
    Attributes attributes = nullptr;  // its fast path's kernel, its dynamic shared memory counted
};

// The launchers, one per step: step<NN>_<folder name>, e.g. step03_shared_tiles
// for lessons/matmul/03_shared_tiles, and its resource report,
// step<NN>_<folder name>_attributes. The steps are listed once, in
// lessons/matmul/meson.build; Meson writes the list out as matmul_steps.h,
// one COURSE_STEP(number, launcher, title) line per step, and for a tuned
// step a COURSE_TUNED_STEP line, which also declares its configurations and
// the index of the one it picked for a shape and alignment (-1 before its
// first launch there). (The inline namespace: see course/kernel_copy.h.)
inline namespace COURSE_KERNEL_COPY {
#define COURSE_STEP(number, launcher, title)                                                           \
    void launcher(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream); \
    cudaFuncAttributes launcher##_attributes();
#define COURSE_TUNED_STEP(number, launcher, title) \
    COURSE_STEP(number, launcher, title)           \
    std::vector<TileConfig> launcher##_configs();  \
    int launcher##_choice(const float* A, const float* B, const float* C, int M, int N, int K);
#include "matmul_steps.h"
#undef COURSE_TUNED_STEP
#undef COURSE_STEP
}  // namespace COURSE_KERNEL_COPY

// A grid of ceil(x_extent / x_tile) by ceil(y_extent / y_tile) blocks, or
// course::Error if the y count passes CUDA's limit of 65535.
using course::gemm::grid_for;

}  // namespace matmul
