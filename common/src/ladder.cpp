#include "course/ladder.h"

#include "course/report_json.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace course {

namespace {

const char* unit_name(Unit unit) { return unit == Unit::bandwidth ? "GB/s" : "GFLOP/s"; }

std::string fixed(double value, int decimals) { return format_fixed(value, decimals); }

std::string ratio(const std::optional<double>& value) { return value ? fixed(*value, 2) + "x" : "-"; }
std::string percent(const std::optional<double>& value) { return value ? format_percent(*value) : "-"; }

std::string pad_left(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}
std::string pad_right(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::optional<double> percent_of_peak(const Ladder& ladder, const Rung& rung) {
    if (ladder.peak <= 0 || !rung.check.ok) return std::nullopt;
    return throughput(rung) / ladder.peak;
}

const Rung* library_rung(const Ladder& ladder) {
    for (const auto& rung : ladder.rungs)
        if (rung.library) return &rung;
    return nullptr;
}

// Prints a table: columns right-aligned except `text_column` and the last
// (the check), which is left unpadded.
void print_columns(std::ostringstream& out, const std::vector<std::string>& header,
                   const std::vector<std::vector<std::string>>& rows, std::size_t text_column) {
    std::vector<std::size_t> width(header.size(), 0);
    for (std::size_t c = 0; c < header.size(); ++c) {
        width[c] = header[c].size();
        for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
    }
    auto print_row = [&](const std::vector<std::string>& cells) {
        std::string line;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (c > 0) line += "  ";
            line += c + 1 == cells.size() ? cells[c]
                    : c == text_column    ? pad_right(cells[c], width[c])
                                          : pad_left(cells[c], width[c]);
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out << line << "\n";
    };
    print_row(header);
    for (const auto& row : rows) print_row(row);
}

// A number that may be missing: null in the JSON.
ReportJson json_number(const std::optional<double>& value) {
    return value && std::isfinite(*value) ? ReportJson(*value) : ReportJson(nullptr);
}

ReportJson json_device(const DeviceInfo& d) {
    return ReportJson{{"name", d.name},
                      {"arch", d.arch()},
                      {"sm_count", d.sm_count},
                      {"sm_clock_mhz", d.sm_clock_khz / 1000},
                      {"peak_dram_gbps", d.peak_dram_gbps},
                      {"peak_fp32_gflops", d.peak_fp32_gflops},
                      {"l2_bytes", d.l2_bytes}};
}

// One sweep as a table, after a blank line and its title line.
std::string format_sweep_table(const Sweep& sweep) {
    std::ostringstream out;
    std::vector<std::string> header = {sweep.parameter, "median ms", "spread", unit_name(sweep.unit)};
    if (sweep.peak > 0) header.push_back("% peak");
    for (const auto& series : sweep.series) header.push_back(series.name);
    header.push_back("check");
    std::vector<std::vector<std::string>> rows;
    for (const SweepPoint& point : sweep.points) {
        const bool timed = point.timed && point.time.runs > 0;
        std::vector<std::string> row = {point.label, timed ? format_milliseconds(point.time.median_ms) : "-",
                                        timed ? fixed(100 * point.time.spread(), 1) + "%" : "-",
                                        timed && point.check.ok ? fixed(throughput(point), 1) : "-"};
        if (sweep.peak > 0) row.push_back(percent(percent_of_peak(sweep, point)));
        for (std::size_t c = 0; c < sweep.series.size(); ++c)
            row.push_back(
                format_series_value(sweep.series[c], c < point.values.size() ? point.values[c] : std::nullopt));
        row.push_back(point.check.summary());
        rows.push_back(row);
    }
    out << "\n"
        << (sweep.student ? "you > " : "") << sweep.track << " " << sweep.lesson << ", " << sweep.title << ": "
        << sweep.problem << "\n";
    print_columns(out, header, rows, header.size());  // every column right-aligned but the check
    for (const auto& note : sweep.notes) out << "  " << note << "\n";
    return out.str();
}

std::string format_sweeps_csv(const Report& report) {
    std::ostringstream out;
    out << "device,track,lesson,title,problem,parameter,x,label,median_ms,min_ms,max_ms,spread,runs,unit,throughput,"
           "percent_of_peak,series,value,check_ok,check\n";
    auto opt = [](const std::optional<double>& v, int d) {
        return v && std::isfinite(*v) ? fixed(*v, d) : std::string();
    };
    for (const Sweep& sweep : report.sweeps) {
        for (const SweepPoint& point : sweep.points) {
            // One line per series value (and one with empty series columns
            // for a sweep without series): a long table that any plotting
            // tool reads without knowing the sweep's columns.
            const std::size_t lines = std::max<std::size_t>(1, sweep.series.size());
            for (std::size_t c = 0; c < lines; ++c) {
                const bool timed = point.timed && point.time.runs > 0;
                char x[64];
                std::snprintf(x, sizeof x, "%.10g", point.x);
                out << csv_field(report.device.name) << ',' << csv_field(sweep.track) << ',' << csv_field(sweep.lesson)
                    << ',' << csv_field(sweep.title) << ',' << csv_field(sweep.problem) << ','
                    << csv_field(sweep.parameter) << ',' << x << ',' << csv_field(point.label) << ','
                    << (timed ? fixed(point.time.median_ms, 6) : "") << ','
                    << (timed ? fixed(point.time.min_ms, 6) : "") << ',' << (timed ? fixed(point.time.max_ms, 6) : "")
                    << ',' << (timed ? fixed(point.time.spread(), 4) : "") << ',' << point.time.runs << ','
                    << unit_name(sweep.unit) << ',' << (timed ? fixed(throughput(point), 2) : "") << ','
                    << opt(percent_of_peak(sweep, point), 4) << ',';
                if (c < sweep.series.size())
                    out << csv_field(sweep.series[c].name) << ','
                        << opt(c < point.values.size() ? point.values[c] : std::nullopt, 6);
                else
                    out << ',';
                out << ',' << (point.check.ok ? 1 : 0) << ',' << csv_field(point.check.summary()) << "\n";
            }
        }
    }
    return out.str();
}

ReportJson json_sweeps(const Report& report) {
    ReportJson sweeps = ReportJson::array();
    for (const Sweep& sweep : report.sweeps) {
        ReportJson series = ReportJson::array();
        for (const auto& s : sweep.series) series.push_back(s.name);
        ReportJson points = ReportJson::array();
        for (const SweepPoint& point : sweep.points) {
            // An untimed point (the calculator's) has null times: nothing was run.
            const bool timed = point.timed && point.time.runs > 0;
            auto timing = [&](double value) { return timed ? ReportJson(value) : ReportJson(nullptr); };
            ReportJson values = ReportJson::object();
            for (std::size_t c = 0; c < sweep.series.size(); ++c)
                values[sweep.series[c].name] = json_number(c < point.values.size() ? point.values[c] : std::nullopt);
            points.push_back(ReportJson{{"x", point.x},
                                        {"label", point.label},
                                        {"median_ms", timing(point.time.median_ms)},
                                        {"min_ms", timing(point.time.min_ms)},
                                        {"max_ms", timing(point.time.max_ms)},
                                        {"spread", timing(point.time.spread())},
                                        {"runs", point.time.runs},
                                        {"throughput", timing(throughput(point))},
                                        {"percent_of_peak", json_number(percent_of_peak(sweep, point))},
                                        {"values", values},
                                        {"check_ok", point.check.ok},
                                        {"check", point.check.summary()}});
        }
        sweeps.push_back(ReportJson{{"track", sweep.track},
                                    {"lesson", sweep.lesson},
                                    {"title", sweep.title},
                                    {"problem", sweep.problem},
                                    {"parameter", sweep.parameter},
                                    {"unit", unit_name(sweep.unit)},
                                    {"peak", sweep.peak},
                                    {"series", series},
                                    {"points", points},
                                    {"notes", sweep.notes}});
    }
    return sweeps;
}

}  // namespace

std::string step_label(int number) { return (number < 10 ? "0" : "") + std::to_string(number); }

std::string format_fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string format_percent(double fraction) { return format_fixed(100.0 * fraction, 1) + "%"; }

std::string format_milliseconds(double ms) {
    if (ms >= 100) return fixed(ms, 1);
    if (ms >= 1) return fixed(ms, 3);
    return fixed(ms, 4);
}

void set_ceiling(Ladder& ladder, double throughput, const std::string& what, double margin) {
    ladder.ceiling = throughput;
    ladder.ceiling_what = what;
    ladder.ceiling_margin = margin;
}

void ceiling_from_row(Ladder& ladder, std::size_t row, const std::string& what) {
    const Rung& rung = ladder.rungs.at(row);
    if (!rung.check.ok || rung.time.runs == 0 || rung.time.median_ms <= 0) return;
    set_ceiling(ladder, throughput(rung), what, kMeasuredCeilingMargin);
}

CheckResult faster_than_the_hardware(double throughput, Unit unit, double bound, const std::string& bound_what) {
    const bool flops = unit == Unit::flops;
    const std::string per_second = flops ? " GFLOP/s" : " GB/s";
    return failed_check(std::string("faster than this GPU can ") + (flops ? "compute" : "move") +
                        " it: " + format_fixed(throughput, 1) + per_second + ", " +
                        format_fixed(throughput / bound, 2) + "x " + bound_what + " (" + format_fixed(bound, 1) +
                        per_second + "): the kernel did not do the work it was given");
}

void enforce_ceiling(Ladder& ladder) {
    if (ladder.ceiling <= 0 || ladder.ceiling_margin <= 0) return;
    for (Rung& rung : ladder.rungs) {
        if (!rung.check.ok || rung.time.runs == 0 || rung.time.median_ms <= 0 || rung.work <= 0) continue;
        if (throughput(rung) <= ladder.ceiling * ladder.ceiling_margin) continue;
        rung.check = faster_than_the_hardware(throughput(rung), ladder.unit, ladder.ceiling, ladder.ceiling_what);
    }
}

bool Ladder::all_ok() const {
    for (const auto& rung : rungs)
        if (!rung.check.ok) return false;
    return true;
}

bool Sweep::all_ok() const {
    for (const auto& point : points)
        if (!point.check.ok) return false;
    return true;
}

int Sweep::series_index(const std::string& name) const {
    for (std::size_t i = 0; i < series.size(); ++i)
        if (series[i].name == name) return static_cast<int>(i);
    return -1;
}

bool Report::all_ok() const {
    for (const auto& ladder : ladders)
        if (!ladder.all_ok()) return false;
    for (const auto& sweep : sweeps)
        if (!sweep.all_ok()) return false;
    return true;
}

Rung step_rung(int number, const std::string& title, int student_step, double work) {
    Rung rung;
    rung.label = step_label(number);
    rung.title = title;
    rung.student = number == student_step;
    rung.work = work;
    return rung;
}

Rung reference_rung(const std::string& title, double work) {
    Rung rung;
    rung.label = "ref";
    rung.title = title;
    rung.library = true;
    rung.work = work;
    return rung;
}

double throughput(const Rung& rung) {
    if (rung.time.median_ms <= 0) return 0;
    return rung.work / (rung.time.median_ms * 1e-3) / 1e9;
}

std::optional<double> speedup_vs_previous(const Ladder& ladder, std::size_t row) {
    if (row == 0 || row >= ladder.rungs.size()) return std::nullopt;
    const Rung& before = ladder.rungs[row - 1];
    const Rung& here = ladder.rungs[row];
    if (!before.check.ok || !here.check.ok || here.time.median_ms <= 0) return std::nullopt;
    return before.time.median_ms / here.time.median_ms;
}

std::optional<double> speedup_vs_first(const Ladder& ladder, std::size_t row) {
    if (row >= ladder.rungs.size() || ladder.rungs.empty()) return std::nullopt;
    const Rung& first = ladder.rungs.front();
    const Rung& here = ladder.rungs[row];
    if (!first.check.ok || !here.check.ok || here.time.median_ms <= 0) return std::nullopt;
    return first.time.median_ms / here.time.median_ms;
}

double throughput(const SweepPoint& point) {
    if (!point.timed || point.time.median_ms <= 0) return 0;
    return point.work / (point.time.median_ms * 1e-3) / 1e9;
}

std::optional<double> percent_of_peak(const Sweep& sweep, const SweepPoint& point) {
    if (sweep.peak <= 0 || !point.timed || !point.check.ok || point.time.median_ms <= 0) return std::nullopt;
    return throughput(point) / sweep.peak;
}

std::string format_series_value(const Series& series, const std::optional<double>& value) {
    if (!value || !std::isfinite(*value)) return "-";
    switch (series.kind) {
    case SeriesKind::fraction: return format_percent(*value);
    case SeriesKind::ratio: return fixed(*value, 2) + "x";
    case SeriesKind::count: break;
    }
    char text[64];
    std::snprintf(text, sizeof text, "%.6g", *value);
    return text;
}

std::optional<double> fraction_of_library(const Ladder& ladder, std::size_t row) {
    const Rung* library = library_rung(ladder);
    if (library == nullptr || row >= ladder.rungs.size()) return std::nullopt;
    const Rung& here = ladder.rungs[row];
    if (!library->check.ok || !here.check.ok || throughput(*library) <= 0) return std::nullopt;
    return throughput(here) / throughput(*library);
}

std::string format_table(const Report& report) {
    std::ostringstream out;
    out << report.device.summary() << "\n";
    for (const auto& ladder : report.ladders) {
        const std::string first_label = ladder.rungs.empty() ? "01" : ladder.rungs.front().label;
        std::vector<std::string> header = {"", "step", "kernel", "median ms", "spread", unit_name(ladder.unit)};
        if (ladder.peak > 0) header.push_back("% peak");
        header.push_back("vs prev");
        header.push_back("vs " + first_label);
        const bool has_library = library_rung(ladder) != nullptr;
        if (has_library) header.push_back("% of " + ladder.library_name);
        for (const auto& column : ladder.extra_columns) header.push_back(column);
        header.push_back("check");

        std::vector<std::vector<std::string>> rows;
        for (std::size_t i = 0; i < ladder.rungs.size(); ++i) {
            const Rung& rung = ladder.rungs[i];
            std::vector<std::string> row = {rung.student ? "you >" : "",
                                            rung.label,
                                            rung.title,
                                            format_milliseconds(rung.time.median_ms),
                                            fixed(100 * rung.time.spread(), 1) + "%",
                                            rung.check.ok ? fixed(throughput(rung), 1) : "-"};
            if (ladder.peak > 0) row.push_back(percent(percent_of_peak(ladder, rung)));
            row.push_back(ratio(speedup_vs_previous(ladder, i)));
            row.push_back(ratio(speedup_vs_first(ladder, i)));
            if (has_library) row.push_back(percent(fraction_of_library(ladder, i)));
            for (std::size_t c = 0; c < ladder.extra_columns.size(); ++c)
                row.push_back(c < rung.extra_values.size() ? rung.extra_values[c] : "");
            row.push_back(rung.check.summary());
            rows.push_back(row);
        }

        out << "\n" << ladder.track << ": " << ladder.problem << "\n";
        print_columns(out, header, rows, 2);
        for (const auto& note : ladder.notes) out << "  " << note << "\n";
    }
    for (const auto& sweep : report.sweeps) out << format_sweep_table(sweep);
    return out.str();
}

std::string format_csv(const Report& report) {
    std::ostringstream out;
    if (report.ladders.empty() && !report.sweeps.empty()) return format_sweeps_csv(report);
    out << "device,track,problem,step,title,student,library,median_ms,min_ms,max_ms,spread,runs,unit,throughput,"
           "percent_of_peak,speedup_vs_previous,speedup_vs_first,fraction_of_library,check_ok,check\n";
    for (const auto& ladder : report.ladders) {
        for (std::size_t i = 0; i < ladder.rungs.size(); ++i) {
            const Rung& rung = ladder.rungs[i];
            const auto peak = percent_of_peak(ladder, rung);
            const auto prev = speedup_vs_previous(ladder, i);
            const auto first = speedup_vs_first(ladder, i);
            const auto library = fraction_of_library(ladder, i);
            auto opt = [](const std::optional<double>& v, int d) { return v ? fixed(*v, d) : std::string(); };
            out << csv_field(report.device.name) << ',' << csv_field(ladder.track) << ',' << csv_field(ladder.problem)
                << ',' << rung.label << ',' << csv_field(rung.title) << ',' << (rung.student ? 1 : 0) << ','
                << (rung.library ? 1 : 0) << ',' << fixed(rung.time.median_ms, 6) << ',' << fixed(rung.time.min_ms, 6)
                << ',' << fixed(rung.time.max_ms, 6) << ',' << fixed(rung.time.spread(), 4) << ',' << rung.time.runs
                << ',' << unit_name(ladder.unit) << ',' << fixed(throughput(rung), 2) << ',' << opt(peak, 4) << ','
                << opt(prev, 4) << ',' << opt(first, 4) << ',' << opt(library, 4) << ',' << (rung.check.ok ? 1 : 0)
                << ',' << csv_field(rung.check.summary()) << "\n";
        }
    }
    if (!report.sweeps.empty()) out << "\n" << format_sweeps_csv(report);
    return out.str();
}

std::string format_json(const Report& report) {
    ReportJson document = {{"device", json_device(report.device)}};
    if (!report.ladders.empty() || report.sweeps.empty()) {
        ReportJson ladders = ReportJson::array();
        for (const Ladder& ladder : report.ladders) {
            ReportJson rungs = ReportJson::array();
            for (std::size_t i = 0; i < ladder.rungs.size(); ++i) {
                const Rung& rung = ladder.rungs[i];
                ReportJson row = {{"step", rung.label},
                                  {"title", rung.title},
                                  {"student", rung.student},
                                  {"library", rung.library},
                                  {"median_ms", rung.time.median_ms},
                                  {"min_ms", rung.time.min_ms},
                                  {"max_ms", rung.time.max_ms},
                                  {"spread", rung.time.spread()},
                                  {"runs", rung.time.runs},
                                  {"throughput", throughput(rung)},
                                  {"percent_of_peak", json_number(percent_of_peak(ladder, rung))},
                                  {"speedup_vs_previous", json_number(speedup_vs_previous(ladder, i))},
                                  {"speedup_vs_first", json_number(speedup_vs_first(ladder, i))},
                                  {"fraction_of_library", json_number(fraction_of_library(ladder, i))}};
                if (!ladder.extra_columns.empty()) {
                    ReportJson extra = ReportJson::object();
                    for (std::size_t c = 0; c < ladder.extra_columns.size(); ++c)
                        extra[ladder.extra_columns[c]] = c < rung.extra_values.size() ? rung.extra_values[c] : "";
                    row["extra"] = extra;
                }
                row["check_ok"] = rung.check.ok;
                row["check"] = rung.check.summary();
                rungs.push_back(row);
            }
            ladders.push_back(ReportJson{{"track", ladder.track},
                                         {"problem", ladder.problem},
                                         {"unit", unit_name(ladder.unit)},
                                         {"peak", ladder.peak},
                                         {"library", ladder.library_name},
                                         {"rungs", rungs},
                                         {"notes", ladder.notes}});
        }
        document["ladders"] = ladders;
    }
    if (!report.sweeps.empty()) document["sweeps"] = json_sweeps(report);
    return write_report_json(document);
}

std::string format_report(const Report& report, Format format) {
    switch (format) {
    case Format::csv: return format_csv(report);
    case Format::json: return format_json(report);
    case Format::table: break;
    }
    return format_table(report);
}

}  // namespace course
