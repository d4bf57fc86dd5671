#include "sobel/helpers.h"

#include "doctest_include.h"
#include "gpu_test.h"

#include "course/launches.h"
#include "speed_rule.h"

#include <map>

namespace sobel::testing {

std::string Shape::describe() const {
    return std::to_string(width) + "x" + std::to_string(height) + ", pitch " +
           (pitch == 0 ? "default" : std::to_string(pitch));
}

const std::vector<Shape>& grading_shapes() {
    static const std::vector<Shape> shapes = {
        {1, 1},
        {2, 2},
        {3, 3},
        {5, 7},
        {31, 33},
        {1001, 7},
        {3, 1031},
        {16, 40},
        {17, 70},
        {528, 70},
        {2053, 1031},
        // Odd pitches: padding after each row (a word stored across the row's
        // end lands there and is caught), none at all, and a pitch that is a
        // multiple of 4 but not of 16 (16-byte words fall back to bytes).
        {31, 33, 33},
        {1001, 7, 1001},
        {1001, 7, 1003},
        {2053, 103, 2061},
        {127, 65, 132},
    };
    return shapes;
}

void check_every_shape(const Step& step) {
    for (const Shape& shape : grading_shapes()) {
        CAPTURE(shape.describe());
        Problem problem(course::speckled_image(shape.width, shape.height, 1000 + shape.width), shape.pitch);
        course::TextureObject texture;
        if (step.texture != nullptr) texture = problem.texture(step.texture());
        Params params = problem.params();
        params.texture = texture.get();
        const auto result = course::check_once(course::testing::harness(), problem.run(step.launch, params));
        CHECK_MESSAGE(result.ok, result.summary());
        course::testing::check_launches_own_kernels(problem.run(step.launch, params).launch, "");
    }
}

void check_reads_through_texture(const Step& step) {
    REQUIRE_MESSAGE(static_cast<bool>(step.texture), "not a texture step");
    for (const Shape& shape : {Shape{127, 65}, Shape{1001, 7, 1003}}) {
        CAPTURE(shape.describe());
        Problem problem(course::speckled_image(shape.width, shape.height, 77), shape.pitch);
        course::DeviceImage decoy(shape.width, shape.height, problem.pitch());
        // Another picture (not the negative: that has the same edges).
        decoy.upload(course::speckled_image(shape.width, shape.height, 78).pixels);
        const course::TextureObject texture = problem.texture(step.texture());
        Params params = problem.params();
        params.in = decoy.data();
        params.texture = texture.get();
        const auto result = course::check_once(course::testing::harness(), problem.run(step.launch, params));
        CHECK_MESSAGE(result.ok, "with Params::in pointing at another picture: ", result.summary(),
                      " (a texture step must read its input through params.texture)");
    }
}

course::KernelLaunch launch_of(const Step& step) {
    Problem problem(course::speckled_image(2048, 2048, 3));
    course::TextureObject texture;
    if (step.texture != nullptr) texture = problem.texture(step.texture());
    Params params = problem.params();
    params.texture = texture.get();
    const course::LaunchRecord record = course::record_launches(problem.run(step.launch, params).launch);
    REQUIRE_MESSAGE(record.kernels.size() == 1, "a step launches one kernel; this one launches ",
                    record.kernels.size());
    return record.kernels.front();
}

void check_speed(std::vector<Step> steps, const std::string& advice) {
    // The race's ladder leaves out the copy and NPP rows: only the steps.
    const auto steps_only = [](const std::vector<Step>& race, const course::TrackRun& run) {
        return std::vector<course::Ladder>{measure_ladder(race, run, /*references=*/false)};
    };
    // Named before `steps` is handed over: the order in which a call's
    // arguments are evaluated is unspecified.
    const std::string lesson = "sobel " + course::step_label(steps.back().number);
    course::testing::check_speed_rule(lesson, steps_only, std::move(steps), "4096", advice,
                                      course::option_defaults(track_options()));
}

}  // namespace sobel::testing
