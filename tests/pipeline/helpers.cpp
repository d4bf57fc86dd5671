#include "pipeline/helpers.h"

#include "doctest_include.h"
#include "gpu_test.h"

#include "course/byte_image.h"
#include "pipeline/sass_rows.h"
#include "sass_listing.h"
#include "speed_rule.h"

#include <cstdio>

namespace pipeline::testing {

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
        // A height of whole strips (48 rows: 2 of 24, 3 of 16, 4 of 12): the
        // last strip ends exactly at the image's last row.
        {129, 48},
        // Odd pitches: padding after each row, none at all, a multiple of 4
        // that is not of 16 or 128; one pitch a multiple of 4 and the other
        // not, each way round (only both allow 4-byte words); whole strips.
        {31, 33, 95, 33},
        {1001, 7, 3003, 1001},
        {1001, 7, 3005, 1003},
        {1001, 7, 3004, 1001},
        {1001, 7, 3003, 1004},
        {255, 67, 768, 260},
        {255, 96, 768, 260},
        {2053, 103, 6163, 2061},
    };
    return shapes;
}

void check_every_shape(const Step& step) {
    for (const Shape& shape : grading_shapes()) {
        CAPTURE(shape.describe());
        Problem problem(course::speckled_image(shape.width, shape.height, 1000 + shape.width, /*channels=*/3),
                        shape.rgb_pitch, shape.pitch);
        const auto result = course::check_once(course::testing::harness(), problem.run(step.launch, problem.params()));
        CHECK_MESSAGE(result.ok, result.summary());
        course::testing::check_launches_own_kernels(problem.run(step.launch, problem.params()).launch, "");
    }
}

course::LaunchRecord launches_of(const Step& step) {
    Problem problem(course::synthetic_image(2048, 2048, 3, 3));
    return course::record_launches(problem.run(step.launch, problem.params()).launch);
}

StructureCheck check_kernel_per_alignment(Launcher graded) {
    constexpr int kWidth = 1024, kHeight = 256;
    const course::Image image = course::synthetic_image(kWidth, kHeight, 3, 3);
    Problem aligned(image), misaligned(image, 3 * kWidth + 1, kWidth + 1);
    const course::LaunchRecord words = course::record_launches(aligned.run(graded, aligned.params()).launch);
    const course::LaunchRecord bytes = course::record_launches(misaligned.run(graded, misaligned.params()).launch);
    if (words.kernels.size() != 1 || bytes.kernels.size() != 1)
        return {false, "the launcher launched " + std::to_string(words.kernels.size()) + " and " +
                           std::to_string(bytes.kernels.size()) + " kernels, not one"};
    const bool separate = words.kernels.front().function != bytes.kernels.front().function;
    return {separate, separate ? std::string("rows on 4-byte boundaries take a kernel of their own, rows one byte "
                                             "past them another")
                               : std::string("the launcher launches the same kernel for rows on 4-byte boundaries "
                                             "and for rows one byte past them: one loop per case makes the "
                                             "alignment a template parameter (fused_v8<true> walks words where a "
                                             "warp's span is inside the image, fused_v8<false> bytes only), picked "
                                             "by the launcher with rows_aligned(p, 4)")};
}

void check_register_kernel(const Step& step, const Step& reference, const std::string& shared, const std::string& local,
                           const std::string& threads) {
    const std::string label = "step " + course::step_label(step.number);
    const course::LaunchRecord record = launches_of(step);
    REQUIRE_MESSAGE(record.kernels.size() == 1, record.kernels.size(), " kernels: ", label, " is one fused kernel");
    const course::KernelLaunch mine = record.kernels[0];
    const course::KernelLaunch theirs = launches_of(reference).kernels.at(0);
    CHECK_MESSAGE(mine.shared_bytes() == 0, mine.shared_bytes(), " bytes of shared memory: ", shared);
    CHECK_MESSAGE(mine.attributes.localSizeBytes == 0, mine.attributes.localSizeBytes,
                  " bytes of local memory per thread: ", local);
    CHECK_MESSAGE(mine.blocks() * mine.threads_per_block() <= theirs.blocks() * theirs.threads_per_block(),
                  (mine.blocks() * mine.threads_per_block()), " threads for 2048x2048 pixels; the reference runs ",
                  theirs.blocks() * theirs.threads_per_block(), threads);
}

