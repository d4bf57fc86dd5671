// Grading test of matmul step 01 (one thread per output, uncoalesced). Built
// twice: against lessons/matmul/01_naive/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
//
// Step 01 is slow on purpose (step 02 is about why), so it is graded on
// correctness alone.
#include "grading.h"

TEST_CASE("step 01 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step01_naive, 100);
}
