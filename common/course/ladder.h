// The ladder: one row per step of a track, the library's rung last.
//
//   columns: step | kernel | median ms | spread | GB/s or GFLOP/s | % peak |
//            vs prev | vs 01 | % of <library> | <track's own columns> | check
//
// Throughput is the row's work (bytes moved or FLOP) over its median time;
// "% peak" divides by the device's theoretical peak; "vs prev" and "vs 01" are
// time ratios (above 1 = faster); "% of <library>" compares throughput with
// the library rung. The student's row is marked "you >". A row whose check
// failed shows its time but no throughput or speedups: a wrong answer has no
// speed worth comparing.
#pragma once

#include "course/compare.h"
#include "course/device.h"
#include "course/options.h"
#include "course/timing.h"

#include <optional>
#include <string>
#include <vector>

namespace course {

enum class Unit { bandwidth, flops };  // GB/s or GFLOP/s

struct Rung {
    std::string label;  // "01", "02", ... or "ref"
    std::string title;
    bool student = false;  // the student's own kernel
    bool library = false;  // the library reference (cuBLAS, CUB, NPP, cudaMemcpy)
    TimingStats time;
    double work = 0;  // bytes moved or FLOP done by one run
    CheckResult check;
    std::vector<std::string> extra_values;  // one per Ladder::extra_columns
    // Which measure() call of the program measured this row (0, 1, ...; -1:
    // none): --profile matches the rows of its run under ncu by it.
    int run_index = -1;
};

struct Ladder {
    std::string track;    // "basics"
    std::string problem;  // "c = a + b, n = 2^26 floats, 768 MiB moved per run"
    Unit unit = Unit::bandwidth;
    double peak = 0;                         // GB/s or GFLOP/s; 0 hides the "% peak" column
    std::string library_name;                // "copy", "CUB", "cuBLAS": heads the "% of ..." column
    std::vector<std::string> extra_columns;  // a track's own columns, e.g. "memory-only ms"
    std::vector<Rung> rungs;
    // Lines printed under the table (and kept in the JSON): what a reader needs
    // to read it right, e.g. "no NPP rung: this build has no NPP".
    std::vector<std::string> notes;
    // The hardware's limit for this work, in the ladder's unit: the throughput
    // of a copy (or read sweep) of the bytes every step must move, measured in
    // the same program, or the unit's peak for the FLOP every step must do.
    // enforce_ceiling() fails a row faster than it. 0: none set.
    double ceiling = 0;
    std::string ceiling_what;   // "a device-to-device copy of the same bytes"
    double ceiling_margin = 0;  // kMeasuredCeilingMargin or kPeakCeilingMargin

