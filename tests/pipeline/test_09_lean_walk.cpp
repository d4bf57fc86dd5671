// Grading test of pipeline step 09 (row pointers, 12-row turns: fewer
// instructions a row). Built twice: against lessons/pipeline/09_lean_walk/kernel.cu
// (suite "grade") and against the reference solution (suite "solutions").
#include "doctest_include.h"

#include "gpu_test.h"
#include "pipeline/helpers.h"

COURSE_SOLUTION_LAUNCHER(pipeline, step09_lean_walk)

// Defined on the compile line (tests/meson.build): the static libraries of the
// kernel graded and of the step's reference copy, and cuobjdump's path.
#ifndef COURSE_GRADED_LIBRARY
#define COURSE_GRADED_LIBRARY ""
#endif
#ifndef COURSE_REFERENCE_LIBRARY
#define COURSE_REFERENCE_LIBRARY ""
#endif
#ifndef COURSE_CUOBJDUMP
#define COURSE_CUOBJDUMP ""
#endif

namespace {

using namespace pipeline;

const Step kStep{9, "step 09", step09_lean_walk};
const Step kReference{9, "", solution::step09_lean_walk};
const Step kPrevious{8, "", step08_loads_ahead};
}  // namespace

TEST_CASE("step 09 is exact at every grading size and pitch, the border included") {
    testing::check_every_shape(kStep);
}

TEST_CASE("step 09 walks strips of 24 rows, in registers") {
    testing::check_register_kernel(
        kStep, kReference, "step 06's strips keep everything in registers",
        "index the rows loaded ahead, the rings and the windows with constants only (slots t % kAhead, t % 4 and t % 3 "
        "in a walk unrolled by 12 rows)",
        " (4 columns and 24 rows each: strips of two 12-row turns)");
}

TEST_CASE("step 09's walk runs fewer instructions a row: pointers and a 12-row turn, in its machine code") {
    const testing::StructureCheck check = testing::check_fewer_instructions(kStep, kReference, COURSE_GRADED_LIBRARY,
                                                                            COURSE_REFERENCE_LIBRARY, COURSE_CUOBJDUMP);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 09 runs at least 0.85x as fast as the reference solution of step 09") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h). Row pointers and the
    // renamed windows change only the instructions, which no launch
    // attribute shows: the check of the machine code above counts them.
    // The race runs at 8192x8192, the targets' size: step 09's 24-row
    // strips pay where the grid fills the GPU several times over, and on
    // smaller images step 08's reference, racing first, can be the faster
    // (the README's Measured), which would show a student a loss that is
    // not theirs.
    testing::check_speed({kPrevious, kReference, kStep},
                         "a pointer per image moved on by its pitch at each row instead of the row's address "
                         "worked out again, a 12-row turn (a multiple of 3 and 4: the windows and rings can rotate by "
                         "renaming), strips of 24 rows, 4 rows ahead; python3 tests/sass_loops.py "
                         "build/lessons/pipeline-09 fused_v9 counts the loop's instructions",
                         "8192");
}
