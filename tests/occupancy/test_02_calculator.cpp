// Grading test of occupancy step 02 (the occupancy calculator). Built twice:
// against lessons/occupancy/02_calculator/kernel.cu (suite "grade") and
// against the reference solution (suite "solutions").
#include "occupancy/calculator_check.h"
#include "occupancy/fermi.h"
#include "occupancy/helpers.h"

#include <cstdio>
#include <set>
#include <string>

using namespace occupancy::testing;

TEST_CASE("step 02 reproduces the slides' Fermi examples from Fermi's limits") {
    check_fermi_examples(occupancy::step02_calculator);
}

TEST_CASE("step 02 agrees with cudaOccupancyMaxActiveBlocksPerMultiprocessor on every configuration tried") {
    // Probe kernels with many register counts (values held in registers,
    // register caps from __launch_bounds__ and __maxnreg__) and static shared
    // memory, each launched in thought with many block sizes and dynamic
    // shared memory sizes; the kernel's own registers and shared memory come
    // from cudaFuncGetAttributes. Besides a grid, the configurations include,
    // for each allocation rule, up to 48 of those where that rule alone
    // decides the answer (tests/occupancy/calculator_rules.h): block sizes one
    // thread into a warp and one short of a whole warp, register counts one
    // allocation unit apart, shared memory on both sides of every allocation
    // unit boundary that changes the blocks per SM, at the default limit and
    // at the opt-in limit. That suffices because a calculator that leaves out
    // a rule, or gets it wrong, differs from the runtime where that rule alone
    // decides; the grading's self-test (test_calculator_plants.cpp) shows a
    // calculator missing any one rule failing this comparison.
    const RuntimeConfigurations& all = runtime_configurations();
    MESSAGE(occupancy::describe(all.sm));
    MESSAGE(describe_coverage(all));
    const RuntimeComparison result = compare_with_runtime(occupancy::step02_calculator);
    std::printf("configurations tried: %zu, mismatches: %zu\n", result.tried, result.mismatches);
    MESSAGE("configurations tried: ", result.tried, ", mismatches: ", result.mismatches);
    CHECK(result.tried >= 500);
    CHECK_MESSAGE(result.mismatches == 0, "the calculator differs from the CUDA runtime in ", result.mismatches, " of ",
                  result.tried, " configurations; the first:", result.first);
}

TEST_CASE("step 02 computes with its own code: its kernel.cu calls neither the runtime's occupancy calculator, nor "
          "the reference solution, nor a library") {
    // The reference solution's calculator is linked into this program (every
    // grading test links its step's); a calculator that handed it the work
    // would pass every other case (tests/library_calls.h reads the calls).
    course::testing::check_calls_of_graded_file();
    // Nor may it ask the runtime's calculator, which the comparison above
    // takes as the truth: one that did for this GPU, and worked out only
    // Fermi's examples itself, would pass every other case too.
    // (None where this program grades no kernel.cu, the grading's self-tests,
    // or nm cannot read them: the check above has failed, saying why.)
    const std::set<std::string>* calls = course::testing::graded_file_calls();
    if (calls == nullptr) return;
    for (const std::string& call : *calls)
        if (call.rfind("cudaOccupancy", 0) == 0 || call.rfind("cuOccupancy", 0) == 0)
            FAIL_CHECK("the calculator calls " << call
                                               << ", the runtime's own occupancy calculator, which this test compares "
                                                  "it with: step 02 works the answer out from the GPU's limits");
}

TEST_CASE("step 02 sees each limiter bind on this GPU") {
    // One configuration per limiter, from the GPU's own limits.
    const occupancy::SmLimits sm = occupancy::limits_of(harness().device.ordinal);
    occupancy::BlockResources block;
    block.threads = sm.warp_size;  // tiny blocks: the block slots run out first
    block.registers_per_thread = 16;
    block.max_dynamic_shared_bytes = sm.shared_per_block;
    CHECK(occupancy::step02_calculator(sm, block).limiter == occupancy::Limiter::blocks);
    block.threads = 1024;  // big blocks of few registers: warp slots
    CHECK(occupancy::step02_calculator(sm, block).limiter == occupancy::Limiter::warps);
    block.threads = 256;
    block.registers_per_thread = 128;
    CHECK(occupancy::step02_calculator(sm, block).limiter == occupancy::Limiter::registers);
    block.registers_per_thread = 16;
    block.dynamic_shared_bytes = sm.shared_per_block;
    CHECK(occupancy::step02_calculator(sm, block).limiter == occupancy::Limiter::shared_memory);
}
