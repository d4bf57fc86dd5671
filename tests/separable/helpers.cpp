#include "separable/helpers.h"

#include "course/image.h"
#include "course/random.h"
#include "course/runner.h"

#include <cmath>

namespace separable::testing {

std::vector<float> lopsided_filter(int taps, std::uint64_t seed) {
    std::vector<float> weights = course::random_floats(static_cast<std::size_t>(taps), -0.5f, 1.0f, seed);
    // One weight clearly larger than the rest, off centre (for taps > 1): a
    // mirrored filter moves it to the other side.
    weights[static_cast<std::size_t>(taps) / 4] += 2.0f;
    double sum = 0;
    for (const float w : weights) sum += w;
    for (float& w : weights) w = static_cast<float>(w / sum);
    return weights;
}

std::vector<float> test_picture(int width, int height, std::uint64_t seed) {
    std::vector<float> pixels = to_floats(course::synthetic_image(width, height, 1, seed));
    const std::vector<float> noise = course::random_floats(pixels.size(), 0.0f, 0.25f, seed ^ 0x9e3779b9u);
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = 0.75f * pixels[i] + noise[i];
    return pixels;
}

void check_every_shape(Launcher launch) {
    struct Size {
        int width, height;
    };
    const std::vector<Size> sizes = {{1, 1},    {1, 37},   {37, 1},   {5, 3},   {31, 33},
                                     {129, 67}, {130, 17}, {256, 64}, {1023, 9}};
    for (const Size size : sizes) {
        for (const int taps : {1, 3, 7, 9, 15, 31, 33, 63}) {
            CAPTURE(size.width);
            CAPTURE(size.height);
            CAPTURE(taps);
            const std::uint64_t seed = 1000u * static_cast<std::uint64_t>(size.width) + size.height + 7u * taps;
            Problem problem(test_picture(size.width, size.height, seed), size.width, size.height,
                            lopsided_filter(taps, seed));
            const course::CheckResult result = course::check_once(harness(), problem.run(launch));
            CHECK_MESSAGE(result.ok, result.summary());
        }
    }
}

course::LaunchRecord launches_for(Launcher launch, int width, int height, int taps) {
    Problem problem(test_picture(width, height, 5), width, height, triangle_filter(taps));
    return course::record_launches(problem.run(launch).launch);
}

void check_speed(int step, Launcher previous, Launcher reference, Launcher graded, const std::string& advice) {
    const auto steps = course::testing::race_of<separable::Step>(step, previous, reference, graded);
    course::testing::check_speed_rule("separable " + course::step_label(step), run_ladder, steps, "4096", advice,
                                      {{"taps", "7"}});
}

}  // namespace separable::testing
