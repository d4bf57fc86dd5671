// Shared by the separable grading tests: the shapes and filter lengths every
// step is checked at, what a step launches, and the race the speed rule reads.
#pragma once

#include "course/launches.h"
#include "doctest_include.h"
#include "gpu_test.h"
#include "own_kernels.h"
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

// Checks `launch` at every grading shape (course::check_once: a call, then one
// on new inputs) (1x1, 1x37, 37x1, 5x3, 31x33, 129x67, 130x17 (a width that is
// even but not a multiple of 4), 256x64, 1023x9) with every grading filter
// length (1, 3, 7, 9, 15, 31, 33, 63: step 07 runs 9 and 33 in its 15- and
// 63-tap kernels, padded with zero weights), on a test picture and a lopsided
// filter, and checks every pixel. Its kernels must be its own
// (tests/own_kernels.h).
void check_every_shape(Launcher launch);

// Whether `launch`'s kernels read the filter from a copy of their own (step
// 02's __constant__ array) rather than from params.weights: the launcher runs
// once (its copy made), params.weights is zeroed, and the kernels it enqueues
// run again alone, without its copies (course/captured_work.h). The image
// must come out as filtered by the weights copied the first time; kernels
// that read params.weights give a black image.
course::CheckResult check_kernels_read_their_copy(Launcher launch, int width, int height, int taps);

// The kernels (and other operations) `launch` enqueues for a width x height
// image and `taps` taps, captured without running them.
course::LaunchRecord launches_for(Launcher launch, int width, int height, int taps);

// The kernels `launch` enqueues (129x67, 7 taps) whose machine code in
// `library` (cuobjdump -sass, `cuobjdump` its path) reads no __constant__
// variable: no operand in constant bank 3, c[0x3][...], where nvcc places
// them (bank 0 holds the kernel's parameters; a __device__ array in global
// memory is read with global loads, its address from another bank). Their
// names, demangled; empty where every kernel reads one. A message in
// `failure` where the code cannot be read.
std::vector<std::string> kernels_not_reading_constant_memory(Launcher launch, const std::string& library,
                                                             const std::string& cuobjdump, std::string& failure);

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

// The order of step 08's job, checked without a clock: the job at width x
// height with `taps` taps, `chunks` chunks on `streams` streams, captured into
// a CUDA graph (course/captured_work.h), and run again node by node in two
// orders per node that the graph allows: the node as early as its
// dependencies let it run (only the work it waits for before it), and as late
// (all the work that does not wait for it before it). The device buffers and
// the host output are poisoned before each run, and every pixel that comes
// back must be the same as when the graph runs in its own order, which must
// be right. A kernel that reads an input row whose upload it does not wait
// for, a download that does not wait for the kernel that wrote its rows, and
// an upload or kernel that overwrites a buffer other work still reads without
// waiting for it, each make one of those runs wrong. The graph's kernels must
// be the job's own (tests/own_kernels.h).
struct OrderCheck {
    bool ok = false;
    std::string what;  // the first order that went wrong, or what was checked
};
OrderCheck check_transfer_order(TransferLauncher launch, int width, int height, int taps, int chunks, int streams);

// The job run on the GPU with its first stream held back: a kernel that only
// waits (50 ms) enqueued on it first, the device's input image poisoned
// before, so that a missing dependency on that stream's work shows as a wrong
// image (a lucky order does not hide it). Every pixel is checked.
course::CheckResult check_first_stream_delayed(TransferLauncher launch, int width, int height, int taps, int chunks,
                                               int streams);

// The captured graph of `launch`'s job as a Mermaid flowchart (for the
// lesson's README: tests/separable/test_transfer_plants.cpp prints it).
std::string transfer_graph(TransferLauncher launch, int width, int height, int taps, int chunks, int streams);

// The speed rule for step 08, in the transfers ladder at 8192x8192 with 7
// taps (16 chunks, 3 streams): `graded` at least 0.85x as fast end to end as
// `reference`, its reference solution; `filter` filters the serial rows.
void check_transfer_speed(TransferLauncher reference, TransferLauncher graded, Launcher filter,
                          const std::string& advice);

}  // namespace separable::testing
