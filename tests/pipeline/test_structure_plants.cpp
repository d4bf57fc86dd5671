// The grading checks itself (pipeline 08): the check without a clock of
// tests/pipeline/helpers.h must fail the untouched starter, the step
// before's solution (step 07's: one kernel that takes the alignment as an
// argument), and pass step 08's solution. A change that loosens the check so
// far that its starter passes fails here.
#include "doctest_include.h"
#include "pipeline/helpers.h"

TEST_CASE("step 08's kernel-per-alignment check fails step 07's solution (the starter) and passes step 08's") {
    const auto starter = pipeline::testing::check_kernel_per_alignment(pipeline::step07_packed_bytes);
    MESSAGE("starter: ", starter.what);
    CHECK_FALSE(starter.ok);
    const auto solution = pipeline::testing::check_kernel_per_alignment(pipeline::step08_loads_ahead);
    CHECK_MESSAGE(solution.ok, solution.what);
}
