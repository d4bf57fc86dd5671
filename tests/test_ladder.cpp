// Ladder arithmetic (throughput, speedups, % of the library) and its three
// output formats.
#include "doctest_include.h"

#include "course/ladder.h"
#include "course/targets.h"

#include <algorithm>
#include <string>

namespace {

course::Rung rung(const std::string& label, double median_ms, double work, bool ok = true) {
    course::Rung r;
    r.label = label;
    r.title = "kernel " + label;
    r.time.runs = 5;
    r.time.median_ms = r.time.min_ms = r.time.max_ms = r.time.q1_ms = r.time.q3_ms = median_ms;
    r.work = work;
    if (!ok) r.check = course::failed_check("1 of 4 wrong");
    return r;
}

course::Report example() {
    course::Ladder ladder;
    ladder.track = "demo";
    ladder.problem = "1 GB moved";
    ladder.unit = course::Unit::bandwidth;
    ladder.peak = 2000.0;
    ladder.library_name = "copy";
    ladder.rungs = {rung("01", 2.0, 1e9), rung("02", 1.0, 1e9), rung("03", 0.8, 1e9), rung("ref", 0.625, 1e9)};
    ladder.rungs[1].student = true;
    ladder.rungs[3].library = true;
    course::Report report;
    report.device.name = "Test GPU";
    report.device.cc_major = 9;
    report.ladders = {ladder};
    return report;
}

std::size_t count_lines(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("rows of steps and of the library") {
    const course::Rung mine = course::step_rung(3, "tiles", 3, 2e9);
    CHECK(mine.label == "03");
    CHECK(mine.title == "tiles");
    CHECK(mine.student);
    CHECK_FALSE(mine.library);
    CHECK(mine.work == 2e9);
    CHECK(course::step_rung(12, "x", 3, 1).label == "12");
    CHECK_FALSE(course::step_rung(2, "x", 3, 1).student);
    const course::Rung library = course::reference_rung("cuBLAS", 2e9);
    CHECK(library.label == "ref");
    CHECK(library.library);
    CHECK_FALSE(library.student);
}

TEST_CASE("throughput is work over median time") {
    CHECK(course::throughput(rung("01", 2.0, 1e9)) == doctest::Approx(500.0));  // 1 GB in 2 ms = 500 GB/s
    CHECK(course::throughput(rung("01", 0.0, 1e9)) == 0.0);                     // no time, no rate
}

TEST_CASE("speedups are time ratios against the row before and the first row") {
    const auto report = example();
    const auto& ladder = report.ladders[0];
    CHECK_FALSE(course::speedup_vs_previous(ladder, 0).has_value());
    CHECK(*course::speedup_vs_previous(ladder, 1) == doctest::Approx(2.0));
    CHECK(*course::speedup_vs_previous(ladder, 2) == doctest::Approx(1.25));
    CHECK(*course::speedup_vs_first(ladder, 2) == doctest::Approx(2.5));
    CHECK(*course::speedup_vs_first(ladder, 0) == doctest::Approx(1.0));
    CHECK(*course::fraction_of_library(ladder, 2) == doctest::Approx(0.78125));
    CHECK(*course::fraction_of_library(ladder, 3) == doctest::Approx(1.0));
}

TEST_CASE("a failed row gets no speedups, and neither does the row after it") {
    auto report = example();
    auto& ladder = report.ladders[0];
    ladder.rungs[1].check = course::failed_check("wrong");
    CHECK_FALSE(course::speedup_vs_previous(ladder, 1).has_value());
    CHECK_FALSE(course::speedup_vs_previous(ladder, 2).has_value());
    CHECK_FALSE(course::fraction_of_library(ladder, 1).has_value());
    CHECK(course::speedup_vs_first(ladder, 2).has_value());
    CHECK_FALSE(ladder.all_ok());
    CHECK_FALSE(report.all_ok());
}

TEST_CASE("the table marks the student's row and shows every column") {
    const std::string table = course::format_table(example());
    CHECK(table.find("demo: 1 GB moved") != std::string::npos);
    for (const std::string column :
         {"step", "kernel", "median ms", "spread", "GB/s", "% peak", "vs prev", "vs 01", "% of copy", "check"})
        CHECK_MESSAGE(table.find(column) != std::string::npos, column);
    // The student's row: marker, label, 1000 GB/s = 50% of the 2000 GB/s peak, 2x.
    const auto line_start = table.find("you >");
    REQUIRE(line_start != std::string::npos);
    const std::string line = table.substr(line_start, table.find('\n', line_start) - line_start);
    CHECK(line.find("02") != std::string::npos);
    CHECK(line.find("1000.0") != std::string::npos);
    CHECK(line.find("50.0%") != std::string::npos);
    CHECK(line.find("2.00x") != std::string::npos);
    CHECK(line.find("62.5%") != std::string::npos);  // of the copy's 1600 GB/s
    CHECK(count_lines(table) == 1 + 1 + 1 + 1 + 4);  // device, blank, title, header, 4 rows
}

TEST_CASE("a failed check is spelled out and hides the row's numbers") {
    auto report = example();
    report.ladders[0].rungs[2].check = course::failed_check("3 of 4 wrong; first at [1]: got NaN, want 2");
    const std::string table = course::format_table(report);
    const auto at = table.find("kernel 03");
    const std::string line = table.substr(at, table.find('\n', at) - at);
    CHECK(line.find("got NaN, want 2") != std::string::npos);
    CHECK(line.find("1250.0") == std::string::npos);  // its throughput is not shown
}

TEST_CASE("CSV: a header and one line per row") {
    const std::string csv = course::format_csv(example());
    CHECK(count_lines(csv) == 5);
    CHECK(csv.rfind("device,track,problem,step,title,student,library,median_ms", 0) == 0);
    CHECK(csv.find("Test GPU,demo,1 GB moved,02,kernel 02,1,0,1.000000") != std::string::npos);
}

TEST_CASE("JSON: the rows and their derived numbers") {
    const std::string json = course::format_json(example());
    CHECK(std::count(json.begin(), json.end(), '{') == std::count(json.begin(), json.end(), '}'));
    CHECK(std::count(json.begin(), json.end(), '[') == std::count(json.begin(), json.end(), ']'));
    CHECK(json.find("\"name\": \"Test GPU\"") != std::string::npos);
    CHECK(json.find("\"step\": \"02\", \"title\": \"kernel 02\", \"student\": true") != std::string::npos);
    CHECK(json.find("\"speedup_vs_previous\": null") != std::string::npos);  // the first row
    CHECK(json.find("\"speedup_vs_previous\": 2.0000") != std::string::npos);
}

TEST_CASE("times are shown with enough decimals at every scale") {
    CHECK(course::format_milliseconds(148.04) == "148.0");
    CHECK(course::format_milliseconds(2.5) == "2.500");
    CHECK(course::format_milliseconds(0.00401) == "0.0040");
}

TEST_CASE("the output format is chosen by --format") {
    const auto report = example();
    CHECK(course::format_report(report, course::Format::csv) == course::format_csv(report));
    CHECK(course::format_report(report, course::Format::json) == course::format_json(report));
    CHECK(course::format_report(report, course::Format::table) == course::format_table(report));
}

TEST_CASE("notes are printed under the table and kept in JSON") {
    auto report = example();
    report.ladders[0].notes = {"ceiling: 1600 GB/s", "a \"quoted\" note"};
    const std::string table = course::format_table(report);
    CHECK(table.find("\n  ceiling: 1600 GB/s\n") != std::string::npos);
    const std::string json = course::format_json(report);
    CHECK(json.find("\"notes\": [\"ceiling: 1600 GB/s\", \"a \\\"quoted\\\" note\"]") != std::string::npos);
}

TEST_CASE("step labels and fixed-point numbers") {
    CHECK(course::step_label(1) == "01");
    CHECK(course::step_label(12) == "12");
    CHECK(course::format_fixed(3.14159, 2) == "3.14");
    CHECK(course::format_fixed(2.0, 0) == "2");
    CHECK(course::format_percent(0.918) == "91.8%");
    CHECK(course::format_percent(1.0) == "100.0%");
}

TEST_CASE("a row faster than the ladder's ceiling fails, and shows no throughput") {
    course::Report report = example();
    course::Ladder& ladder = report.ladders[0];
    // The copy (row "ref", 1 GB in 0.625 ms: 1600 GB/s) is the ceiling.
    course::ceiling_from_row(ladder, 3, "a device-to-device copy of the same bytes");
    CHECK(ladder.ceiling == doctest::Approx(1600.0));
    CHECK(ladder.ceiling_margin == course::kMeasuredCeilingMargin);
    ladder.rungs.push_back(rung("04", 0.5, 1e9));   // 1.25x the copy: at the margin, allowed
    ladder.rungs.push_back(rung("05", 0.25, 1e9));  // 2.5x the copy: impossible
    course::enforce_ceiling(ladder);
    CHECK(ladder.rungs[2].check.ok);
    CHECK(ladder.rungs[3].check.ok);
    CHECK(ladder.rungs[4].check.ok);
    REQUIRE_FALSE(ladder.rungs[5].check.ok);
    const std::string why = ladder.rungs[5].check.summary();
    CHECK(why.find("faster than this GPU can move it") != std::string::npos);
    CHECK(why.find("2.50x a device-to-device copy of the same bytes") != std::string::npos);
    CHECK(why.find("the kernel did not do the work it was given") != std::string::npos);
    CHECK_FALSE(ladder.all_ok());
    const std::string table = course::format_table(report);
    // The row is marked failed, with the reason, instead of printing 250% of the copy.
    CHECK(table.find("250.0%") == std::string::npos);
    CHECK(table.find("faster than this GPU can move it") != std::string::npos);
}

TEST_CASE("a computed peak bounds a FLOP ladder, with a smaller margin") {
    course::Ladder ladder;
    ladder.unit = course::Unit::flops;
    ladder.rungs = {rung("01", 1.0, 1e9), rung("02", 0.9, 1e9)};  // 1000 and 1111 GFLOP/s
    course::set_ceiling(ladder, 1000.0, "the GPU's FP32 peak", course::kPeakCeilingMargin);
    course::enforce_ceiling(ladder);
    CHECK(ladder.rungs[0].check.ok);
    REQUIRE_FALSE(ladder.rungs[1].check.ok);
    CHECK(ladder.rungs[1].check.summary().find("faster than this GPU can compute it") != std::string::npos);
}

TEST_CASE("a ladder without a ceiling, or whose ceiling row failed, is left as it is") {
    course::Report report = example();
    course::Ladder& ladder = report.ladders[0];
    ladder.rungs[3].check = course::failed_check("the copy went wrong");
    course::ceiling_from_row(ladder, 3, "a copy");
    CHECK(ladder.ceiling == 0);
    course::enforce_ceiling(ladder);
    CHECK(ladder.rungs[2].check.ok);
}

TEST_CASE("a track's copy and library targets: the note names the step, its share of the copy and its speedup") {
    course::Ladder ladder;
    ladder.rungs = {rung("08", 0.2, 1e9), rung("09", 0.1, 1e9), rung("copy", 0.07, 1e9), rung("ref", 1.0, 1e9)};
    ladder.rungs[3].library = true;
    const course::CopyAndLibraryTargets targets{9, 0.70, 5.0, "NPP's calls"};
    course::note_targets(ladder, targets);
    REQUIRE(ladder.notes.size() == 1);
    CHECK(ladder.notes[0] ==
          "step 09 reaches 70.0% of the copy's bandwidth (target: 70%) and runs at 10.00x the speed of NPP's calls "
          "(target: 5x)");
}

TEST_CASE("a track's targets: no note for a ladder that ends before their step, or whose step failed") {
    const course::CopyAndLibraryTargets targets{9, 0.70, 5.0, "NPP"};
    course::Ladder early;
    early.rungs = {rung("08", 0.2, 1e9), rung("copy", 0.07, 1e9)};
    course::note_targets(early, targets);
    CHECK(early.notes.empty());
    course::Ladder failed;
    failed.rungs = {rung("09", 0.1, 1e9, false), rung("copy", 0.07, 1e9)};
    course::note_targets(failed, targets);
    CHECK(failed.notes.empty());
    course::Ladder no_library;
    no_library.rungs = {rung("09", 0.1, 1e9), rung("copy", 0.05, 1e9)};
    course::note_targets(no_library, targets);
    REQUIRE(no_library.notes.size() == 1);
    CHECK(no_library.notes[0] == "step 09 reaches 50.0% of the copy's bandwidth (target: 70%)");
}
