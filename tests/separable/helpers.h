// Shared by the separable grading tests: the shapes and filter lengths every
// step is checked at, what a step launches, and the race the speed rule reads.
#pragma once

#include "course/launches.h"
#include "doctest_include.h"
#include "gpu_test.h"
#include "speed_rule.h"
#include "tracks/separable/track.h"

#include <string>
#include <vector>

namespace separable::testing {

using course::testing::harness;

// A lopsided filter of `taps` taps (seeded, weights of both signs, summing to
// 1): a kernel that applies it mirrored, or drops or repeats a tap, fails.
std::vector<float> lopsided_filter(int taps, std::uint64_t seed);

// A test picture of width x height floats in [0, 1]: course::synthetic_image
// (sharp edges, so a wrong edge rule shows) with seeded noise added.
std::vector<float> test_picture(int width, int height, std::uint64_t seed);

// Runs `launch` once at every grading shape (1x1, 1x37, 37x1, 5x3, 31x33,
// 129x67, 130x17 (a width that is even but not a multiple of 4), 256x64,
// 1023x9) with every grading filter length (1, 3, 7, 9, 15, 31, 33, 63: step
// 07 runs 9 and 33 in its 15- and 63-tap kernels, padded with zero weights),
// on a test picture and a lopsided filter, and checks every pixel.
void check_every_shape(Launcher launch);

// The kernels (and other operations) `launch` enqueues for a width x height
// image and `taps` taps, captured without running them.
course::LaunchRecord launches_for(Launcher launch, int width, int height, int taps);

// The speed rule (tests/speed_rule.h) at 4096x4096 with 7 taps (64 MiB per
// image, more than the L2 of the GPUs the course was measured on): `graded` at
// least 0.85x as fast as `reference`, the reference solution of step `step`,
// with `previous` (the step before's solution; nullptr for step 01) in the
// table for comparison.
void check_speed(int step, Launcher previous, Launcher reference, Launcher graded, const std::string& advice);

// The transfers lesson (08). Runs `launch` once, host to host, at grading
// shapes (1x1 up to 1023x9) with filter lengths 1, 3, 7, 31, 33 and 63, each
// cut into 1 chunk on 1 stream, 8 on 3, 7 on 2 and 64 on 4 (at most one chunk
// per row), and checks every pixel that comes back.
void check_every_shape(TransferLauncher launch);

// One run of `launch` on a side x side picture with 7 taps, checked, and its
// chunks' times.
std::vector<ChunkTimes> transfer_times(TransferLauncher launch, int side, int chunks, int streams);

// The speed rule for step 08, in the transfers ladder at 8192x8192 with 7
// taps (16 chunks, 3 streams): `graded` at least 0.85x as fast end to end as
// `reference`, its reference solution; `filter` filters the serial rows.
void check_transfer_speed(TransferLauncher reference, TransferLauncher graded, Launcher filter,
                          const std::string& advice);

}  // namespace separable::testing
