// The grading checks itself (tests/own_kernels.h): a grading test built
// against a launcher that computes the right result, as fast as the
// reference or faster, with kernels that are not its kernel.cu's, must fail,
// naming the kernel. Reduction step 03's test runs a launcher that hands the
// work to the reference solution the test links (after a kernel of its own),
// one that does so only at the race's size (its own kernel sums the
// correctness sizes exactly), and one that does so only where it is not being
// captured (the captures, which record the kernels a launcher runs, see only
// its own: the check of what its kernel.cu calls fails it, tests/
// library_calls.h); matmul step 03's, one that calls cuBLAS. Run as the grade
// setup runs them ($COURSE_GRADED set): the second with its race alone, the
// others without their races (not the point here, and the plants would pass
// them).
#include "doctest_include.h"
#include "gpu_test.h"
#include "plant_run.h"

#include <string>

namespace {

// Runs the plant named by `plant_variable` with the test cases `filter` picks:
// it must fail, and say why.
void check_plant(const std::string& plant_variable, const std::string& why,
                 const std::string& filter = "--test-case-exclude=*as fast as*") {
    const std::string plant = course::testing::environment(plant_variable.c_str());
    REQUIRE_MESSAGE(!plant.empty(), plant_variable, " is not set (tests/meson.build sets it)");
    if (course::testing::under_sanitizer()) return;  // the same check, only slower
    course::testing::check_plant_failed(course::testing::run_grading_program(plant, {"COURSE_GRADED=lesson"}, {filter}),
                                        why);
}

}  // namespace

TEST_CASE("a launcher that hands the work to the reference solution fails its grading test") {
    check_plant("COURSE_REDUCTION_PLANT", "reduce_sequential<int>(int const*, long long*, unsigned long), which is not "
                                          "compiled from the kernel.cu graded");
}

TEST_CASE("a launcher that hands the work to the reference solution at the race's size only fails its race") {
    check_plant("COURSE_RACE_PLANT",
                "reduce_sequential<int>(int const*, long long*, unsigned long) in the race, which is not compiled "
                "from the kernel.cu graded",
                "--test-case=*as fast as*");
}

TEST_CASE("a launcher that hands the work to the reference solution where it is not captured fails its grading test") {
    check_plant("COURSE_CAPTURED_PLANT",
                "calls reduction::solution::step03_sequential(int const*, unsigned long, long long*, long long*, "
                "CUstream_st*): the reference solution");
}

TEST_CASE("a launcher that calls cuBLAS fails its grading test") {
    check_plant("COURSE_MATMUL_PLANT", "that it launched through the driver API");
}
