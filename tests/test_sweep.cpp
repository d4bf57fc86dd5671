// Sweeps: their arithmetic and their three output formats (course/ladder.h,
// course/sweep.h), and --profile's achieved occupancy filled in point by
// point (course/profile.h).
#include "doctest_include.h"

#include "course/ladder.h"
#include "course/profile.h"
#include "course/sweep.h"

#include <algorithm>
#include <string>

namespace {

course::SweepPoint point(double x, double median_ms, bool ok = true) {
    course::SweepPoint p = course::sweep_point(x, std::to_string(static_cast<int>(x)), 1e9);
    p.time.runs = 20;
    p.time.median_ms = p.time.min_ms = p.time.max_ms = median_ms;
    p.time.q1_ms = 0.99 * median_ms;
    p.time.q3_ms = 1.01 * median_ms;
    if (!ok) p.check = course::failed_check("1 of 4 wrong");
    return p;
}

course::Sweep example() {
    course::Sweep sweep;
    sweep.track = "occupancy";
    sweep.lesson = "03_registers";
    sweep.title = "registers per thread";
    sweep.problem = "1 GB moved";
    sweep.parameter = "registers per thread";
    sweep.unit = course::Unit::bandwidth;
    sweep.peak = 4000.0;
    sweep.series = {{"predicted occupancy", course::SeriesKind::fraction},
                    {course::kAchievedOccupancy, course::SeriesKind::fraction}};
    sweep.points = {point(32, 0.5), point(64, 1.0), point(128, 2.0, false)};
    sweep.points[0].values = {1.0, std::nullopt};
    sweep.points[1].values = {0.5, std::nullopt};
    sweep.points[2].values = {0.25, std::nullopt};
    sweep.notes = {"a note"};
    return sweep;
}

course::Report report_of(course::Sweep sweep) {
    course::Report report;
    report.device.name = "Test GPU";
    report.device.cc_major = 9;
    report.sweeps = {sweep};
    return report;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a sweep point's throughput and % of peak") {
    const course::Sweep sweep = example();
    CHECK(course::throughput(sweep.points[0]) == doctest::Approx(2000.0));  // 1 GB in 0.5 ms
    CHECK(*course::percent_of_peak(sweep, sweep.points[0]) == doctest::Approx(0.5));
    CHECK_FALSE(course::percent_of_peak(sweep, sweep.points[2]).has_value());  // failed check
    course::Sweep no_peak = sweep;
    no_peak.peak = 0;
    CHECK_FALSE(course::percent_of_peak(no_peak, no_peak.points[0]).has_value());
    CHECK(sweep.series_index(course::kAchievedOccupancy) == 1);
    CHECK(sweep.series_index("nothing") == -1);
    CHECK_FALSE(sweep.all_ok());
    CHECK_FALSE(report_of(sweep).all_ok());
}

TEST_CASE("series values as the table shows them") {
    CHECK(course::format_series_value({"o", course::SeriesKind::fraction}, 0.934) == "93.4%");
    CHECK(course::format_series_value({"r", course::SeriesKind::ratio}, 2.5) == "2.50x");
    CHECK(course::format_series_value({"c", course::SeriesKind::count}, 12) == "12");
    CHECK(course::format_series_value({"c", course::SeriesKind::count}, std::nullopt) == "-");
}

TEST_CASE("a sweep as a table") {
    const std::string table = course::format_table(report_of(example()));
    CHECK(contains(table, "occupancy 03_registers, registers per thread: 1 GB moved"));
    CHECK(contains(table, "registers per thread  median ms  spread    GB/s  % peak  predicted occupancy  "
                          "achieved occupancy  check"));
    CHECK(contains(table, "                  32     0.5000    2.0%  2000.0   50.0%               100.0%  "
                          "                 -  ok"));
    CHECK(contains(table, "                 128      2.000    2.0%       -       -                25.0%  "
                          "                 -  1 of 4 wrong"));
    CHECK(contains(table, "  a note\n"));
    course::Sweep mine = example();
    mine.student = true;
    CHECK(contains(course::format_table(report_of(mine)), "you > occupancy 03_registers"));
}

TEST_CASE("an untimed sweep (the calculator's) has no times") {
    course::Sweep sweep = example();
    for (auto& p : sweep.points) {
        p.timed = false;
        p.time = {};
    }
    const course::Report report = report_of(sweep);
    CHECK(contains(course::format_table(report), "                  32          -       -     -       -"));
    const std::string json = course::format_json(report);
    CHECK(contains(json, "\"median_ms\": null, \"min_ms\": null, \"max_ms\": null, \"spread\": null, \"runs\": 0, "
                         "\"throughput\": null, \"percent_of_peak\": null"));
}

TEST_CASE("a sweep as JSON: the fixed schema") {
    course::Sweep sweep = example();
    sweep.points[0].values[1] = 0.93;
    const std::string json = course::format_json(report_of(sweep));
    CHECK(json.rfind("{\n  \"device\": {\"name\": \"Test GPU\", \"arch\": \"sm_90\"", 0) == 0);
    CHECK_FALSE(contains(json, "\"ladders\""));  // a report of sweeps only
    CHECK(contains(json, "\"sweeps\": [\n    {\"track\": \"occupancy\", \"lesson\": \"03_registers\", \"title\": "
                         "\"registers per thread\", \"problem\": \"1 GB moved\", \"parameter\": \"registers per "
                         "thread\", \"unit\": \"GB/s\", \"peak\": 4000.0, \"series\": [\"predicted occupancy\", "
                         "\"achieved occupancy\"], \"points\": ["));
    CHECK(contains(json, "{\"x\": 32, \"label\": \"32\", \"median_ms\": 0.500000, \"min_ms\": 0.500000, \"max_ms\": "
                         "0.500000, \"spread\": 0.0200, \"runs\": 20, \"throughput\": 2000.00, \"percent_of_peak\": "
                         "0.5000, \"values\": {\"predicted occupancy\": 1.000000, \"achieved occupancy\": "
                         "0.930000}, \"check_ok\": true, \"check\": \"ok\"}"));
    CHECK(contains(json, "\"values\": {\"predicted occupancy\": 0.500000, \"achieved occupancy\": null}"));
    CHECK(contains(json, "\"percent_of_peak\": null, \"values\": {\"predicted occupancy\": 0.250000"));
    CHECK(contains(json, "\"check_ok\": false, \"check\": \"1 of 4 wrong\"}"));
    CHECK(contains(json, "\"notes\": [\"a note\"]}\n  ]\n}\n"));
}

TEST_CASE("a report with ladders and sweeps has both in its JSON and its CSV") {
    course::Report report = report_of(example());
    course::Ladder ladder;
    ladder.track = "demo";
    report.ladders = {ladder};
    const std::string json = course::format_json(report);
    const auto ladders = json.find("\"ladders\": [");
    const auto sweeps = json.find("\"sweeps\": [");
    REQUIRE(ladders != std::string::npos);
    REQUIRE(sweeps != std::string::npos);
    CHECK(ladders < sweeps);
    const std::string csv = course::format_csv(report);
    CHECK(csv.rfind("device,track,problem,step,", 0) == 0);
    CHECK(contains(csv, "\n\ndevice,track,lesson,title,problem,parameter,x,label,"));
}

TEST_CASE("a sweep as CSV: one line per point and series") {
    const std::string csv = course::format_csv(report_of(example()));
    CHECK(csv.rfind("device,track,lesson,title,problem,parameter,x,label,median_ms,min_ms,max_ms,spread,runs,unit,"
                    "throughput,percent_of_peak,series,value,check_ok,check\n",
                    0) == 0);
    CHECK(contains(csv,
                   "Test GPU,occupancy,03_registers,registers per thread,1 GB moved,registers per thread,32,32,"
                   "0.500000,0.500000,0.500000,0.0200,20,GB/s,2000.00,0.5000,predicted occupancy,1.000000,1,ok\n"));
    CHECK(contains(csv, ",achieved occupancy,,1,ok\n"));
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 3 * 2);
}

