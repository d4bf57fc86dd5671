// Grading test of hgemm step 04 (cp.async, three stages in flight). Built
// twice: against lessons/hgemm/04_async_copies/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
#include "hgemm/helpers.h"

COURSE_SOLUTION_LAUNCHER(hgemm, step04_async_copies)
COURSE_SOLUTION_LAUNCHER(hgemm, step04_async_copies_attributes)

TEST_CASE("step 04 computes C = A * B at every grading shape") {
    hgemm::testing::check_every_shape(hgemm::step04_async_copies, 400);
}

TEST_CASE("step 04 is right on matrices that do not start on a 32-byte boundary") {
    // Offsets of 1 element take the checked copies (rows not 16-byte aligned),
    // offsets of 8 the asynchronous ones.
    hgemm::testing::check_misaligned(hgemm::step04_async_copies, 410);
}

TEST_CASE("step 04 keeps step 03's tiles, with at least three stages of them in shared memory") {
    const auto check = hgemm::testing::check_stages(hgemm::step04_async_copies);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 04 keeps its fragments and accumulators in registers") {
    hgemm::testing::check_registers_only(hgemm::step04_async_copies_attributes());
}

TEST_CASE("step 04 runs at least 0.85x as fast as the reference solution of step 04") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h).
    hgemm::testing::check_speed(
        {{3, "", hgemm::step03_mma_ldmatrix, hgemm::step03_mma_ldmatrix_attributes},
         {4, "", hgemm::solution::step04_async_copies, hgemm::solution::step04_async_copies_attributes},
         {4, "", hgemm::step04_async_copies, hgemm::step04_async_copies_attributes}},
        "4096",
        "cp.async straight into shared memory (no registers in between), three stages (two tiles in flight while one "
        "is multiplied) and the order of a k-step (wait, barrier, copy, multiply); the README's Nsight Compute "
        "command shows the stall reasons and the tensor pipe's use");
}
