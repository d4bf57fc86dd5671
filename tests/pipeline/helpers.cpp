#include "pipeline/helpers.h"

#include "doctest_include.h"
#include "gpu_test.h"

#include "course/random.h"
#include "speed_rule.h"

namespace pipeline::testing {

namespace {

// The synthetic colour picture with 2% of its bytes black or white, so that
// the clamps of every stage are reached.
course::Image speckled_rgb(int width, int height, std::uint64_t seed) {
    course::Image image = course::synthetic_image(width, height, 3, seed);
    course::Rng rng(seed ^ 0x5eed);
    for (auto& byte : image.pixels) {
        const auto roll = rng.integer(0, 99);
        if (roll == 0) byte = 0;
        if (roll == 1) byte = 255;
    }
    return image;
}

}  // namespace

std::string Shape::describe() const {
    const auto pitch_text = [](int p) { return p == 0 ? std::string("default") : std::to_string(p); };
    return std::to_string(width) + "x" + std::to_string(height) + ", RGB pitch " + pitch_text(rgb_pitch) + ", pitch " +
           pitch_text(pitch);
}

const std::vector<Shape>& grading_shapes() {
    static const std::vector<Shape> shapes = {
        {1, 1},
        {2, 3},
        {7, 7},
        {5, 9},
        {31, 33},
        {1001, 7},
        {3, 1031},
        {120, 40},
        {124, 70},
        {128, 33},
        {129, 65},
        {482, 100},
        {2053, 1031},
        // Odd pitches: padding after each row, none at all, a multiple of 4
        // that is not of 16 or 128.
        {31, 33, 95, 33},
        {1001, 7, 3003, 1001},
        {1001, 7, 3005, 1003},
        {255, 67, 768, 260},
        {2053, 103, 6163, 2061},
    };
    return shapes;
}

void check_every_shape(const Step& step) {
    for (const Shape& shape : grading_shapes()) {
        CAPTURE(shape.describe());
        Problem problem(speckled_rgb(shape.width, shape.height, 1000 + shape.width), shape.rgb_pitch, shape.pitch);
        const auto result = course::check_once(course::testing::harness(), problem.run(step.launch, problem.params()));
        CHECK_MESSAGE(result.ok, result.summary());
    }
}

course::LaunchRecord launches_of(const Step& step) {
    Problem problem(course::synthetic_image(2048, 2048, 3, 3));
    return course::record_launches(problem.run(step.launch, problem.params()).launch);
}

void check_speed(std::vector<Step> steps, const std::string& advice) {
    REQUIRE_MESSAGE((steps.size() == 2 || steps.size() == 3), "a race is [previous,] reference, graded");
    const std::size_t graded = steps.size() - 1;
    std::vector<std::string> titles;
    for (std::size_t i = 0; i < steps.size(); ++i)
        titles.push_back(i == graded ? course::testing::graded_title(steps[i].number)
                                     : course::testing::solution_title(steps[i].number));
    for (std::size_t i = 0; i < steps.size(); ++i) steps[i].title = titles[i].c_str();
    course::Options options;
    options.size = "4096";
    for (const auto& spec : track_options()) options.extra[spec.name] = spec.default_value;

    const auto race = [&] {
        course::Ladder ladder = measure_ladder(
            steps, course::TrackRun{options, course::testing::harness(), steps.back().number}, /*references=*/false);
        course::testing::SpeedAttempt attempt;
        attempt.table = course::testing::mark_and_format(ladder, graded);
        REQUIRE_MESSAGE(ladder.all_ok(), attempt.table);
        attempt.measures.push_back({"time", course::testing::fraction_of_reference(ladder, graded)});
        return attempt;
    };
    course::testing::check_speed_rule("pipeline " + course::step_label(steps.back().number), race, advice);
}

}  // namespace pipeline::testing
