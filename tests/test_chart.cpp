// The chart renderer (course/chart.h) and its JSON reader (course/json.h):
// a ladder and a sweep drawn from sample reports, the SVG checked as XML and
// for what a chart must show; every kind of broken JSON refused.
#include "doctest_include.h"

#include "course/chart.h"
#include "course/json.h"

#include <string>
#include <vector>

namespace {

// A reduction ladder as `course-ladders reduction --format json` prints it
// (figures from the track's README, H200): step 03 is the student's, step 05
// failed its check, CUB is the library rung.
const char* const ladder_json = R"json({
  "device": {"name": "NVIDIA H200", "arch": "sm_90", "sm_count": 132, "sm_clock_mhz": 1980, "peak_dram_gbps": 4814.0, "peak_fp32_gflops": 66908.2, "l2_bytes": 62914560},
  "ladders": [
    {"track": "reduction", "problem": "sum of n = 2^22 ints (16 MiB read per run)", "unit": "GB/s", "peak": 4814.0, "library": "CUB", "rungs": [
      {"step": "01", "title": "interleaved addressing, divergent branch", "student": false, "library": false, "median_ms": 0.033100, "min_ms": 0.032900, "max_ms": 0.034000, "spread": 0.0120, "runs": 50, "throughput": 507.50, "percent_of_peak": 0.1054, "speedup_vs_previous": null, "speedup_vs_first": 1.0000, "fraction_of_library": 0.3390, "check_ok": true, "check": "exact"},
      {"step": "02", "title": "interleaved addressing, strided index", "student": false, "library": false, "median_ms": 0.038700, "min_ms": 0.038500, "max_ms": 0.039100, "spread": 0.0080, "runs": 50, "throughput": 433.30, "percent_of_peak": 0.0900, "speedup_vs_previous": 0.8553, "speedup_vs_first": 0.8553, "fraction_of_library": 0.2900, "check_ok": true, "check": "exact"},
      {"step": "03", "title": "sequential addressing", "student": true, "library": false, "median_ms": 0.029100, "min_ms": 0.028900, "max_ms": 0.029600, "spread": 0.0100, "runs": 50, "throughput": 577.40, "percent_of_peak": 0.1199, "speedup_vs_previous": 1.3299, "speedup_vs_first": 1.1375, "fraction_of_library": 0.3860, "check_ok": true, "check": "exact"},
      {"step": "04", "title": "first add during the global load", "student": false, "library": false, "median_ms": 0.018600, "min_ms": 0.018400, "max_ms": 0.018900, "spread": 0.0090, "runs": 50, "throughput": 900.80, "percent_of_peak": 0.1871, "speedup_vs_previous": 1.5645, "speedup_vs_first": 1.7796, "fraction_of_library": 0.6020, "check_ok": true, "check": "exact"},
      {"step": "05", "title": "last warp unrolled (__syncwarp)", "student": false, "library": false, "median_ms": 0.016600, "min_ms": 0.016400, "max_ms": 0.016900, "spread": 0.0100, "runs": 50, "throughput": 1010.20, "percent_of_peak": null, "speedup_vs_previous": null, "speedup_vs_first": null, "fraction_of_library": null, "check_ok": false, "check": "WRONG: 1 of 1 differ (got 41, expected 42)"},
      {"step": "06", "title": "complete unroll, block size as template", "student": false, "library": false, "median_ms": 0.015800, "min_ms": 0.015600, "max_ms": 0.016100, "spread": 0.0100, "runs": 50, "throughput": 1059.20, "percent_of_peak": 0.2200, "speedup_vs_previous": null, "speedup_vs_first": 2.0949, "fraction_of_library": 0.7080, "check_ok": true, "check": "exact"},
      {"step": "07", "title": "many elements per thread (grid-stride)", "student": false, "library": false, "median_ms": 0.014500, "min_ms": 0.014300, "max_ms": 0.014800, "spread": 0.0100, "runs": 50, "throughput": 1154.80, "percent_of_peak": 0.2399, "speedup_vs_previous": 1.0897, "speedup_vs_first": 2.2828, "fraction_of_library": 0.7720, "check_ok": true, "check": "exact"},
      {"step": "08", "title": "warp shuffles", "student": false, "library": false, "median_ms": 0.013400, "min_ms": 0.013200, "max_ms": 0.013700, "spread": 0.0100, "runs": 50, "throughput": 1252.80, "percent_of_peak": 0.2602, "speedup_vs_previous": 1.0821, "speedup_vs_first": 2.4701, "fraction_of_library": 0.8380, "check_ok": true, "check": "exact"},
      {"step": "09", "title": "16-byte loads, single pass", "student": false, "library": false, "median_ms": 0.010400, "min_ms": 0.010300, "max_ms": 0.010700, "spread": 0.0100, "runs": 50, "throughput": 1613.20, "percent_of_peak": 0.3351, "speedup_vs_previous": 1.2885, "speedup_vs_first": 3.1827, "fraction_of_library": 1.0780, "check_ok": true, "check": "exact"},
      {"step": "ref", "title": "CUB DeviceReduce::Sum", "student": false, "library": true, "median_ms": 0.011200, "min_ms": 0.011000, "max_ms": 0.011500, "spread": 0.0100, "runs": 50, "throughput": 1495.80, "percent_of_peak": 0.3107, "speedup_vs_previous": 0.9286, "speedup_vs_first": 2.9554, "fraction_of_library": 1.0000, "extra": {"note": "x < y & z"}, "check_ok": true, "check": "exact"}
    ], "notes": ["ceiling: a read-only sweep of the same 16 MiB, 0.0083 ms (2024.3 GB/s)"]
}
  ]
  }
)json";

