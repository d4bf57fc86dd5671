// The reports' JSON (what a course program prints with --format json, and
// what slides/data/ holds), built, read and escaped by nlohmann/json.
//
// The text keeps the course's own layout, which nlohmann's dump() cannot
// write: one line per ladder, rung, sweep and point (so that a report reads
// and diffs row by row), and each number with the decimals of its field
// (0.230048 ms, 72.71% as 0.7271, 3500.60 GB/s), so that a report written
// again from the same figures is the same bytes. format_json
// (course/ladder.h) builds the document; write_report_json lays it out.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace course {

// A report as a JSON document; members keep the order they were added in.
using ReportJson = nlohmann::ordered_json;

// The document as text, in the reports' layout, ending in a newline:
// - the top-level object has one member per line;
// - the arrays "ladders", "sweeps", "rungs" and "points" have one element
//   per line; every other array and object is written on one line;
// - a floating-point number has the decimals of its member's name
//   ("median_ms": 6, "spread": 4, "throughput": 2, "peak": 1, ...; members
//   of "values": 6; "x": up to 10 significant digits), and a number that is
//   not finite is null;
// - strings are escaped by nlohmann/json, invalid UTF-8 replaced by U+FFFD.
// Throws course::Error for a floating-point member whose decimals the layout
// does not know: a new field gets its decimals here first.
std::string write_report_json(const ReportJson& document);

// Parses a report's text (strict JSON: nlohmann/json, no comments); throws
// course::Error with nlohmann's message (which says where) on bad text, or
// when the document is not an object with "device" and "ladders" or "sweeps".
ReportJson read_report_json(const std::string& text);

}  // namespace course
