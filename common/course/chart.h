// Charts of saved reports: what course-chart draws from the JSON that a
// ladder program prints with --format json (course/ladder.h, format_json) or
// that a sweep prints. Pure C++17, no GPU and no CUDA runtime: slides can be
// rebuilt on any machine from the JSON committed under slides/data/.
//
// Every ladder and every sweep in a report becomes one chart; several are
// stacked top to bottom in one SVG (or one is chosen by its track name).
//   ladder: one bar per row, its throughput (GB/s or GFLOP/s) on a linear axis
//           from 0, labelled with the step, a short title, the median ms and
//           the % of peak. The student's row is drawn in another colour and
//           marked "you"; a row whose check failed gets no bar, only "wrong";
//           the device's peak is a red line; the library rung ("library":
//           true) is a dashed line across the bars, with its name, not a bar.
//   sweep:  throughput against the swept parameter (points spaced evenly, in
//           the order of x, labelled with their "label": sweeps go in even
//           steps or powers of two), on the left axis; each series whose
//           values are fractions (0 to 1, such as occupancy) as a dashed
//           curve on a right axis from 0 to 1. A null value is not drawn and
//           breaks its curve; a failed point gets no throughput, only "wrong".
// The caption under each chart is the device and the problem text.
//
// The output is deterministic (the same JSON gives the same bytes: the test
// "committed charts (CPU)", slides/meson.build, relies on it), a standalone
// SVG 1.1 document with no scripts and no external fonts, sized for a
// projector (1600 units wide; the height grows with the charts).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace course {

// A report that cannot be drawn: the message names the field, such as
// `ladders[0].rungs[2].median_ms: expected a number, found a string`.
struct ChartError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ChartRow {      // one row of a ladder
    std::string step;  // "01", "ref", "copy", ...
    std::string title;
    bool student = false;
    bool library = false;
    double median_ms = 0;
    double throughput = 0;
    std::optional<double> percent_of_peak;  // a fraction: 0.727 is 72.7%
    bool check_ok = true;
    std::string check;
};

struct ChartLadder {
    std::string track, problem, unit, library;
    double peak = 0;  // 0: no peak known
    std::vector<ChartRow> rows;
    std::vector<std::string> notes;
};

struct ChartPoint {  // one point of a sweep
    double x = 0;
    std::string label;
    bool timed = true;  // false: a point computed, not timed (median_ms and throughput null in the JSON)
    double median_ms = 0;
    double throughput = 0;
    std::optional<double> percent_of_peak;
    std::vector<std::optional<double>> values;  // one per ChartSweep::series; empty = not measured
    bool check_ok = true;
    std::string check;
};

struct ChartSweep {
    std::string track, lesson, title, problem, parameter, unit;
    double peak = 0;
    std::vector<std::string> series;
    std::vector<ChartPoint> points;
    std::vector<std::string> notes;
};

struct ChartReport {
    std::string device_name, device_arch;
    std::vector<ChartLadder> ladders;
    std::vector<ChartSweep> sweeps;
};

// Reads a report from JSON text: "device" and "ladders" and/or "sweeps".
// Fields the charts do not use are ignored; missing or mistyped fields they
// use are errors (ChartError; JsonError for text that is not JSON).
ChartReport read_chart_report(const std::string& json_text);

struct ChartOptions {
    std::string title;  // a heading over every chart; empty: none
    std::string track;  // draw only this track's ladders and sweeps; empty: all
};

// The SVG document; ChartError when nothing is left to draw.
std::string render_chart_svg(const ChartReport& report, const ChartOptions& options = {});

}  // namespace course