// A sweep in the schema that sweeps print: occupancy against registers per
// thread. Achieved occupancy was not measured at 64 registers (null), and
// the point at 255 registers failed its check.
const char* const sweep_json = R"json({
  "device": {"name": "NVIDIA H100 80GB HBM3", "arch": "sm_90", "sm_count": 132, "sm_clock_mhz": 1980, "peak_dram_gbps": 3352.3, "peak_fp32_gflops": 66908.2, "l2_bytes": 52428800},
  "sweeps": [
    {"track": "occupancy", "lesson": "03_registers", "title": "registers per thread", "problem": "a memory-bound copy of 2^26 floats, 256 threads per block", "parameter": "registers per thread", "unit": "GB/s", "peak": 3352.3,
     "series": ["predicted occupancy", "achieved occupancy"],
     "points": [
      {"x": 32, "label": "32", "median_ms": 0.1720, "min_ms": 0.1710, "max_ms": 0.1740, "spread": 0.0060, "runs": 20, "throughput": 3121.4, "percent_of_peak": 0.9311, "values": {"predicted occupancy": 1.0, "achieved occupancy": 0.93}, "check_ok": true, "check": "exact"},
      {"x": 64, "label": "64", "median_ms": 0.1760, "min_ms": 0.1750, "max_ms": 0.1780, "spread": 0.0060, "runs": 20, "throughput": 3050.4, "percent_of_peak": 0.9099, "values": {"predicted occupancy": 0.5, "achieved occupancy": null}, "check_ok": true, "check": "exact"},
      {"x": 128, "label": "128", "median_ms": 0.2480, "min_ms": 0.2460, "max_ms": 0.2510, "spread": 0.0080, "runs": 20, "throughput": 2164.9, "percent_of_peak": 0.6458, "values": {"predicted occupancy": 0.25, "achieved occupancy": 0.24}, "check_ok": true, "check": "exact"},
      {"x": 168, "label": "168", "median_ms": 0.3710, "min_ms": 0.3690, "max_ms": 0.3750, "spread": 0.0070, "runs": 20, "throughput": 1447.1, "percent_of_peak": null, "values": {"predicted occupancy": 0.125, "achieved occupancy": 0.12}, "check_ok": true, "check": "exact"},
      {"x": 255, "label": "255", "median_ms": 0.5020, "min_ms": 0.5000, "max_ms": 0.5100, "spread": 0.0090, "runs": 20, "throughput": 1069.5, "percent_of_peak": 0.3190, "values": {"predicted occupancy": 0.125, "achieved occupancy": 0.12}, "check_ok": false, "check": "WRONG: 3 of 67108864 differ"}
     ],
     "notes": ["achieved occupancy: Nsight Compute, sm__warps_active.avg.pct_of_peak_sustained_active"]}
  ]
}
)json";

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

