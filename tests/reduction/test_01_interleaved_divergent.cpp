// Grading test of reduction step 01 (interleaved addressing, divergent
// branch). Built twice: against lessons/reduction/01_interleaved_divergent/
// kernel.cu (suite "grade") and against the reference solution ("solutions").
#include "reduction_test.h"

using namespace reduction_test;

TEST_CASE("step 01 sums exactly at every grading size") { check_grading_sizes(reduction::step01_interleaved_divergent); }

TEST_CASE("step 01 sums a block's values in shared memory") {
    const auto record = launches_for(reduction::step01_interleaved_divergent, 4097);
    REQUIRE(!record.kernels.empty());
    const auto& first = record.kernels.front();
    CHECK(first.blocks() == (4097 + 255) / 256);   // one thread per value
    CHECK(first.shared_bytes() >= first.threads_per_block() * sizeof(long long));
}
