// Grading test of matmul step 06 (16-byte loads, A transposed in shared
// memory). Built twice: against lessons/matmul/06_vector_loads/kernel.cu
// (suite "grade") and against the reference solution (suite "solutions").
#include "matmul/helpers.h"
#include "matmul/structure.h"

COURSE_SOLUTION_LAUNCHER(matmul, step06_vector_loads)
COURSE_SOLUTION_LAUNCHER(matmul, step06_vector_loads_attributes)

TEST_CASE("step 06 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step06_vector_loads, 600);
}

TEST_CASE("step 06 is right on matrices that do not start on a 16-byte boundary") {
    matmul::testing::check_misaligned(matmul::step06_vector_loads, 610);
}

TEST_CASE("step 06 keeps its partial sums in registers") {
    matmul::testing::check_registers_only(matmul::step06_vector_loads_attributes());
}

// The untouched starter (step 05's solution) passes the checks above, and
// step 06 gains only about 1.25x over it: the float4 path is also checked
// without a clock (tests/matmul/structure.h), in the kernel's machine code.
TEST_CASE("step 06 takes a float4 path of its own: aligned matrices get another kernel, with 16-byte loads and shared "
          "reads in its machine code") {
    const matmul::testing::StructureCheck check =
        matmul::testing::check_float4_path(matmul::step06_vector_loads, COURSE_GRADED_LIBRARY);
    MESSAGE(check.what);
    CHECK_MESSAGE(check.ok, check.what);
}

TEST_CASE("step 06 runs at least 0.85x as fast as the reference solution of step 06") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/matmul/README.md's starters table.
    matmul::testing::check_speed(
        {{5, "", matmul::step05_2d_blocking, matmul::step05_2d_blocking_attributes},
         {6, "", matmul::solution::step06_vector_loads, matmul::solution::step06_vector_loads_attributes},
         {6, "", matmul::step06_vector_loads, matmul::step06_vector_loads_attributes}},
        "4096",
        "float4 loads of the tiles from global memory and float4 reads of the fragments from shared memory (A's "
        "tile stored transposed); the README's Nsight Compute command counts the load instructions");
}