TEST_CASE("--profile fills each point's achieved occupancy, matched by run_index") {
    course::Sweep sweep = example();
    sweep.series.pop_back();  // no achieved occupancy series yet: --profile adds it
    for (auto& p : sweep.points) p.values.pop_back();
    sweep.points[0].run_index = 0;
    sweep.points[1].run_index = 1;
    sweep.points[2].run_index = 2;
    course::Report report = report_of(sweep);
    course::RungProfiles profiles;
    course::KernelProfile k;
    k.name = "stream_registers";
    k.occupancy = 93.0;
    profiles[0] = {k};
    k.occupancy = 47.5;
    profiles[1] = {k};
    profiles[2] = {};  // launched nothing ncu saw
    course::add_profile(report, profiles);
    const course::Sweep& done = report.sweeps.front();
    REQUIRE(done.series.size() == 2);
    CHECK(done.series[1].name == course::kAchievedOccupancy);
    CHECK(*done.points[0].values[1] == doctest::Approx(0.93));
    CHECK(*done.points[1].values[1] == doctest::Approx(0.475));
    CHECK_FALSE(done.points[2].values[1].has_value());
    CHECK(contains(done.notes.back(), "achieved occupancy: profiled by Nsight Compute"));
}

TEST_CASE("a point faster than the GPU's theoretical peak by more than the margin fails") {
    course::Sweep sweep;
    sweep.unit = course::Unit::bandwidth;
    sweep.peak = 1000.0;  // GB/s
    const auto point_at = [](double median_ms) {
        course::SweepPoint point = course::sweep_point(1, "1", 1e9);  // 1 GB a run
        point.time.runs = 5;
        point.time.median_ms = point.time.min_ms = point.time.max_ms = median_ms;
        return point;
    };
    course::SweepPoint plausible = point_at(0.5);  // 2000 GB/s: 2x the peak, writes left in L2
    course::enforce_peak(sweep, plausible);
    CHECK(plausible.check.ok);
    course::SweepPoint impossible = point_at(0.1);  // 10000 GB/s
    course::enforce_peak(sweep, impossible);
    REQUIRE_FALSE(impossible.check.ok);
    CHECK(impossible.check.summary().find("faster than this GPU can move it") != std::string::npos);
    CHECK(impossible.check.summary().find("10.00x its theoretical peak") != std::string::npos);
    course::Sweep no_peak;
    course::SweepPoint unbounded = point_at(0.1);
    course::enforce_peak(no_peak, unbounded);
    CHECK(unbounded.check.ok);
}