// Well-formed XML, as far as the renderer's output goes: one root element
// <svg>, every tag closed in order, quoted attributes, '<' and '&' only as
// markup or entities. Returns "" or what is wrong.
std::string xml_problem(const std::string& svg) {
    std::vector<std::string> open;
    std::size_t roots = 0;
    std::size_t i = 0;
    if (svg.compare(0, 5, "<?xml") == 0) i = svg.find("?>") + 2;
    while (i < svg.size()) {
        const char c = svg[i];
        if (c == '&') {
            const std::size_t end = svg.find(';', i);
            if (end == std::string::npos) return "a bare &";
            const std::string entity = svg.substr(i, end + 1 - i);
            if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" && entity != "&apos;")
                return "unknown entity " + entity;
            i = end + 1;
            continue;
        }
        if (c != '<') {
            if (open.empty() && c != '\n' && c != ' ') return "text outside the root element";
            ++i;
            continue;
        }
        // A tag: quoted attribute values may hold '>' only escaped, so the
        // first '>' outside quotes ends it.
        std::size_t j = i + 1;
        bool quoted = false;
        while (j < svg.size() && (quoted || svg[j] != '>')) {
            if (svg[j] == '"') quoted = !quoted;
            if (quoted && (svg[j] == '<')) return "'<' in an attribute";
            ++j;
        }
        if (j == svg.size()) return "an unterminated tag";
        const std::string tag = svg.substr(i + 1, j - i - 1);
        i = j + 1;
        if (tag.empty()) return "an empty tag";
        if (tag[0] == '/') {
            if (open.empty() || open.back() != tag.substr(1)) return "</" + tag.substr(1) + "> closes nothing open";
            open.pop_back();
            continue;
        }
        const std::string name = tag.substr(0, tag.find_first_of(" \n/"));
        if (open.empty()) {
            ++roots;
            if (name != "svg") return "the root element is <" + name + ">";
        }
        if (tag.back() != '/') open.push_back(name);
    }
    if (!open.empty()) return "<" + open.back() + "> is never closed";
    if (roots != 1) return std::to_string(roots) + " root elements";
    return "";
}

std::string parse_error(const std::string& text) {
    try {
        course::parse_json(text);
    } catch (const course::JsonError& error) {
        return error.what();
    }
    return "";
}

std::string report_error(const std::string& text) {
    try {
        course::read_chart_report(text);
    } catch (const course::ChartError& error) {
        return error.what();
    }
    return "";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("JSON: values, escapes and UTF-8") {
    const course::Json json = course::parse_json(
        R"( {"a": [1, -2.5e3, 0.125, true, false, null], "s": "tab\there \"q\" \u00e9 \ud83d\ude00 \/"} )");
    REQUIRE(json.type == course::Json::Type::object);
    const course::Json* a = json.find("a");
    REQUIRE(a != nullptr);
    REQUIRE(a->array.size() == 6);
    CHECK(a->array[0].number == 1);
    CHECK(a->array[1].number == -2500);
    CHECK(a->array[2].number == 0.125);
    CHECK(a->array[3].boolean);
    CHECK(a->array[4].type == course::Json::Type::boolean);
    CHECK(a->array[5].type == course::Json::Type::null);
    CHECK(json.find("s")->string == "tab\there \"q\" \xC3\xA9 \xF0\x9F\x98\x80 /");
    CHECK(json.find("missing") == nullptr);
    CHECK(course::parse_json("\"caf\xC3\xA9\"").string == "caf\xC3\xA9");  // UTF-8 as it is
}

