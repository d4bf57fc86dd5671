#include "course/report_json.h"

#include "course/check.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace course {

namespace {

// The decimals of each floating-point field of the reports: what the
// measurement resolves (a time to the nanosecond in ms, a ratio to 0.01%),
// fixed, so that a field always reads the same way.
int decimals_of(const std::string& key, const std::string& parent) {
    if (parent == "values") return 6;  // a sweep's series, keyed by series name
    static const std::map<std::string, int> decimals = {
        {"peak", 1},
        {"peak_dram_gbps", 1},
        {"peak_fp32_gflops", 1},
        {"median_ms", 6},
        {"min_ms", 6},
        {"max_ms", 6},
        {"spread", 4},
        {"throughput", 2},
        {"percent_of_peak", 4},
        {"speedup_vs_previous", 4},
        {"speedup_vs_first", 4},
        {"fraction_of_library", 4},
    };
    const auto found = decimals.find(key);
    if (found == decimals.end())
        throw Error("report JSON: no decimals known for the number \"" + (parent.empty() ? "" : parent + ".") + key +
                    "\" (common/src/report_json.cpp lists them)");
    return found->second;
}

bool block_array(const std::string& key) {
    return key == "ladders" || key == "sweeps" || key == "rungs" || key == "points";
}

std::string text(const ReportJson& scalar) {
    return scalar.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string number(double value, const std::string& key, const std::string& parent) {
    if (!std::isfinite(value)) return "null";
    char out[64];
    if (key == "x")
        std::snprintf(out, sizeof out, "%.10g", value);  // a sweep's parameter: 32, 0.5, 4096
    else
        std::snprintf(out, sizeof out, "%.*f", decimals_of(key, parent), value);
    return out;
}

// `key` is the member name `value` is written under ("" in an array),
// `parent` that of the object holding it; `indent` is the indentation of the
// line the value starts on, where a block array's elements go 2 deeper.
void write(std::string& out, const ReportJson& value, const std::string& key, const std::string& parent,
           std::size_t indent) {
    if (value.is_object()) {
        out += '{';
        bool first = true;
        for (const auto& member : value.items()) {
            out += first ? "" : ", ";
            first = false;
            out += text(ReportJson(member.key())) + ": ";
            write(out, member.value(), member.key(), key, indent);
        }
        out += '}';
    } else if (value.is_array()) {
        const bool block = block_array(key);
        out += '[';
        for (std::size_t i = 0; i < value.size(); ++i) {
            out += i == 0 ? "" : block ? "," : ", ";
            if (block) out += '\n' + std::string(indent + 2, ' ');
            write(out, value[i], "", key, indent + 2);
        }
        if (block) out += '\n' + std::string(indent, ' ');
        out += ']';
    } else if (value.is_number_float()) {
        out += number(value.get<double>(), key, parent);
    } else {
        out += text(value);  // strings, integers, booleans, null
    }
}

}  // namespace

std::string write_report_json(const ReportJson& document) {
    if (!document.is_object()) throw Error("report JSON: a report is an object");
    std::string out = "{";
    bool first = true;
    for (const auto& member : document.items()) {
        out += first ? "\n  " : ",\n  ";
        first = false;
        out += text(ReportJson(member.key())) + ": ";
        write(out, member.value(), member.key(), "", 2);
    }
    out += first ? "}\n" : "\n}\n";
    return out;
}

ReportJson read_report_json(const std::string& text) {
    ReportJson document;
    try {
        document = ReportJson::parse(text);
    } catch (const nlohmann::json::exception& error) {
        throw Error(std::string("report JSON: ") + error.what());
    }
    if (!document.is_object() || !document.contains("device") ||
        !(document.contains("ladders") || document.contains("sweeps")))
        throw Error("report JSON: not a report (an object with \"device\" and \"ladders\" or \"sweeps\")");
    return document;
}

}  // namespace course
