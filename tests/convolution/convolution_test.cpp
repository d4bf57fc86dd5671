#include "convolution_test.h"

#include "doctest_include.h"
#include "gpu_test.h"

namespace convolution::testing {

std::string Shape::describe() const {
    return std::to_string(width) + "x" + std::to_string(height) + ", pitch " +
           (pitch == 0 ? "default" : std::to_string(pitch)) + ", block " + std::to_string(block.x) + "x" +
           std::to_string(block.y);
}

const std::vector<Shape>& grading_shapes() {
    static const std::vector<Shape> shapes = {
        {1, 1}, {3, 5}, {4, 4}, {5, 5}, {31, 33}, {127, 65}, {1023, 17}, {2053, 1031},
        // Odd pitches: padding after each row (a word stored across the row's
        // end lands there and is caught), none at all, and a pitch that is a
        // multiple of 4 but not of 16 (16-byte words fall back to bytes).
        {127, 65, 133}, {33, 9, 33}, {1023, 17, 1025}, {2053, 103, 2061}, {127, 65, 132},
        // The talk's block shapes, and the extremes of --block.
        {127, 65, 0, dim3(16, 8)}, {127, 65, 0, dim3(16, 20)}, {127, 65, 0, dim3(19, 13)},
        {1023, 17, 1025, dim3(19, 13)}, {31, 33, 0, dim3(1, 1)}, {2053, 1031, 0, dim3(64, 16)},
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

Measured ladder_2048(const std::vector<Step>& steps) {
    course::Options options;
    options.size = "2048";
    for (const auto& spec : track_options()) options.extra[spec.name] = spec.default_value;
    Measured measured = measure_ladder(steps, course::TrackRun{options, course::testing::harness(), steps.back().number},
                                       /*references=*/false);
    MESSAGE(course::format_table({course::testing::harness().device, {measured.ladder}}));
    return measured;
}

double speedup(const Measured& measured, std::size_t row, Variant variant) {
    REQUIRE_MESSAGE(measured.ladder.all_ok(), "a step failed its check; see the table");
    REQUIRE(row > 0);
    if (variant == Variant::full) return course::speedup_vs_previous(measured.ladder, row).value();
    return measured.memory_only.at(row - 1).value().median_ms / measured.memory_only.at(row).value().median_ms;
}

void check_speedup(const Step& previous, const Step& step, double minimum, Variant variant) {
    const double measured = speedup(ladder_2048({previous, step}), 1, variant);
    const std::string what = variant == Variant::full ? "" : "'s memory-only variant";
    CHECK_MESSAGE(measured >= minimum, "step ", course::step_label(step.number), what, " ran at ", measured,
                  "x the speed of step ", course::step_label(previous.number), "'s; at least ", minimum, "x is expected");
}

}  // namespace convolution::testing
