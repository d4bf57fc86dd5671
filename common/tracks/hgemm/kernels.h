// The hgemm track, as a step's kernel.cu sees it: C = A * B on the tensor
// cores, A and B in FP16 (__half), C in FP32, row-major, any M, N and K.
//
//   A is M x K, B is K x N, C is M x N; element (r, c) of an R x C matrix is
//   at r * C + c (row-major, no padding between rows).
//
// The products of two FP16 numbers are exact in FP32, and every step adds
// them in FP32 (the tensor cores' "FP16 inputs, FP32 accumulate" mode): the
// only rounding is in the additions. Every step's kernel.cu (the student's or
// the solution) defines a launcher with the Launcher signature below, and a
// function that reports the kernel's registers and shared memory
// (cudaFuncGetAttributes), shown beside its row of the ladder. The device
// helpers the kernels share are in tracks/hgemm/device.cuh; the host helpers
// of the Hopper steps' launchers (tensor maps, the check of the GPU) in
// tracks/hgemm/hopper.h; how a result is checked, the problem, cuBLAS and the
// ladder, in tracks/hgemm/track.h.
#pragma once

#include "course/gemm_check.h"
#include "course/kernel_copy.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace hgemm {

// Every step's launcher: A, B and C are device pointers (M x K and K x N
// halves, M x N floats, row-major); it enqueues the kernel on `stream` and
// checks the launch.
using Launcher = void (*)(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream);
// Every step's resource report: cudaFuncGetAttributes of its kernel.
using Attributes = cudaFuncAttributes (*)();

// The launchers, one per step: step<NN>_<folder name>, e.g. step01_wmma for
// lessons/hgemm/01_wmma, and its resource report, step<NN>_<folder
// name>_attributes. The steps are listed once, in lessons/hgemm/meson.build;
// Meson writes the list out as hgemm_steps.h, one COURSE_STEP(number,
// launcher, title) line per step. (The inline namespace: see
// course/kernel_copy.h.) A step marked 'hopper' in the list
// (COURSE_HOPPER_STEP) needs compute capability 9.0 (kHopper): its launcher
// throws course::Error on an older GPU, and the ladder leaves its row out.
inline namespace COURSE_KERNEL_COPY {
#define COURSE_STEP(number, launcher, title)                                                             \
    void launcher(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream); \
    cudaFuncAttributes launcher##_attributes();
#define COURSE_HOPPER_STEP(number, launcher, title) COURSE_STEP(number, launcher, title)
#include "hgemm_steps.h"
#undef COURSE_HOPPER_STEP
#undef COURSE_STEP
}  // namespace COURSE_KERNEL_COPY

// The compute capability of the Hopper steps (major * 10 + minor):
// cp.async.bulk.tensor (TMA) and mbarrier's transaction counts.
inline constexpr int kHopper = 90;

// A grid of ceil(x_extent / x_tile) by ceil(y_extent / y_tile) blocks, or
// course::Error if the y count passes CUDA's limit of 65535.
using course::gemm::grid_for;

}  // namespace hgemm
