// The basics track, as a step's kernel.cu sees it: c[i] = a[i] + b[i] over n
// floats, and the launcher every step defines.
//
// The smallest kernel that shows the whole course's pattern: a launcher per
// step (defined by that step's kernel.cu, the student's or the solution), a CPU
// reference, a check, a time, a place on the ladder. It moves 12 bytes per
// element and does one add, so it is purely memory-bound: its ceiling is the
// GPU's memory bandwidth, measured by the library rung, a device-to-device
// copy of the same number of bytes. (The problem, the reference and the
// ladder: tracks/basics/track.h.)
#pragma once

#include "course/kernel_copy.h"

#include <cuda_runtime.h>

#include <cstddef>

namespace basics {

// Every step's launcher: a, b and c are device pointers to n floats; it
// enqueues the kernel on `stream` and checks the launch (CUDA_CHECK_LAUNCH).
using Launcher = void (*)(const float* a, const float* b, float* c, std::size_t n, cudaStream_t stream);

// The launchers, one per step: step<NN>_<folder name>, e.g. step02_grid_stride
// for lessons/basics/02_grid_stride. The steps are listed once, in
// lessons/basics/meson.build; Meson writes the list out as basics_steps.h,
// one COURSE_STEP(number, launcher, title) line per step. (The inline
// namespace: see course/kernel_copy.h.)
inline namespace COURSE_KERNEL_COPY {
#define COURSE_STEP(number, launcher, title) \
    void launcher(const float* a, const float* b, float* c, std::size_t n, cudaStream_t stream);
#include "basics_steps.h"
#undef COURSE_STEP
}  // namespace COURSE_KERNEL_COPY

}  // namespace basics
