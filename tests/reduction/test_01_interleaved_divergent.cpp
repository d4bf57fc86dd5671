// Grading test of reduction step 01 (interleaved addressing, divergent
// branch). Built twice: against lessons/reduction/01_interleaved_divergent/
// kernel.cu (suite "grade") and against the reference solution ("solutions").
#include "reduction/helpers.h"

using namespace reduction::testing;

COURSE_SOLUTION_LAUNCHER(reduction, step01_interleaved_divergent)

TEST_CASE("step 01 sums exactly at every grading size") {
    check_grading_sizes(reduction::step01_interleaved_divergent);
}

TEST_CASE("step 01 sums a block's values in shared memory") {
    const auto record = launches_for(reduction::step01_interleaved_divergent, 4097);
    REQUIRE(!record.kernels.empty());
    const auto& first = record.kernels.front();
    CHECK(first.blocks() == (4097 + 255) / 256);  // one thread per value
    CHECK(first.shared_bytes() >= first.threads_per_block() * sizeof(long long));
}

TEST_CASE("step 01 runs at least 0.85x as fast as the reference solution of step 01") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/reduction/README.md's starters table.
    check_speed(1, nullptr, reduction::solution::step01_interleaved_divergent, reduction::step01_interleaved_divergent,
                std::size_t{1} << 24,
                "the shared-memory tree of 256 values per block; the README's Nsight Compute command counts its "
                "branches");
}
