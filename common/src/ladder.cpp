#include "course/ladder.h"

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

std::string json_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out;
}

std::string json_number(const std::optional<double>& value, int decimals) {
    return value && std::isfinite(*value) ? fixed(*value, decimals) : "null";
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

bool Ladder::all_ok() const {
    for (const auto& rung : rungs)
        if (!rung.check.ok) return false;
    return true;
}

bool Report::all_ok() const {
    for (const auto& ladder : ladders)
        if (!ladder.all_ok()) return false;
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

        // Column widths; the check column is last and left unpadded.
        std::vector<std::size_t> width(header.size(), 0);
        for (std::size_t c = 0; c < header.size(); ++c) {
            width[c] = header[c].size();
            for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
        }
        auto print_row = [&](const std::vector<std::string>& cells) {
            std::string line;
            for (std::size_t c = 0; c < cells.size(); ++c) {
                const bool text_column = c == 2 || c + 1 == cells.size();
                if (c > 0) line += "  ";
                line += c + 1 == cells.size() ? cells[c]
                        : text_column         ? pad_right(cells[c], width[c])
                                              : pad_left(cells[c], width[c]);
            }
            while (!line.empty() && line.back() == ' ') line.pop_back();
            out << line << "\n";
        };
        out << "\n" << ladder.track << ": " << ladder.problem << "\n";
        print_row(header);
        for (const auto& row : rows) print_row(row);
        for (const auto& note : ladder.notes) out << "  " << note << "\n";
    }
    return out.str();
}

std::string format_csv(const Report& report) {
    std::ostringstream out;
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
    return out.str();
}

std::string format_json(const Report& report) {
    std::ostringstream out;
    const DeviceInfo& d = report.device;
    out << "{\n  \"device\": {\"name\": \"" << json_escape(d.name) << "\", \"arch\": \"" << d.arch()
        << "\", \"sm_count\": " << d.sm_count << ", \"sm_clock_mhz\": " << d.sm_clock_khz / 1000
        << ", \"peak_dram_gbps\": " << fixed(d.peak_dram_gbps, 1)
        << ", \"peak_fp32_gflops\": " << fixed(d.peak_fp32_gflops, 1) << ", \"l2_bytes\": " << d.l2_bytes
        << "},\n  \"ladders\": [";
    for (std::size_t l = 0; l < report.ladders.size(); ++l) {
        const Ladder& ladder = report.ladders[l];
        out << (l ? "," : "") << "\n    {\"track\": \"" << json_escape(ladder.track) << "\", \"problem\": \""
            << json_escape(ladder.problem) << "\", \"unit\": \"" << unit_name(ladder.unit)
            << "\", \"peak\": " << fixed(ladder.peak, 1) << ", \"library\": \"" << json_escape(ladder.library_name)
            << "\", \"rungs\": [";
        for (std::size_t i = 0; i < ladder.rungs.size(); ++i) {
            const Rung& rung = ladder.rungs[i];
            out << (i ? "," : "") << "\n      {\"step\": \"" << json_escape(rung.label) << "\", \"title\": \""
                << json_escape(rung.title) << "\", \"student\": " << (rung.student ? "true" : "false")
                << ", \"library\": " << (rung.library ? "true" : "false")
                << ", \"median_ms\": " << fixed(rung.time.median_ms, 6)
                << ", \"min_ms\": " << fixed(rung.time.min_ms, 6) << ", \"max_ms\": " << fixed(rung.time.max_ms, 6)
                << ", \"spread\": " << fixed(rung.time.spread(), 4) << ", \"runs\": " << rung.time.runs
                << ", \"throughput\": " << fixed(throughput(rung), 2)
                << ", \"percent_of_peak\": " << json_number(percent_of_peak(ladder, rung), 4)
                << ", \"speedup_vs_previous\": " << json_number(speedup_vs_previous(ladder, i), 4)
                << ", \"speedup_vs_first\": " << json_number(speedup_vs_first(ladder, i), 4)
                << ", \"fraction_of_library\": " << json_number(fraction_of_library(ladder, i), 4);
            if (!ladder.extra_columns.empty()) {
                out << ", \"extra\": {";
                for (std::size_t c = 0; c < ladder.extra_columns.size(); ++c)
                    out << (c ? ", " : "") << '"' << json_escape(ladder.extra_columns[c]) << "\": \""
                        << json_escape(c < rung.extra_values.size() ? rung.extra_values[c] : "") << '"';
                out << "}";
            }
            out << ", \"check_ok\": " << (rung.check.ok ? "true" : "false") << ", \"check\": \""
                << json_escape(rung.check.summary()) << "\"}";
        }
        out << "\n    ], \"notes\": [";
        for (std::size_t i = 0; i < ladder.notes.size(); ++i)
            out << (i ? ", " : "") << '"' << json_escape(ladder.notes[i]) << '"';
        out << "]}";
    }
    out << "\n  ]\n}\n";
    return out.str();
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
