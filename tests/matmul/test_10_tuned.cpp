// Grading test of matmul step 10 (the tile configuration picked for the GPU
// and the shape). Built twice: against lessons/matmul/10_tuned/kernel.cu
// (suite "grade") and against the reference solution (suite "solutions").
#include "course/check.h"
#include "matmul/helpers.h"

#include <cstddef>
#include <set>
#include <string>
#include <vector>

COURSE_SOLUTION_LAUNCHER(matmul, step10_tuned)
COURSE_SOLUTION_LAUNCHER(matmul, step10_tuned_attributes)

namespace {

// The most dynamic shared memory a block of this GPU may ask for.
std::size_t shared_limit() {
    int device = 0, limit = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return static_cast<std::size_t>(limit);
}

}  // namespace

TEST_CASE("step 10 computes C = A * B at every grading shape") {
    matmul::testing::check_every_shape(matmul::step10_tuned, 1000);
}

TEST_CASE("step 10 is right on matrices that do not start on a 16-byte boundary") {
    matmul::testing::check_misaligned(matmul::step10_tuned, 1010);
}

TEST_CASE("step 10 compiles in at least three tile configurations") {
    const std::vector<matmul::TileConfig> configs = matmul::step10_tuned_configs();
    std::set<std::string> names;
    for (const matmul::TileConfig& config : configs) {
        MESSAGE(config.name, ": ", config.threads, " threads, ", config.shared_bytes, " bytes of shared memory");
        names.insert(config.name);
    }
    CHECK_MESSAGE(configs.size() >= 3, "the step has ", configs.size(),
                  " configuration(s); picking one for the GPU and the shape needs a choice of at least three");
    CHECK_MESSAGE(names.size() == configs.size(), "two configurations have the same name");
}

TEST_CASE("every configuration of step 10 that fits this GPU is right at every grading shape, in registers") {
    const std::size_t limit = shared_limit();
    const std::vector<matmul::TileConfig> configs = matmul::step10_tuned_configs();
    for (std::size_t i = 0; i < configs.size(); ++i) {
        const matmul::TileConfig& config = configs[i];
        CAPTURE(config.name);
        if (config.shared_bytes > limit) {
            MESSAGE(config.name, ": not run, its ", config.shared_bytes, " bytes of shared memory are more than the ",
                    limit, " this GPU allows a block");
            continue;
        }
        matmul::testing::check_registers_only(config.attributes());
        matmul::testing::check_every_shape(config.launch, 1100 + 10 * i);
        matmul::testing::check_misaligned(config.launch, 1105 + 10 * i);
    }
}

TEST_CASE("step 10 picks, for a shape it has run, one of its configurations that fits this GPU") {
    const std::vector<matmul::TileConfig> configs = matmul::step10_tuned_configs();
    // A shape of whole tiles and a ragged one; under racecheck, where the
    // launcher's timing of every configuration on a new shape is slow, whole
    // tiles at a sixth of the FLOP (matmul/helpers.h).
    const matmul::Shape whole =
        course::testing::under_racecheck() ? matmul::testing::kRacecheckWholeTiles : matmul::Shape{512, 256, 384};
    for (const matmul::Shape shape : {whole, matmul::Shape{127, 65, 129}}) {
        const std::string name = shape.describe();
        CAPTURE(name);
        matmul::Problem problem(shape, 1020);
        const course::CheckResult result =
            course::check_once(course::testing::harness(), problem.run(matmul::step10_tuned));
        CHECK_MESSAGE(result.ok, name, ": ", result.summary());
        const int index = matmul::step10_tuned_choice(problem.a(), problem.b(), problem.c(), shape.M, shape.N, shape.K);
        REQUIRE_MESSAGE(index >= 0, "after a launch at ", name, " the step names no configuration it picked");
        REQUIRE_MESSAGE(static_cast<std::size_t>(index) < configs.size(), "the pick, ", index,
                        ", is not one of the step's ", configs.size(), " configurations");
        MESSAGE(name, ": picked ", configs[static_cast<std::size_t>(index)].name);
        CHECK_MESSAGE(configs[static_cast<std::size_t>(index)].shared_bytes <= shared_limit(), "the pick, ",
                      configs[static_cast<std::size_t>(index)].name, ", needs more shared memory than this GPU allows");
    }
}

TEST_CASE("step 10 runs at least 0.85x as fast as the reference solution of step 10") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/matmul/README.md's starters table.
    matmul::testing::check_speed(
        {{9, "", matmul::step09_async_copies, matmul::step09_async_copies_attributes},
         {10, "", matmul::solution::step10_tuned, matmul::solution::step10_tuned_attributes},
         {10, "", matmul::step10_tuned, matmul::step10_tuned_attributes}},
        "4096",
        "the configurations compiled in (block tile, phase depth, stages, threads) and the pick (every configuration "
        "that fits timed on the problem at the first launch); the sweep after the ladder shows each configuration's "
        "time");
}
