// Grading test of separable step 05 (read-only loads (__ldg)). Built twice: against
// lessons/separable/05_read_only_loads/kernel.cu (suite "grade") and against the
// reference solution (suite "solutions").
#include "separable/helpers.h"

using namespace separable::testing;

COURSE_SOLUTION_LAUNCHER(separable, step05_read_only_loads)

TEST_CASE("step 05 filters every grading shape with every grading filter length") {
    check_every_shape(separable::step05_read_only_loads);
}

TEST_CASE("step 05 runs at least 0.85x as fast as the reference solution of step 05") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/separable/README.md's starters table.
    check_speed(5, separable::step04_padded_shared, separable::solution::step05_read_only_loads,
                separable::step05_read_only_loads,
                "the tile copies through __ldg(&...); the README shows how to check the SASS (LDG.E.CONSTANT) and the "
                "L1 hit rate");
}