namespace {

// The mangled name of the one kernel `step` launches for 2048x2048 pixels and
// cuobjdump's listing of `library` (tests/sass_listing.h); false and why in
// `failure` where either cannot be had.
bool listing_of(const Step& step, const std::string& library, const std::string& cuobjdump, std::string& name,
                std::string& listing, std::string& failure) {
    const course::LaunchRecord record = launches_of(step);
    if (record.kernels.size() != 1) {
        failure = "the launcher launches " + std::to_string(record.kernels.size()) + " kernels, not one";
        return false;
    }
    return course::testing::kernel_name(record.kernels[0].function, name, failure) &&
           course::testing::sass_listing(cuobjdump, library, listing, failure);
}

std::string describe(const WordLoop& loop) {
    char text[160];
    std::snprintf(text, sizeof text, "%.1f instructions a row (%d for %d rows)", loop.per_row(), loop.instructions,
                  loop.rows);
    return text;
}

}  // namespace

StructureCheck check_fewer_instructions(const Step& step, const Step& reference, const std::string& graded_library,
                                        const std::string& reference_library, const std::string& cuobjdump) {
    constexpr double kMost = 1.05;  // the graded loop's instructions a row over the reference's, at most
    std::string name, listing, theirs_name, theirs_listing, failure;
    if (!listing_of(step, graded_library, cuobjdump, name, listing, failure) ||
        !listing_of(reference, reference_library, cuobjdump, theirs_name, theirs_listing, failure))
        return {false, failure};
    const WordLoop mine = cheapest_word_loop(listing, name);
    const WordLoop theirs = cheapest_word_loop(theirs_listing, theirs_name);
    if (!mine.found)
        return {false, "the kernel launched, " + name + ", has no machine code in " + graded_library +
                           ", whose kernels are: " + (mine.functions.empty() ? "none" : mine.functions)};
    if (mine.rows == 0)
        return {false, "the kernel launched for rows that allow 4-byte words, " + name +
                           ", has no loop that loads whole words (three 4-byte loads a row)"};
    if (theirs.rows == 0) return {false, "the reference's kernel, " + theirs_name + ", shows no word loop"};
    const bool ok = mine.per_row() <= kMost * theirs.per_row();
    char limit[32];
    std::snprintf(limit, sizeof limit, "%.2fx", kMost);
    return {ok, "the walk of a strip inside the image (" + name + "'s cheapest loop of word loads) runs " +
                    describe(mine) + ", the reference's " + describe(theirs) + "; at most " + limit +
                    " the reference's: a pointer per image moved on by its pitch, and a turn of 12 rows so that "
                    "the windows rotate by renaming (python3 tests/sass_loops.py build/lessons/pipeline-09 "
                    "fused_v9 counts them)"};
}

void check_speed(std::vector<Step> steps, const std::string& advice, const std::string& size) {
    // The race's ladder leaves out the copy and NPP rows: only the steps.
    const auto steps_only = [](const std::vector<Step>& race, const course::TrackRun& run) {
        return std::vector<course::Ladder>{measure_ladder(race, run, /*references=*/false)};
    };
    // Named before `steps` is handed over: the order in which a call's
    // arguments are evaluated is unspecified.
    const std::string lesson = "pipeline " + course::step_label(steps.back().number);
    course::testing::check_speed_rule(lesson, steps_only, std::move(steps), size, advice,
                                      course::option_defaults(track_options()));
}

}  // namespace pipeline::testing
