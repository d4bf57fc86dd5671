// The grading checks itself: launchers wrong on purpose (plants.h) run
// through the same checks as a student's kernel, and each must fail by the
// check meant to catch it. A plant that passes means a check was lost.
#include "plants.h"
#include "reduction/helpers.h"

#include "course/options.h"

#include <string>
#include <vector>

using namespace reduction::testing;

namespace {

// The ladder of one launcher at n ints, as a lesson program or a race runs it.
course::Rung ladder_row(reduction::Launcher launch, std::size_t n) {
    course::Options options;
    options.size = std::to_string(n);
    const std::vector<reduction::Step> steps = {{1, "plant", launch}};
    const auto ladders = reduction::run_ladder(steps, course::TrackRun{options, harness(), 1});
    return ladders.at(0).rungs.at(0);
}

bool says(const course::CheckResult& result, const std::string& phrase) {
    return result.summary().find(phrase) != std::string::npos;
}

}  // namespace

TEST_CASE("control: a correct launcher passes every check the plants fail") {
    reduction::Problem problem(4099, 11);
    const auto once = course::check_once(harness(), problem.run(reduction::step09_vector_single_pass));
    CHECK_MESSAGE(once.ok, once.summary());
    const course::Rung row = ladder_row(reduction::step09_vector_single_pass, std::size_t{1} << 24);
    CHECK_MESSAGE(row.check.ok, row.check.summary());
}

TEST_CASE("a launcher that replays its last result for the same pointer fails the second call") {
    reduction::Problem problem(4101, 12);
    const auto once = course::check_once(harness(), problem.run(reduction::plants::replays_by_pointer));
    REQUIRE_FALSE(once.ok);
    CHECK_MESSAGE(says(once, "second call with new inputs in the same buffers"), once.summary());
    const course::Rung row = ladder_row(reduction::plants::replays_by_pointer, (std::size_t{1} << 20) + 5);
    REQUIRE_FALSE(row.check.ok);
    CHECK_MESSAGE(says(row.check, "second call"), row.check.summary());
}

TEST_CASE("a launcher that leaves its counter behind fails the second call") {
    reduction::Problem problem(1 << 20, 13);
    const auto once = course::check_once(harness(), problem.run(reduction::plants::leaves_its_counter));
    REQUIRE_FALSE(once.ok);
    CHECK_MESSAGE(says(once, "second call with new inputs in the same buffers"), once.summary());
    const course::Rung row = ladder_row(reduction::plants::leaves_its_counter, (std::size_t{1} << 20) + 7);
    REQUIRE_FALSE(row.check.ok);
    CHECK_MESSAGE(says(row.check, "second call"), row.check.summary());
}

TEST_CASE("a launcher that replays a result when its input looks the same is faster than the GPU, and fails") {
    // Right on every fresh input, so only the ceiling can catch it: timed on
    // an unchanged input, it copies 8 bytes instead of reading 256 MiB.
    if (!course::testing::timing_is_meaningful()) return;
    reduction::Problem problem(4103, 14);
    const auto once = course::check_once(harness(), problem.run(reduction::plants::replays_by_content));
    CHECK_MESSAGE(once.ok, once.summary());
    const course::Rung row = ladder_row(reduction::plants::replays_by_content, std::size_t{1} << 26);
    REQUIRE_FALSE(row.check.ok);
    CHECK_MESSAGE(says(row.check, "faster than this GPU can move it"), row.check.summary());
}
