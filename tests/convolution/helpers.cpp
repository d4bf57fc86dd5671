#include "convolution/helpers.h"

#include "doctest_include.h"
#include "gpu_test.h"

#include "course/launches.h"
#include "speed_rule.h"

namespace convolution::testing {

std::string Shape::describe() const {
    return std::to_string(width) + "x" + std::to_string(height) + ", pitch " +
           (pitch == 0 ? "default" : std::to_string(pitch)) + ", block " + std::to_string(block.x) + "x" +
           std::to_string(block.y);
}

const std::vector<Shape>& grading_shapes() {
    static const std::vector<Shape> shapes = {
        {1, 1},
        {3, 5},
        {4, 4},
        {5, 5},
        {31, 33},
        {127, 65},
        {1023, 17},
        {2053, 1031},
        // Odd pitches: padding after each row (a word stored across the row's
        // end lands there and is caught), none at all, and a pitch that is a
        // multiple of 4 but not of 16 (16-byte words fall back to bytes).
        {127, 65, 133},
        {33, 9, 33},
        {1023, 17, 1025},
        {2053, 103, 2061},
        {127, 65, 132},
        // The talk's block shapes, and the extremes of --block.
        {127, 65, 0, dim3(16, 8)},
        {127, 65, 0, dim3(16, 20)},
        {127, 65, 0, dim3(19, 13)},
        {1023, 17, 1025, dim3(19, 13)},
        {31, 33, 0, dim3(1, 1)},
        {2053, 1031, 0, dim3(64, 16)},
    };
    return shapes;
}

void check_every_shape(const Step& step) {
    for (const Shape& shape : grading_shapes()) {
        CAPTURE(shape.describe());
        Problem problem(test_image(shape.width, shape.height, 1000 + shape.width), shape.pitch);
        course::TextureObject texture;
        if (step.texture != nullptr) texture = problem.texture(step.texture());
        Params params = problem.params();
        params.block = shape.block;
        params.texture = texture.get();
        const auto result = course::check_once(course::testing::harness(), problem.run(step.launch, params));
        CHECK_MESSAGE(result.ok, result.summary());
        course::testing::check_launches_own_kernels(problem.run(step.launch, params).launch, "");
    }
}

void check_reads_through_texture(const Step& step) {
    REQUIRE_MESSAGE(static_cast<bool>(step.texture), "not a texture step");
    for (const Shape& shape : {Shape{127, 65}, Shape{1023, 17, 1025}}) {
        CAPTURE(shape.describe());
        Problem problem(test_image(shape.width, shape.height, 77), shape.pitch);
        DeviceImage decoy(shape.width, shape.height, problem.pitch());
        std::vector<std::uint8_t> inverted = problem.input_pixels();
        for (auto& pixel : inverted) pixel = static_cast<std::uint8_t>(255 - pixel);
        decoy.upload(inverted);
        const course::TextureObject texture = problem.texture(step.texture());
        Params params = problem.params();
        params.in = decoy.data();
        params.texture = texture.get();
        const auto result = course::check_once(course::testing::harness(), problem.run(step.launch, params));
        CHECK_MESSAGE(result.ok, "with Params::in pointing at another picture: ", result.summary(),
                      " (a texture step must read its input through params.texture)");
    }
}

void check_launch_like_reference(const Step& graded, const Step& reference, bool shared_layout) {
    const auto launch_of = [](const Step& step) {
        Problem problem(test_image(2048, 2048, 3));
        course::TextureObject texture;
        if (step.texture != nullptr) texture = problem.texture(step.texture());
        Params params = problem.params();
        params.texture = texture.get();
        const course::LaunchRecord record = course::record_launches(problem.run(step.launch, params).launch);
        REQUIRE(record.kernels.size() == 1);
        return record.kernels.front();
    };
    const course::KernelLaunch mine = launch_of(graded);
    const course::KernelLaunch theirs = launch_of(reference);
    CHECK_MESSAGE(mine.blocks() <= theirs.blocks(), mine.blocks(),
                  " blocks for 2048x2048 pixels; the reference solution ", "launches ", theirs.blocks(),
                  " (its threads compute more pixels each)");
    if (shared_layout)
        CHECK_MESSAGE(mine.shared_bytes() >= theirs.shared_bytes(), mine.shared_bytes(),
                      " bytes of shared memory per 16x16 block; the reference solution's tile layout takes ",
                      theirs.shared_bytes(), " (see the README for its apron, padding or staging area)");
}

void check_speed(std::vector<Step> steps, bool memory_only_too, const std::string& advice) {
    REQUIRE_MESSAGE((steps.size() == 2 || steps.size() == 3), "a race is [previous,] reference, graded");
    const std::size_t graded = steps.size() - 1;
    std::vector<std::string> titles;
    for (std::size_t i = 0; i < steps.size(); ++i)
        titles.push_back(i == graded ? course::testing::graded_title(steps[i].number)
                                     : course::testing::solution_title(steps[i].number));
    for (std::size_t i = 0; i < steps.size(); ++i) steps[i].title = titles[i].c_str();
    course::Options options;
    options.size = "2048";
    options.extra = course::option_defaults(track_options());

    const auto race = [&] {
        Measured measured = measure_ladder(
            steps, course::TrackRun{options, course::testing::harness(), steps.back().number}, /*references=*/false);
        course::testing::SpeedAttempt attempt;
        attempt.table = course::testing::mark_and_format(measured.ladder, graded);
        REQUIRE_MESSAGE(measured.ladder.all_ok(), attempt.table);
        attempt.measures.push_back(course::testing::time_against_reference(measured.ladder, graded));
        if (memory_only_too) {
            const auto& reference = measured.memory_only.at(graded - 1);
            const auto& mine = measured.memory_only.at(graded);
            REQUIRE((reference.has_value() && mine.has_value()));
            attempt.measures.push_back({"memory-only time", reference->median_ms / mine->median_ms,
                                        course::testing::reference_spread(*reference)});
        }
        return attempt;
    };
    course::testing::check_speed_rule("convolution " + course::step_label(steps.back().number), race, advice);
}

}  // namespace convolution::testing