TEST_CASE("JSON: broken input is refused with its line and column") {
    // Truncated.
    CHECK(parse_error("") == "line 1, column 1: unexpected end of input in a value");
    CHECK(parse_error("{\"a\": [1, 2") == "line 1, column 12: unexpected end of input in an array");
    CHECK(parse_error("{\"a\": \"text") == "line 1, column 12: unexpected end of input in a string");
    CHECK(parse_error("{\n  \"a\": 1,\n") == "line 3, column 1: unexpected end of input in an object");
    CHECK(parse_error("[tru") == "line 1, column 2: expected a value, found 't'");
    CHECK(parse_error("[1.") == "line 1, column 4: unexpected end of input in a number");
    CHECK(parse_error("[1.]") == "line 1, column 4: expected a digit after the decimal point");
    CHECK(parse_error("[1e]") == "line 1, column 4: expected a digit in the exponent");
    CHECK(parse_error("[-]") == "line 1, column 3: expected a digit");
    // Bad escapes and strings.
    CHECK(parse_error(R"(["\x"])") == "line 1, column 3: invalid escape \\x in a string");
    CHECK(parse_error(R"(["\u12G4"])") == "line 1, column 7: expected 4 hex digits after \\u");
    CHECK(parse_error(R"(["\udc00"])") == "line 1, column 9: a \\u escape with a lone low surrogate");
    CHECK(parse_error(R"(["\ud83d x"])").find("must be followed by a low one") != std::string::npos);
    CHECK(parse_error("[\"a\tb\"]").find("control character") != std::string::npos);
    CHECK(parse_error("[\"\xC3\x28\"]").find("invalid UTF-8") != std::string::npos);
    CHECK(parse_error("[\"\xC0\xAF\"]").find("invalid UTF-8") != std::string::npos);  // overlong '/'
    // Trailing garbage, and what JavaScript allows but JSON does not.
    CHECK(parse_error("{} x") == "line 1, column 4: unexpected text after the JSON value");
    CHECK(parse_error("{}{}") == "line 1, column 3: unexpected text after the JSON value");
    CHECK(parse_error("[1, 2,]") == "line 1, column 7: expected a value, found ']'");
    CHECK(parse_error("{\"a\": 1,}") == "line 1, column 9: expected a string as the object's key");
    CHECK(parse_error("[01]") == "line 1, column 3: a number may not start with 0");
    CHECK(parse_error("[NaN]") == "line 1, column 2: expected a value, found 'N'");
    CHECK(parse_error("[+1]") == "line 1, column 2: expected a value, found '+'");
    CHECK(parse_error("[1e999]") == "line 1, column 2: number out of range");
    CHECK(parse_error("// note\n{}") == "line 1, column 1: expected a value, found '/'");
    CHECK(parse_error("{\"a\": 1, \"a\": 2}") == "line 1, column 10: duplicate key \"a\"");
    CHECK(parse_error("{\"a\" 1}") == "line 1, column 6: expected ':' after the key \"a\"");
    CHECK(parse_error(std::string(100, '[') + std::string(100, ']')).find("nested more than 64 deep") !=
          std::string::npos);
}

TEST_CASE("a ladder chart") {
    const course::ChartReport report = course::read_chart_report(ladder_json);
    REQUIRE(report.ladders.size() == 1);
    CHECK(report.device_name == "NVIDIA H200");
    const course::ChartLadder& ladder = report.ladders[0];
    REQUIRE(ladder.rows.size() == 10);
    CHECK_FALSE(ladder.rows[4].check_ok);
    CHECK_FALSE(ladder.rows[4].percent_of_peak.has_value());

    const std::string svg = course::render_chart_svg(report);
    CHECK(xml_problem(svg) == "");
    CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
    CHECK(svg.find("viewBox=\"0 0 1600 ") != std::string::npos);
    CHECK(svg.find("<script") == std::string::npos);
    CHECK(svg.find("@font-face") == std::string::npos);
    CHECK(svg.find("url(") == std::string::npos);

    // Ten rows: eight bars (step 05 failed, CUB is a line), the student's marked.
    CHECK(count(svg, "<rect class=\"bar") == 8);
    CHECK(count(svg, "<rect class=\"bar you\"") == 1);
    CHECK(count(svg, ">you</text>") == 1);
    CHECK(count(svg, "<text class=\"wrong\"") == 1);
    for (const char* step : {">01<", ">02<", ">03<", ">04<", ">05<", ">06<", ">07<", ">08<", ">09<"})
        CHECK(count(svg, step) == 1);
    CHECK(svg.find(">0.0104 ms<") != std::string::npos);   // step 09's time
    CHECK(svg.find(">1613<") != std::string::npos);        // and throughput
    CHECK(svg.find(">33.5%<") != std::string::npos);       // and % of peak
    CHECK(svg.find(">0.0166 ms<") != std::string::npos);   // the failed row keeps its time
    CHECK(svg.find(">1010<") == std::string::npos);        // but not its throughput
    CHECK(svg.find(">sequential<") != std::string::npos);  // titles, wrapped
    // The library rung: a dashed line, named; the device's peak; the caption.
    CHECK(count(svg, "<line class=\"library\"") == 2);  // the line and its legend sample
    CHECK(svg.find(">CUB DeviceReduce::Sum: 1496 GB/s, 0.0112 ms, 31.1% of peak<") != std::string::npos);
    CHECK(svg.find(">CUB</text>") != std::string::npos);
    CHECK(count(svg, "<line class=\"peak\"") == 2);
    CHECK(svg.find(">peak</text>") != std::string::npos);
    CHECK(svg.find(">4814 GB/s</text>") != std::string::npos);
    CHECK(svg.find(">device peak: 4814 GB/s<") != std::string::npos);
    CHECK(svg.find("NVIDIA H200 (sm_90): sum of n = 2^22 ints (16 MiB read per run)") != std::string::npos);
    CHECK(svg.find("ceiling: a read-only sweep") != std::string::npos);

    CHECK(course::render_chart_svg(course::read_chart_report(ladder_json)) == svg);  // deterministic
}

