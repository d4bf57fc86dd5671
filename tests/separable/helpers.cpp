#include "separable/helpers.h"

#include "course/image.h"
#include "course/random.h"
#include "course/runner.h"

#include <cmath>
#include <map>
#include <string>

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

// The track's options at their defaults, as the command line gives them,
// and 7 taps.
std::map<std::string, std::string> race_options() {
    std::map<std::string, std::string> options = course::option_defaults(track_options());
    options["taps"] = "7";
    return options;
}

void check_speed(int step, Launcher previous, Launcher reference, Launcher graded, const std::string& advice) {
    const auto steps = course::testing::race_of<separable::Step>(step, previous, reference, graded);
    course::testing::check_speed_rule("separable " + course::step_label(step), run_ladder, steps, "4096", advice,
                                      race_options());
}

void check_every_shape(TransferLauncher launch) {
    struct Size {
        int width, height;
    };
    struct Split {
        int chunks, streams;
    };
    const std::vector<Size> sizes = {{1, 1}, {37, 1}, {5, 3}, {31, 33}, {129, 67}, {130, 17}, {1023, 9}};
    const std::vector<Split> splits = {{1, 1}, {8, 3}, {7, 2}, {64, 4}};
    for (const Size size : sizes) {
        for (const int taps : {1, 3, 7, 31, 33, 63}) {
            for (const Split split : splits) {
                CAPTURE(size.width);
                CAPTURE(size.height);
                CAPTURE(taps);
                CAPTURE(split.chunks);
                CAPTURE(split.streams);
                const std::uint64_t seed = 1000u * static_cast<std::uint64_t>(size.width) + size.height + 7u * taps;
                Problem problem(test_picture(size.width, size.height, seed), size.width, size.height,
                                lopsided_filter(taps, seed));
                const course::CheckResult result =
                    check_transfers(problem, launch, split.chunks, split.streams, harness());
                CHECK_MESSAGE(result.ok, result.summary());
            }
        }
    }
}

std::vector<ChunkTimes> transfer_times(TransferLauncher launch, int side, int chunks, int streams) {
    Problem problem(test_picture(side, side, 9), side, side, triangle_filter(7));
    std::vector<ChunkTimes> times;
    const course::CheckResult result = check_transfers(problem, launch, chunks, streams, harness(), &times);
    REQUIRE_MESSAGE(result.ok, result.summary());
    return times;
}

void check_transfer_speed(TransferLauncher reference, TransferLauncher graded, Launcher filter,
                          const std::string& advice) {
    const std::vector<TransferStep> steps = {{8, "", reference}, {8, "", graded}};
    std::vector<TransferStep> race = steps;
    const std::string reference_title = course::testing::solution_title(8);
    const std::string graded_title = course::testing::graded_title(8);
    race[0].title = reference_title.c_str();
    race[1].title = graded_title.c_str();
    course::testing::check_speed_rule(
        "separable 08",
        [&] {
            course::Options options;
            options.size = "8192";
            options.extra = race_options();
            course::Ladder ladder = transfer_ladder(race, filter, course::TrackRun{options, harness(), 8});
            // Rows: pageable, pinned, the reference solution, the graded job, the link.
            const std::size_t graded_row = 3;
            course::testing::SpeedAttempt attempt;
            attempt.table = course::testing::mark_and_format(ladder, graded_row);
            REQUIRE_MESSAGE(ladder.all_ok(), attempt.table);
            attempt.measures.push_back({"time", course::testing::fraction_of_reference(ladder, graded_row)});
            return attempt;
        },
        advice);
}

}  // namespace separable::testing
