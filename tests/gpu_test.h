// Shared by the GPU test programs: the grading sizes, one harness per program,
// and whether timings can be trusted in this run.
#pragma once

#include "course/runner.h"

#include <cstddef>
#include <vector>

namespace course::testing {

// The 1-D sizes every grading test tries (listed in README.md, "For
// instructors"): tiny, around a warp, around a block, odd, and a large one
// just past a power of two.
inline const std::vector<std::size_t> kSizes1D = {1, 31, 33, 1023, 4097, (std::size_t{1} << 22) + 3};

// True in the grade setup's memcheck run of a lesson (tests/meson.build: the
// "<lesson> memcheck" tests, COURSE_SMALL_SIZES): kernels run under
// compute-sanitizer there, so the tests leave out their largest sizes; every
// edge case (odd sizes, partial tiles, one element) is still run.
bool small_sizes_only();

// kSizes1D, without the sizes over 2^16 when small_sizes_only().
std::vector<std::size_t> sizes_1d();

// The harness of this test program, on device 0 (or $COURSE_TEST_DEVICE).
Harness& harness();

// A grading test whose step needs a later GPU (the hgemm track's Hopper
// steps) says so once, at namespace scope:
//
//     COURSE_NEEDS_COMPUTE_CAPABILITY(hgemm::kHopper, "hgemm step 06 (TMA)");
//
// On an older GPU its main() (tests/gpu_main.cpp) then prints "skipped: " and
// course::capability_missing's line, and exits 77: Meson reports the lesson
// skipped, not failed, with the reason in its log.
struct NeedsComputeCapability {
    NeedsComputeCapability(int needed, const char* what);
};
#define COURSE_NEEDS_COMPUTE_CAPABILITY(needed, what) \
    static const course::testing::NeedsComputeCapability course_needs_compute_capability_(needed, what)

// False when the tests run under compute-sanitizer (the memcheck and
// racecheck test setups set COURSE_SANITIZER): kernels run many times slower
// there, so speed requirements are not checked, only correctness.
bool timing_is_meaningful();

// True under compute-sanitizer: tests that make CUDA calls fail on purpose
// skip themselves there, since the sanitizer counts every failed call as an
// error of the program.
bool under_sanitizer();

// True under compute-sanitizer's racecheck (the racecheck setup, and the grade
// setup's "<lesson> racecheck" tests): every shared-memory access is tracked,
// so tests with large shapes leave them out there.
bool under_racecheck();

}  // namespace course::testing