TEST_CASE("a sweep chart") {
    const course::ChartReport report = course::read_chart_report(sweep_json);
    REQUIRE(report.sweeps.size() == 1);
    const course::ChartSweep& sweep = report.sweeps[0];
    REQUIRE(sweep.points.size() == 5);
    CHECK_FALSE(sweep.points[1].values[1].has_value());

    const std::string svg = course::render_chart_svg(report);
    CHECK(xml_problem(svg) == "");
    CHECK(svg.find("occupancy 03_registers: registers per thread") != std::string::npos);
    // Throughput: four points (255 failed), one polyline.
    CHECK(count(svg, "<circle class=\"point\"") == 4);
    CHECK(count(svg, "<polyline class=\"throughput\"") == 1);
    CHECK(count(svg, "<text class=\"wrong\"") == 1);
    // Predicted: five points, one curve. Achieved: four, the null at 64 breaks
    // its curve into 32 alone (not drawn as a line) and 128 to 255.
    CHECK(count(svg, "<rect class=\"series-point\"") == 9);
    CHECK(count(svg, "<polyline class=\"series\"") == 2);
    for (const char* label : {">32<", ">64<", ">128<", ">168<", ">255<"}) CHECK(count(svg, label) == 1);
    CHECK(svg.find("predicted occupancy (right axis)") != std::string::npos);
    CHECK(svg.find("achieved occupancy (right axis)") != std::string::npos);
    CHECK(svg.find(">100.0%<") != std::string::npos);  // the right axis' top
    CHECK(svg.find(">registers per thread<") != std::string::npos);
    CHECK(svg.find(">3121 (93.1%)<") != std::string::npos);
    CHECK(svg.find(">1447<") != std::string::npos);  // percent_of_peak null: the value alone
    CHECK(svg.find(">device peak: 3352 GB/s<") != std::string::npos);
}

TEST_CASE("a sweep's points computed, not timed, draw their series only") {
    // As the occupancy calculator's sweeps print them: null times and throughput.
    std::string json = sweep_json;
    for (const char* time : {"\"median_ms\": 0.1720", "\"median_ms\": 0.2480"})
        json = replaced(json, time, "\"median_ms\": null");
    for (const char* throughput : {"\"throughput\": 3121.4", "\"throughput\": 2164.9"})
        json = replaced(json, throughput, "\"throughput\": null");
    const course::ChartReport report = course::read_chart_report(json);
    CHECK_FALSE(report.sweeps[0].points[0].timed);
    CHECK(report.sweeps[0].points[1].timed);
    const std::string svg = course::render_chart_svg(report);
    CHECK(xml_problem(svg) == "");
    CHECK(count(svg, "<circle class=\"point\"") == 2);  // 64 and 168 (255 failed)
    CHECK(count(svg, "<rect class=\"series-point\"") == 9);
    CHECK(svg.find(">3121 (93.1%)<") == std::string::npos);
}

