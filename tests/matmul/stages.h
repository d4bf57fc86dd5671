// Step 09's idea seen without a clock, for its grading test and for the
// grading's self-test (tests/matmul/test_stages_plants.cpp), which shows the
// check failing the untouched starter (step 08's solution) and step 09's
// solution built with two stages (a plant). A race in a pipeline of copies
// need not show in the results, and the speed rule alone would grade the
// copies by a clock, so they are read from the kernel's machine code:
// cp.async compiles to LDGSTS, and cp.async.wait_group N to DEPBAR.LE SB0, N.
#pragma once

#include "course/launches.h"
#include "sass_listing.h"
#include "tracks/matmul/track.h"

#include <string>
#include <vector>

namespace matmul::testing {

struct StagesCheck {
    bool ok = false;
    std::string what;  // what was seen, and what was expected
};

// The shapes at which step 09's three kernels run: whole tiles (the fast
// path), N a multiple of 4 (16-byte copies of B, checked) and a ragged shape
// (4-byte copies of B).
inline const std::vector<Shape> kStageShapes = {{512, 256, 384}, {200, 100, 60}, {127, 65, 129}};

// The compute capability, times 10, of the code the kernel `function` runs
// (cudaFuncAttributes::binaryVersion: 75 on a Turing-only build), or -1
// where the runtime cannot say.
inline int code_version(const void* function) {
    cudaFuncAttributes attributes{};
    return cudaFuncGetAttributes(&attributes, function) == cudaSuccess ? attributes.binaryVersion : -1;
}

// Whether the kernel `launch` enqueues at kStageShapes' first shape runs code
// for compute capability 8.0 or later, which has cp.async (the grading's
// self-test has nothing to show on a Turing-only build).
inline bool built_with_async_copies(Launcher launch) {
    Problem problem(kStageShapes.front(), 920);
    const course::LaunchRecord record = course::record_launches(problem.run(launch).launch);
    return record.kernels.size() == 1 && code_version(record.kernels.front().function) >= 80;
}

// Copies with cp.async, and a wait that leaves a group of them in flight: at
// every shape of kStageShapes the one kernel launched (read from the launch
// captured without running it) has cp.async copies (LDGSTS) in its machine
// code (cuobjdump -sass of `library`, the static library built from the
// graded kernel.cu), and a wait that leaves at least one group in flight
// (DEPBAR.LE SB0 with a count of 1 or more). In the README's phase (wait,
// barrier, copy tile t + stages - 1, compute tile t) the wait leaves
// stages - 2 groups: 1 with three stages, 0 with two, which the plant shows.
// The stages themselves are not counted: two stages that copy the next tile
// before the wait (and pass a second barrier after computing) also wait with
// 1 and pass; and no count of shared memory tells three stages from two
// without failing tiles the course's own sweep runs (three stages of 64 x 128
// x 16 take 37,632 bytes, four of 128 x 128 x 8 take 33,280, as much as step
// 08's two stages).
//
// A kernel built for code below compute capability 8.0 (a Turing-only
// gpu_arch) has no cp.async to find: the course's copies load and store at
// once there (course/async_copy.cuh), so that kernel is not checked, and the
// check says so.
inline StagesCheck check_copies_in_flight(Launcher graded, const std::string& library) {
    StagesCheck check{true, ""};
    for (const Shape& shape : kStageShapes) {
        Problem problem(shape, 920);
        const course::LaunchRecord mine = course::record_launches(problem.run(graded).launch);
        if (mine.kernels.size() != 1)
            return {false, "at " + shape.describe() + " the launcher launched " + std::to_string(mine.kernels.size()) +
                               " kernels, not one"};
        if (!check.what.empty()) check.what += "; ";
        const int version = code_version(mine.kernels.front().function);
        if (version >= 0 && version < 80) {
            check.what += "at " + shape.describe() + " the kernel runs code for compute capability " +
                          std::to_string(version / 10) + "." + std::to_string(version % 10) +
                          ", which has no cp.async: its copies are not checked";
            continue;
        }
        std::string name, why;
        course::testing::KernelCode code;
        if (!course::testing::launched_kernel_code(mine.kernels.front().function, COURSE_CUOBJDUMP, library, name, code,
                                                   why))
            return {false, "at " + shape.describe() + ": " + why};
        const std::size_t copies = course::testing::count_lines_with(code.lines, {"LDGSTS"});
        const long in_flight = course::testing::most_copy_groups_left_in_flight(code.lines);
        check.what += "at " + shape.describe() + " the kernel's machine code has " + std::to_string(copies) +
                      " cp.async copies (LDGSTS) and " +
                      (in_flight < 0 ? std::string("no wait for them (DEPBAR.LE SB0)")
                                     : "waits that leave at most " + std::to_string(in_flight) +
                                           (in_flight == 1 ? " group" : " groups") +
                                           " of copies in flight (DEPBAR.LE SB0, " + std::to_string(in_flight) + ")");
        if (copies == 0) {
            check.ok = false;
            check.what += ": the tiles are to be copied with cp.async (course::device::copy_async)";
        } else if (in_flight < 1) {
            check.ok = false;
            check.what += ": with three stages the wait leaves the newest group in flight (copy_async_wait<1>)";
        }
    }
    return check;
}

}  // namespace matmul::testing
