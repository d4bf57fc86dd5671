// Grading test of reduction step 09 (16-byte loads, single pass).
#include "reduction/helpers.h"

using namespace reduction::testing;

COURSE_SOLUTION_LAUNCHER(reduction, step09_vector_single_pass)

TEST_CASE("step 09 sums exactly at every grading size") { check_grading_sizes(reduction::step09_vector_single_pass); }

TEST_CASE("step 09 is exact on inputs that do not start on a 16-byte boundary") {
    for (const std::size_t offset : {1, 2, 3}) {
        for (const std::size_t n :
             {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{4097}, (std::size_t{1} << 22) + 3}) {
            CAPTURE(offset);
            CAPTURE(n);
            reduction::Problem problem(n, 9000 + n, offset);
            const auto result = course::check_once(harness(), problem.run(reduction::step09_vector_single_pass));
            CHECK_MESSAGE(result.ok, result.summary());
        }
    }
}

TEST_CASE("step 09 is a single launch: one kernel, nothing else") {
    for (const std::size_t n : {std::size_t{1}, std::size_t{1} << 22, std::size_t{1} << 26}) {
        CAPTURE(n);
        const auto record = launches_for(reduction::step09_vector_single_pass, n);
        CHECK(record.kernels.size() == 1);
        CHECK(record.other_operations == 0);
    }
}

TEST_CASE("step 09 runs at least 0.85x as fast as the reference solution of step 09") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/reduction/README.md's starters table.
    check_speed(9, reduction::step08_warp_shuffles, reduction::solution::step09_vector_single_pass,
                reduction::step09_vector_single_pass, std::size_t{1} << 22,
                "16-byte loads (int4) in the grid-stride loop and the single pass (the last block to finish sums "
                "the partials); the README's Nsight Compute command counts the global load instructions");
}
