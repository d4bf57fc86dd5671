// The reports' JSON (course/report_json.h): what format_json writes reads back
// through nlohmann/json with the same figures, and every committed report in
// slides/data/ reads and is written again byte for byte.
#include "course/ladder.h"
#include "course/report_json.h"
#include "doctest_include.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

course::Report example() {
    course::Report report;
    report.device.name = "Test GPU";
    report.device.cc_major = 9;
    report.device.sm_count = 132;
    report.device.sm_clock_khz = 1980000;
    report.device.peak_dram_gbps = 4814.3;
    report.device.l2_bytes = 62914560;
    course::Ladder ladder;
    ladder.track = "demo";
    ladder.problem = "1 GB moved";
    ladder.peak = 4000;
    ladder.library_name = "copy";
    ladder.extra_columns = {"% of copy"};
    for (int step = 1; step <= 2; ++step) {
        course::Rung rung = course::step_rung(step, "kernel \"" + std::to_string(step) + "\"", 2, 1e9);
        rung.time.median_ms = rung.time.min_ms = rung.time.max_ms = 1.0 / step;
        rung.time.runs = 20;
        rung.extra_values = {"50.0%"};
        ladder.rungs.push_back(rung);
    }
    ladder.notes = {"a note\twith a tab"};
    report.ladders.push_back(ladder);
    return report;
}

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("format_json reads back through nlohmann/json with the same figures") {
    const course::ReportJson report = course::read_report_json(course::format_json(example()));
    CHECK(report["device"]["name"] == "Test GPU");
    CHECK(report["device"]["sm_clock_mhz"] == 1980);
    CHECK(report["device"]["l2_bytes"] == 62914560);
    const auto& ladder = report["ladders"].at(0);
    CHECK(ladder["peak"] == 4000.0);
    REQUIRE(ladder["rungs"].size() == 2);
    const auto& second = ladder["rungs"][1];
    CHECK(second["title"] == "kernel \"2\"");
    CHECK(second["student"] == true);
    CHECK(second["median_ms"] == 0.5);
    CHECK(second["throughput"] == 2000.0);
    CHECK(second["speedup_vs_previous"] == 2.0);
    CHECK(ladder["rungs"][0]["speedup_vs_previous"].is_null());
    CHECK(second["extra"]["% of copy"] == "50.0%");
    CHECK(ladder["notes"][0] == "a note\twith a tab");
    // The keys keep their order: the schema reads the same in every report.
    std::vector<std::string> keys;
    for (const auto& member : second.items()) keys.push_back(member.key());
    CHECK(keys == std::vector<std::string>{"step", "title", "student", "library", "median_ms", "min_ms", "max_ms",
                                           "spread", "runs", "throughput", "percent_of_peak", "speedup_vs_previous",
                                           "speedup_vs_first", "fraction_of_library", "extra", "check_ok", "check"});
}

TEST_CASE("the layout: a line per rung, the decimals of each field") {
    const std::string json = course::format_json(example());
    CHECK(json.rfind("{\n  \"device\": {\"name\": \"Test GPU\", \"arch\": \"sm_90\", \"sm_count\": 132, "
                     "\"sm_clock_mhz\": 1980, \"peak_dram_gbps\": 4814.3, \"peak_fp32_gflops\": 0.0, "
                     "\"l2_bytes\": 62914560},\n  \"ladders\": [\n    {\"track\": \"demo\"",
                     0) == 0);
    CHECK(json.find("\"rungs\": [\n      {\"step\": \"01\", \"title\": \"kernel \\\"1\\\"\"") != std::string::npos);
    CHECK(json.find("\"median_ms\": 0.500000, \"min_ms\": 0.500000") != std::string::npos);
    CHECK(json.find("\"spread\": 0.0000, \"runs\": 20, \"throughput\": 2000.00") != std::string::npos);
    CHECK(json.find("\n    ], \"notes\": [\"a note\\twith a tab\"]}\n  ]\n}\n") != std::string::npos);
}

TEST_CASE("strings are escaped, bad UTF-8 replaced, numbers that are not finite written as null") {
    course::ReportJson document = {{"device", {{"name", std::string("a\x01\\\"\n\xff")}}},
                                   {"ladders", course::ReportJson::array()}};
    document["ladders"].push_back(
        {{"peak", std::numeric_limits<double>::quiet_NaN()}, {"throughput", std::numeric_limits<double>::infinity()}});
    const std::string json = course::write_report_json(document);
    CHECK(json == "{\n  \"device\": {\"name\": \"a\\u0001\\\\\\\"\\n\xef\xbf\xbd\"},\n  \"ladders\": [\n    "
                  "{\"peak\": null, \"throughput\": null}\n  ]\n}\n");
    CHECK(course::read_report_json(json)["device"]["name"] == "a\x01\\\"\n\xef\xbf\xbd");
}

TEST_CASE("a number of a field the layout does not know is an error, not a guess") {
    const course::ReportJson document = {{"device", {{"temperature", 61.5}}}, {"ladders", course::ReportJson::array()}};
    CHECK_THROWS_WITH_AS(course::write_report_json(document),
                         doctest::Contains("no decimals known for the number \"device.temperature\""), course::Error);
}

TEST_CASE("text that is not a report is refused with what is wrong") {
    CHECK_THROWS_WITH_AS(course::read_report_json("{\"device\": {}, \"ladders\": [],}"), doctest::Contains("parse"),
                         course::Error);
    CHECK_THROWS_WITH_AS(course::read_report_json("[1, 2]"), doctest::Contains("not a report"), course::Error);
    CHECK_THROWS_WITH_AS(course::read_report_json("{\"device\": {}}"), doctest::Contains("not a report"),
                         course::Error);
}

TEST_CASE("every committed report in slides/data reads, and is written again byte for byte") {
    int reports = 0;
    for (const auto& gpu : std::filesystem::directory_iterator(COURSE_REPORTS_DIR)) {
        if (!gpu.is_directory()) continue;
        for (const auto& file : std::filesystem::directory_iterator(gpu.path())) {
            if (file.path().extension() != ".json") continue;
            CAPTURE(file.path().string());
            const std::string text = read_file(file.path());
            course::ReportJson report;
            REQUIRE_NOTHROW(report = course::read_report_json(text));
            CHECK(course::write_report_json(report) == text);
            ++reports;
        }
    }
    CHECK(reports > 0);
}