TEST_CASE("a sweep's series that is not a fraction is named, not drawn") {
    std::string json = replaced(sweep_json, "\"achieved occupancy\": 0.24", "\"achieved occupancy\": 24");
    const std::string svg = course::render_chart_svg(course::read_chart_report(json));
    CHECK(xml_problem(svg) == "");
    CHECK(count(svg, "<rect class=\"series-point\"") == 5);
    CHECK(svg.find("&quot;achieved occupancy&quot; is not drawn: its values are not fractions from 0 to 1") !=
          std::string::npos);
}

TEST_CASE("several ladders and sweeps stack; --track picks; --title heads; text is escaped") {
    // One report with the ladder twice (the second renamed) and the sweep.
    std::string both = ladder_json;
    const std::string ladders = both.substr(both.find("\"ladders\""), both.rfind(']') - both.find("\"ladders\"") + 1);
    std::string second = ladders.substr(ladders.find('{'), ladders.rfind('}') - ladders.find('{') + 1);
    second = replaced(second, "\"track\": \"reduction\"", "\"track\": \"a <b> & \\\"c\\\"\"");
    std::string sweeps = sweep_json;
    sweeps = sweeps.substr(sweeps.find("\"sweeps\""), sweeps.rfind(']') - sweeps.find("\"sweeps\"") + 1);
    both = replaced(both, ladders, ladders.substr(0, ladders.rfind(']')) + ", " + second + "], " + sweeps);

    const course::ChartReport report = course::read_chart_report(both);
    REQUIRE(report.ladders.size() == 2);
    REQUIRE(report.sweeps.size() == 1);
    const std::string svg = course::render_chart_svg(report, {"Reduction & occupancy", ""});
    CHECK(xml_problem(svg) == "");
    CHECK(count(svg, "<g class=\"chart ladder-chart\"") == 2);
    CHECK(count(svg, "<g class=\"chart sweep-chart\"") == 1);
    CHECK(svg.find(">Reduction &amp; occupancy<") != std::string::npos);
    CHECK(svg.find("a &lt;b&gt; &amp; &quot;c&quot; ladder") != std::string::npos);

    const std::string one = course::render_chart_svg(report, {"", "occupancy"});
    CHECK(xml_problem(one) == "");
    CHECK(count(one, "<g class=\"chart") == 1);
    CHECK(count(one, "<g class=\"chart sweep-chart\"") == 1);
    CHECK_THROWS_WITH_AS(course::render_chart_svg(report, {"", "matmul"}), "no ladder or sweep of the track \"matmul\"",
                         course::ChartError);
}

TEST_CASE("a report that cannot be drawn says which field is wrong") {
    CHECK(report_error("[]") == "the report: expected an object, found an array");
    CHECK(report_error(R"({"device": {"name": "x", "arch": "sm_90"}})") ==
          "the report has neither \"ladders\" nor \"sweeps\"");
    CHECK(report_error(R"({"ladders": []})") == "device: missing");
    CHECK(report_error(replaced(ladder_json, "\"median_ms\": 0.038700, ", "")) ==
          "ladders[0].rungs[1].median_ms: missing");
    CHECK(report_error(replaced(ladder_json, "\"throughput\": 577.40", "\"throughput\": \"577.40\"")) ==
          "ladders[0].rungs[2].throughput: expected a number, found a string");
    CHECK(report_error(replaced(ladder_json, "\"throughput\": 577.40", "\"throughput\": -1")) ==
          "ladders[0].rungs[2].throughput: expected a number >= 0");
    CHECK(report_error(replaced(ladder_json, "\"student\": true", "\"student\": 1")) ==
          "ladders[0].rungs[2].student: expected true or false, found a number");
    CHECK(report_error(replaced(sweep_json, "\"achieved occupancy\": null", "\"achieved occupancy\": \"-\"")) ==
          "sweeps[0].points[1].values.achieved occupancy: expected a number or null, found a string");
    CHECK(report_error(replaced(sweep_json, "\"x\": 64", "\"x\": \"64\"")) ==
          "sweeps[0].points[1].x: expected a number, found a string");
    CHECK_THROWS_WITH_AS(
        course::render_chart_svg(course::read_chart_report(R"({"device": {"name": "x", "arch": "y"}, "ladders": []})")),
        "the report holds no ladder and no sweep", course::ChartError);
    CHECK_THROWS_AS(course::read_chart_report("{\"device\": "), course::JsonError);
}