    bool all_ok() const;
};

// --- No row faster than the hardware -------------------------------------------
// A row may beat a measured ceiling by at most 25%: the ceiling is timed in
// the same program, on the same bytes, with the same L2 flush. In the
// committed reports (slides/data) no kernel passes it (the closest: 0.996x of
// the link for separable 08, 0.991x of the copy for basics 02 on the H200),
// but a kernel's loads and stores may be scheduled better than the copy
// engine's, up to the GPU's theoretical DRAM bandwidth, which is 1.10x (H100)
// and 1.13x (H200) the copy in basics.json; the rest is timing noise at small
// sizes. A result replayed instead of computed runs at several times the
// ceiling.
inline constexpr double kMeasuredCeilingMargin = 1.25;
// A computed peak (FP32 FLOP/s at the highest clock the device reports) can
// not be beaten at all; 5% covers the clock the device reports.
inline constexpr double kPeakCeilingMargin = 1.05;

// The failed check of a row or point whose `throughput` (in `unit`) exceeds
// `bound` ("a read-only sweep of the same bytes", "its theoretical peak")
// beyond its margin: "faster than this GPU can move it: ...: the kernel did not
// do the work it was given".
CheckResult faster_than_the_hardware(double throughput, Unit unit, double bound, const std::string& bound_what);

// Sets the ladder's ceiling to the throughput of row `row` (a copy of the same
// bytes measured in the ladder; left unset when that row failed its check).
void ceiling_from_row(Ladder& ladder, std::size_t row, const std::string& what);
// Sets the ladder's ceiling to a measured throughput or a computed peak.
void set_ceiling(Ladder& ladder, double throughput, const std::string& what, double margin);
// Fails every checked row whose throughput exceeds ladder.ceiling x
// ladder.ceiling_margin: "faster than this GPU can move its bytes (...): the
// kernel did not do the work it was given". Every track calls it once its
// ladder and ceiling are measured; a ladder without a ceiling is left as it is.
void enforce_ceiling(Ladder& ladder);

// --- Sweeps ------------------------------------------------------------------
// One kernel measured over a parameter (block size, registers per thread,
// shared memory per block, ...), each point checked and timed exactly as a
// rung is (course/sweep.h: measure_point). Its table:
//
//   columns: <parameter> | median ms | spread | GB/s or GFLOP/s | % peak |
//            <the sweep's series> | check
//
// A series is a number per point that the track adds: "predicted occupancy",
// "achieved occupancy" (filled in by --profile), "slowdown vs N = 1". A value
// that was not measured is empty (null in the JSON, "-" in the table).

// How a series' values read in the table (the JSON has the plain numbers).
enum class SeriesKind {
    fraction,  // 0.93 -> "93.0%"
    count,     // 12 -> "12"
    ratio,     // 2.5 -> "2.50x"
};

struct Series {
    std::string name;
    SeriesKind kind = SeriesKind::fraction;
};

struct SweepPoint {
    double x = 0;       // the parameter's value, for plotting
    std::string label;  // how the table shows it: "32", "16 KiB"
    bool timed = true;  // false: a point only computed, never run (the occupancy calculator's)
    TimingStats time;
    double work = 0;  // bytes moved or FLOP done by one run
    CheckResult check;
    std::vector<std::optional<double>> values;  // one per Sweep::series
    int run_index = -1;                         // as Rung::run_index: --profile matches points by it
};

struct Sweep {
    std::string track;      // "occupancy"
    std::string lesson;     // "03_registers"
    std::string title;      // "registers per thread"
    std::string problem;    // what one run does, with its size
    std::string parameter;  // heads the first column: "registers per thread"
    bool student = false;   // the kernel swept is the student's own
    Unit unit = Unit::bandwidth;
    double peak = 0;  // GB/s or GFLOP/s; 0 hides the "% peak" column
    std::vector<Series> series;
    std::vector<SweepPoint> points;
    std::vector<std::string> notes;

    bool all_ok() const;
    // The index of the series called `name`, or -1.
    int series_index(const std::string& name) const;
};

struct Report {
    DeviceInfo device;
    std::vector<Ladder> ladders;
    std::vector<Sweep> sweeps = {};  // after the ladders, in every format
    bool all_ok() const;
};

// --- Building rows ----------------------------------------------------------
// The row of step `number` before it is measured: label "01".."99", the title,
// the student's mark (number == student_step) and the work of one run.
Rung step_rung(int number, const std::string& title, int student_step, double work);
// The library's row before it is measured: label "ref".
Rung reference_rung(const std::string& title, double work);

// --- Arithmetic (unit-tested) ----------------------------------------------
// GB/s or GFLOP/s of a row: work / median time.
double throughput(const Rung& rung);
// Time of the row before over this row's time; empty for the first row or
// when either row failed its check.
std::optional<double> speedup_vs_previous(const Ladder& ladder, std::size_t row);
// Time of the first row over this row's time; empty as above.
std::optional<double> speedup_vs_first(const Ladder& ladder, std::size_t row);
// This row's throughput as a fraction of the library rung's; empty without one.
std::optional<double> fraction_of_library(const Ladder& ladder, std::size_t row);

// --- Output ----------------------------------------------------------------
// A step's label in the table: "01", "02", ..., "10".
std::string step_label(int number);
// `value` with `decimals` digits after the point.
std::string format_fixed(double value, int decimals);
// A fraction as a percentage with one decimal: 0.918 -> "91.8%".
std::string format_percent(double fraction);
// A time as the table shows it: enough decimals that a 0.004 ms kernel and a
// 148 ms one both read well ("148.0", "2.500", "0.0040").
std::string format_milliseconds(double ms);
// A sweep's throughput at a point (work / median time) and its fraction of
// the sweep's peak (empty without a peak, a timing or a passed check).
double throughput(const SweepPoint& point);
std::optional<double> percent_of_peak(const Sweep& sweep, const SweepPoint& point);
// A series value as the table shows it ("-" when empty).
std::string format_series_value(const Series& series, const std::optional<double>& value);

// A report prints its ladders, then its sweeps. The CSV of a report with
// both is two tables, the ladders' then the sweeps', a blank line between;
// the JSON has "ladders" when the report has ladders (or nothing at all) and
// "sweeps" when it has sweeps.
std::string format_table(const Report& report);
std::string format_csv(const Report& report);
std::string format_json(const Report& report);
std::string format_report(const Report& report, Format format);

}  // namespace course
