// Grading test of matmul step 02 (one thread per output, coalesced). Built
// twice: against lessons/matmul/02_coalesced/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
#include "grading.h"

TEST_CASE("step 02 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step02_coalesced, 200);
}

TEST_CASE("step 02 is coalesced: much faster than step 01") {
    if (!course::testing::timing_is_meaningful()) return;
    // The same arithmetic as step 01; only which thread computes which output
    // changed. A warp that reads 32 rows of A at once (step 01) needs 32
    // sectors per load where step 02's needs 1 to 4. Threshold and the
    // figures it comes from: lessons/matmul/02_coalesced/README.md.
    constexpr double kMinimumSpeedupOverStep01 = 4.0;
    const auto race = matmul::testing::race({1, "step 01 (solution)", matmul::step01_naive, matmul::step01_naive_attributes},
                                            {2, "step 02", matmul::step02_coalesced, matmul::step02_coalesced_attributes},
                                            "2048");
    matmul::testing::check_speedup(race, kMinimumSpeedupOverStep01);
}
