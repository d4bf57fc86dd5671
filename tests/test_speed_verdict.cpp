// The speed rule's decision for one ladder (tests/speed_verdict.h), on the CPU.
#include "speed_verdict.h"

#include "doctest_include.h"

#include <cmath>
#include <limits>
#include <string>

using course::testing::kMaxReferenceSpread;
using course::testing::kMinimumFractionOfReference;
using course::testing::reference_spread;
using course::testing::SpeedAttempt;
using course::testing::Verdict;
using course::testing::verdict_name;
using course::testing::verdict_of;

namespace {

// A reference's times as the ladder summarises them: fastest run, quartiles and median.
course::TimingStats stats(double min_ms, double q1_ms, double median_ms, double q3_ms) {
    course::TimingStats times;
    times.min_ms = min_ms;
    times.q1_ms = q1_ms;
    times.median_ms = median_ms;
    times.q3_ms = q3_ms;
    return times;
}

Verdict time_only(double fraction, double reference_spread) {
    return verdict_of(SpeedAttempt{{{"time", fraction, reference_spread}}, ""}, kMinimumFractionOfReference);
}

}  // namespace

TEST_CASE("a ladder with a steady reference passes or fails on the fraction") {
    CHECK(time_only(1.0, 0.02) == Verdict::passed);
    CHECK(time_only(0.85, 0.02) == Verdict::passed);
    CHECK(time_only(0.849, 0.02) == Verdict::slow);
    CHECK(time_only(0.5, 0.0) == Verdict::slow);
    // Host transfers spread up to about a third: still steady enough.
    CHECK(time_only(0.9, 0.37) == Verdict::passed);
    CHECK(time_only(0.9, kMaxReferenceSpread) == Verdict::passed);
}

TEST_CASE("a ladder whose reference ran at two speeds decides nothing, however fast the graded kernel looks") {
    // A reference solution raced against its own copy, half its runs twice as
    // slow: its median says the copy is 1.85x faster.
    CHECK(time_only(1.847, 0.869) == Verdict::unsteady);
    CHECK(time_only(0.4, 0.869) == Verdict::unsteady);
    CHECK(time_only(1.0, kMaxReferenceSpread + 1e-9) == Verdict::unsteady);
    CHECK(time_only(1.0, std::numeric_limits<double>::quiet_NaN()) == Verdict::unsteady);
}

TEST_CASE("a reference's spread is the larger of its quartiles' gap and its median's distance from its fastest run") {
    // Steady: 20 runs within a few percent.
    CHECK(reference_spread(stats(1.00, 1.01, 1.02, 1.03)) == doctest::Approx(0.02));  // median / min - 1
    // Half the runs twice as slow: the quartiles straddle both speeds.
    CHECK(reference_spread(stats(1.0, 1.0, 1.5, 2.0)) == doctest::Approx(2.0 / 3.0));
    // Most runs 1.8x as slow: the quartiles are close (both slow), the median far above the fastest run.
    CHECK(reference_spread(stats(1.0, 1.75, 1.8, 1.82)) == doctest::Approx(0.8));
    CHECK(time_only(0.9, reference_spread(stats(1.0, 1.75, 1.8, 1.82))) == Verdict::unsteady);
    // Host transfers: a third between the quartiles, a sixth above the fastest run.
    CHECK(reference_spread(stats(5.6, 5.8, 6.6, 8.1)) == doctest::Approx(2.3 / 6.6));
    // Nothing timed: no spread, so no decision.
    CHECK(time_only(1.0, reference_spread(stats(0.0, 0.0, 0.0, 0.0))) == Verdict::unsteady);
}

TEST_CASE("a measure whose reference's spread was never given decides nothing") {
    course::testing::SpeedMeasure forgotten;
    forgotten.what = "time";
    forgotten.fraction = 1.0;
    CHECK(verdict_of(SpeedAttempt{{forgotten}, ""}, kMinimumFractionOfReference) == Verdict::unsteady);
}

TEST_CASE("every measure of a ladder counts") {
    const double minimum = kMinimumFractionOfReference;
    const SpeedAttempt both_fine{{{"time", 1.0, 0.01}, {"memory-only time", 0.95, 0.02}}, ""};
    const SpeedAttempt second_slow{{{"time", 1.0, 0.01}, {"memory-only time", 0.6, 0.02}}, ""};
    const SpeedAttempt second_unsteady{{{"time", 0.6, 0.01}, {"memory-only time", 1.0, 0.9}}, ""};
    CHECK(verdict_of(both_fine, minimum) == Verdict::passed);
    CHECK(verdict_of(second_slow, minimum) == Verdict::slow);
    CHECK(verdict_of(second_unsteady, minimum) == Verdict::unsteady);
    CHECK(verdict_of(SpeedAttempt{{{"time", std::numeric_limits<double>::quiet_NaN(), 0.01}}, ""}, minimum) ==
          Verdict::slow);
    CHECK(verdict_of(SpeedAttempt{}, minimum) == Verdict::slow);  // nothing measured passes nothing
    // The ladder's widest spread, as the grading log records it: a NaN is not outvoted by a later measure.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(course::testing::widest_reference_spread(second_unsteady) == doctest::Approx(0.9));
    CHECK(std::isnan(
        course::testing::widest_reference_spread(SpeedAttempt{{{"time", 1.0, nan}, {"other", 1.0, 0.1}}, ""})));
    CHECK(verdict_of(SpeedAttempt{{{"time", 1.0, nan}, {"other", 1.0, 0.1}}, ""}, minimum) == Verdict::unsteady);
}

TEST_CASE("the grading log names each verdict as tests/check-grading reads it") {
    CHECK(std::string(verdict_name(Verdict::passed)) == "passed");
    CHECK(std::string(verdict_name(Verdict::slow)) == "slow");
    CHECK(std::string(verdict_name(Verdict::unsteady)) == "unsteady");
}
