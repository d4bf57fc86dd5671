// Grading test of reduction step 02 (interleaved addressing, strided index).
//
// On the G80 this step was 2.33x faster than step 01; on the H100 and the
// H200 (the ladders in the lesson README) it is slower: 64-bit partial sums
// make its bank conflicts worse than the divergence it removes. So the test
// checks what the step is: the exact sum, from the same launch shape as step
// 01 (one value per thread, one 8-byte slot per thread in shared memory); its
// speed rule compares it with the reference solution of step 02, not step 01.
#include "reduction/helpers.h"

using namespace reduction::testing;

COURSE_SOLUTION_LAUNCHER(reduction, step02_interleaved_strided)

TEST_CASE("step 02 sums exactly at every grading size") { check_grading_sizes(reduction::step02_interleaved_strided); }

TEST_CASE("step 02 keeps step 01's launch: one value per thread, a shared-memory tree") {
    const std::size_t n = 4097;
    const auto record = launches_for(reduction::step02_interleaved_strided, n);
    REQUIRE(!record.kernels.empty());
    const auto& first = record.kernels.front();
    CHECK(first.blocks() == (n + first.threads_per_block() - 1) / first.threads_per_block());
    CHECK(first.shared_bytes() >= first.threads_per_block() * sizeof(long long));
}

TEST_CASE("step 02 runs at least 0.85x as fast as the reference solution of step 02") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/reduction/README.md's starters table.
    check_speed(2, reduction::step01_interleaved_divergent, reduction::solution::step02_interleaved_strided,
                reduction::step02_interleaved_strided, std::size_t{1} << 24,
                "the index of each round (index = 2 * s * tid) and the shared-memory bank conflicts it causes (the "
                "README's Nsight Compute command)");
}
