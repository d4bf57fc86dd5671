// What one ladder of a speed race says (tests/speed_rule.h runs the races).
// Kept apart from the GPU code so that a CPU test checks the decision itself.
#pragma once

#include "course/timing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace course::testing {

// The kernel being graded must run at least this fraction of the reference
// solution's speed (reference time / its time), in at least one of
// kSpeedAttempts ladders. Graded against their own second copy, the
// reference solutions race near 1.0, a few percent either way
// (`tests/check-grading` prints the fraction each race measured): 0.85
// leaves room for that noise, and fails a kernel that skips the step's idea
// wherever the idea pays.
inline constexpr double kMinimumFractionOfReference = 0.85;
inline constexpr int kSpeedAttempts = 3;

// A ladder decides only if the reference solution ran steadily in it: the
// spread of its times (reference_spread below) at most this. Steady
// references spread a few percent, host-to-device transfers up to about a
// third; a reference that ran at two speeds in one ladder has a median that
// is not its speed, and would pass a kernel far slower than it. Such a
// ladder is run again, as a slow one is.
inline constexpr double kMaxReferenceSpread = 0.5;

// The spread of a reference's times in one ladder, the larger of two
// readings: its interquartile range over its median (the ladder's "spread"
// column), which catches a reference slow in about half its runs, and how
// far its median lies above its fastest run (median / min - 1), which
// catches one slow in most of its runs (there the quartiles are close, and
// both slow).
inline double reference_spread(const TimingStats& reference) {
    if (!(reference.min_ms > 0 && reference.median_ms > 0)) return std::numeric_limits<double>::quiet_NaN();
    return std::max(reference.spread(), reference.median_ms / reference.min_ms - 1);
}

// One quantity a speed rule compares (most rules have one: the kernel's time).
struct SpeedMeasure {
    std::string what;  // "time", "memory-only time"
    double fraction;   // the reference's time over the graded kernel's: 1 = as fast
    // reference_spread() of the reference's times in this ladder. Left
    // unset it is NaN, and the ladder decides nothing: a race that forgets
    // it fails, never passes unchecked.
    double reference_spread = std::numeric_limits<double>::quiet_NaN();
};

// One race: its measures and the ladder as printed.
struct SpeedAttempt {
    std::vector<SpeedMeasure> measures;
    std::string table;
};

enum class Verdict {
    passed,    // every measure reaches the minimum, against a steady reference
    slow,      // a measure is below the minimum, against a steady reference
    unsteady,  // a reference's spread is over kMaxReferenceSpread: this ladder decides nothing
};

// "passed", "slow", "unsteady": as the grading log writes it (tests/check-grading reads it).
inline const char* verdict_name(Verdict verdict) {
    switch (verdict) {
    case Verdict::passed: return "passed";
    case Verdict::slow: return "slow";
    case Verdict::unsteady: return "unsteady";
    }
    return "?";
}

// The widest of an attempt's references' spreads (NaN if any is NaN; 0 with
// no measure): one unsteady reference leaves the whole ladder undecided.
inline double widest_reference_spread(const SpeedAttempt& attempt) {
    double widest = 0;
    for (const SpeedMeasure& measure : attempt.measures) {
        if (std::isnan(measure.reference_spread)) return measure.reference_spread;
        widest = std::max(widest, measure.reference_spread);
    }
    return widest;
}

inline Verdict verdict_of(const SpeedAttempt& attempt, double minimum) {
    if (!(widest_reference_spread(attempt) <= kMaxReferenceSpread)) return Verdict::unsteady;
    for (const SpeedMeasure& measure : attempt.measures)
        if (!(measure.fraction >= minimum)) return Verdict::slow;
    return attempt.measures.empty() ? Verdict::slow : Verdict::passed;
}

}  // namespace course::testing
