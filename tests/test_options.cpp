// The shared command line, and its error messages.
#include "doctest_include.h"

#include "course/check.h"
#include "course/options.h"
#include "course/track.h"

#include <map>
#include <string>
#include <vector>

using course::parse_count;
using course::parse_options;
using course::UsageError;

namespace {
std::string error_of(const std::vector<std::string>& args, const std::vector<course::OptionSpec>& extras = {}) {
    try {
        parse_options(args, extras);
    } catch (const UsageError& error) {
        return error.what();
    }
    return "";
}
}  // namespace

TEST_CASE("sizes in the course's notation") {
    CHECK(parse_count("4096", "--size") == 4096);
    CHECK(parse_count("2^22", "--size") == 4194304);
    CHECK(parse_count("2^22+3", "--size") == 4194307);
    CHECK(parse_count("2^26-1", "--size") == 67108863);
    CHECK(parse_count("1", "--size") == 1);
    CHECK(course::describe_count(4194307) == "2^22+3");
    CHECK(course::describe_count(67108864) == "2^26");
    CHECK(course::describe_count(1000) == "1000");
}

TEST_CASE("bad sizes are refused with a reason") {
    auto message = [](const std::string& text) {
        try {
            parse_count(text, "--size");
        } catch (const UsageError& error) {
            return std::string(error.what());
        }
        return std::string();
    };
    CHECK(message("0") == "--size: \"0\" is zero; it must be at least 1");
    CHECK(message("-5") == "--size: \"-5\" is negative; it must be at least 1");
    CHECK(message("2^3-9") == "--size: \"2^3-9\" is negative; it must be at least 1");
    CHECK(message("abc") == "--size: \"abc\" is not a number");
    CHECK(message("12abc") == "--size: \"12abc\" is not a number");
    CHECK(message("1.5") == "--size: \"1.5\" is not a number");
    CHECK(message("") == "--size: a number is missing");
    CHECK(message("2^41") == "--size: \"2^41\" is too large (at most 2^40)");
    CHECK(message("99999999999999999999999") == "--size: \"99999999999999999999999\" is too large (at most 2^40)");
}

TEST_CASE("dimensions: one number or one per dimension") {
    CHECK(course::parse_dims("2048", 2, "--size") == std::vector<std::uint64_t>{2048, 2048});
    CHECK(course::parse_dims("1920x1080", 2, "--size") == std::vector<std::uint64_t>{1920, 1080});
    CHECK(course::parse_dims("31x33x17", 3, "--size") == std::vector<std::uint64_t>{31, 33, 17});
    CHECK_THROWS_WITH_AS(course::parse_dims("3x4", 3, "--size"),
                         "--size: \"3x4\" should be one number or 3 numbers like 2048x2048x2048", UsageError);
    CHECK_THROWS_AS(course::parse_dims("0x4", 2, "--size"), UsageError);
}

TEST_CASE("every shared option, both spellings") {
    const auto options = parse_options({"--size", "2^20", "--reps=7", "--device", "1", "--format", "json", "--seed=42",
                                        "--input", "in.png", "--output=out.pgm"});
    CHECK(options.size == "2^20");
    CHECK(options.reps == 7);
    CHECK(options.device == 1);
    CHECK(options.format == course::Format::json);
    CHECK(options.seed == 42);
    CHECK(options.input_image == "in.png");
    CHECK(options.output_image == "out.pgm");
    CHECK_FALSE(options.help);
    CHECK_FALSE(options.profile);
    CHECK(parse_options({"-h"}).help);
    CHECK(parse_options({"--reps", "3", "--profile"}).profile);
    CHECK_FALSE(options.profile_ranges);
    CHECK(parse_options({"--profile-ranges", "--reps", "1"}).profile_ranges);
    CHECK(parse_options({}).format == course::Format::table);
}

TEST_CASE("a track's own options, with defaults") {
    const std::vector<course::OptionSpec> extras = {{"block", "WxH", "thread block shape", "16x16"}};
    CHECK(parse_options({}, extras).option("block") == "16x16");
    CHECK(parse_options({"--block", "19x13"}, extras).option("block") == "19x13");
    CHECK_THROWS_AS(parse_options({}).option("block"), course::Error);
    const std::map<std::string, std::string> defaults =
        course::option_defaults({{"block", "WxH", "", "16x16"}, {"pitch-pad", "N", "", "0"}});
    CHECK(defaults == std::map<std::string, std::string>{{"block", "16x16"}, {"pitch-pad", "0"}});
}

