// Grading test of reduction step 08 (warp shuffles).
#include "reduction/helpers.h"

#include <algorithm>

using namespace reduction::testing;

COURSE_SOLUTION_LAUNCHER(reduction, step08_warp_shuffles)

TEST_CASE("step 08 sums exactly at every grading size") { check_grading_sizes(reduction::step08_warp_shuffles); }

TEST_CASE("step 08 keeps one value per warp in shared memory, not one per thread") {
    const auto record = launches_for(reduction::step08_warp_shuffles, std::size_t{1} << 22);
    REQUIRE(!record.kernels.empty());
    const auto& first = record.kernels.front();
    // One total per warp of the block; an array sized for the most warps a
    // block can have (32, as in `long long totals[32]`) is one per warp too.
    // One value per thread is kBlockSize of them: 256, the untouched starter's.
    const std::size_t warps = first.threads_per_block() / 32, slots = std::max<std::size_t>(warps, 32);
    CHECK_MESSAGE(first.shared_bytes() <= slots * sizeof(long long), first.shared_bytes(),
                  " bytes of shared memory per block; the totals of its ", warps, " warps take ",
                  warps * sizeof(long long), " (an array for the 32 warps a block may have, ", 32 * sizeof(long long),
                  ")");
}

TEST_CASE("step 08 runs at least 0.85x as fast as the reference solution of step 08") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/reduction/README.md's starters table.
    check_speed(8, reduction::step07_many_per_thread, reduction::solution::step08_warp_shuffles,
                reduction::step08_warp_shuffles, std::size_t{1} << 24,
                "__shfl_down_sync within each warp, one value per warp through shared memory; the README's Nsight "
                "Compute command counts the shared-memory wavefronts");
}