TEST_CASE("mistakes get one line each") {
    CHECK(error_of({"--frobnicate"}) == "unknown option \"--frobnicate\" (try --help)");
    CHECK(error_of({"-x"}) == "unknown option \"-x\" (try --help)");
    CHECK(error_of({"stray"}) == "unexpected argument \"stray\" (try --help)");
    CHECK(error_of({"--size"}) == "--size needs a value (try --help)");
    CHECK(error_of({"--size="}) == "--size: a number is missing");
    CHECK(error_of({"--reps", "0"}) == "--reps: \"0\" must be between 1 and 100000");
    CHECK(error_of({"--reps", "-3"}) == "--reps: \"-3\" must be between 1 and 100000");
    CHECK(error_of({"--reps", "ten"}) == "--reps: \"ten\" is not a number");
    CHECK(error_of({"--device", "-1"}) == "--device: \"-1\" must be between 0 and 1023");
    CHECK(error_of({"--format", "xml"}) == "--format: \"xml\" is not one of table, csv, json");
    CHECK(error_of({"--seed", "-1"}) == "--seed: \"-1\" must not be negative");
    CHECK(error_of({"--profile=yes"}) == "--profile takes no value");
    CHECK(error_of({"--profile-ranges=1"}) == "--profile-ranges takes no value");
    CHECK(error_of({"--profile", "--profile-ranges"}) ==
          "--profile and --profile-ranges: choose one (--profile runs ncu itself; --profile-ranges is for an ncu "
          "command of your own)");
    CHECK(error_of({"--profile-ranges", "--output", "out.png"}) ==
          "--output: --profile-ranges checks nothing, so it writes no image; write it from a run without "
          "--profile-ranges");
    CHECK(error_of({"--block", "8x8"}) == "unknown option \"--block\" (try --help)");  // not declared here
}

TEST_CASE("positional arguments only where a program takes them") {
    const auto options = parse_options({"basics", "--reps", "3", "reduction"}, {}, "track");
    CHECK(options.positional == std::vector<std::string>{"basics", "reduction"});
}

TEST_CASE("usage text lists the shared and the track's options") {
    const std::string text =
        course::usage_text("demo-01", "About.", "number of floats", {{"block", "WxH", "shape", "16x16"}});
    CHECK(text.find("usage: demo-01 [options]") == 0);
    CHECK(text.find("--size S       number of floats") != std::string::npos);
    CHECK(text.find("--block WxH    shape (default 16x16)") != std::string::npos);
    CHECK(text.find("--profile      runs the ladder's kernels once more under Nsight Compute") != std::string::npos);
    CHECK(text.find("--profile-ranges  for your own `ncu --profile-from-start off ...`") != std::string::npos);
}

TEST_CASE("the course program refuses a track option that no chosen track takes") {
    // Two tracks with no GPU work: the refusal comes before the GPU is
    // touched, so this runs on any machine.
    course::Track alpha, beta;
    alpha.name = "alpha";
    alpha.options = {{"taps", "N", "filter taps", "31"}};
    beta.name = "beta";
    alpha.run = beta.run = [](const course::TrackRun&) { return std::vector<course::Ladder>{}; };
    const std::vector<course::Track> tracks = {alpha, beta};
    const auto run = [&](std::vector<std::string> args) {
        args.insert(args.begin(), "course-ladders");
        std::vector<char*> argv;
        for (auto& arg : args) argv.push_back(arg.data());
        return course::course_main(static_cast<int>(argv.size()), argv.data(), tracks);
    };
    CHECK(run({"beta", "--taps", "7"}) == 2);  // a usage error
    CHECK(run({"beta", "--taps=7"}) == 2);
    // Taken by a chosen track (or by every track, none named): not a usage
    // error (0 with a GPU, 77 where there is none).
    CHECK(run({"alpha", "--taps", "7"}) != 2);
    CHECK(run({"alpha", "beta", "--taps", "7"}) != 2);
    CHECK(run({"--taps", "7"}) != 2);
}
