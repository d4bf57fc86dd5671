// The statistics the ladder reports: median, quartiles, spread.
#include "doctest_include.h"

#include "course/check.h"
#include "course/timing.h"

TEST_CASE("median and quartiles of an odd number of runs") {
    const auto stats = course::summarize({5.0, 1.0, 3.0, 2.0, 4.0});
    CHECK(stats.runs == 5);
    CHECK(stats.median_ms == 3.0);
    CHECK(stats.min_ms == 1.0);
    CHECK(stats.max_ms == 5.0);
    CHECK(stats.q1_ms == 2.0);
    CHECK(stats.q3_ms == 4.0);
    CHECK(stats.spread() == doctest::Approx(2.0 / 3.0));
}

TEST_CASE("median of an even number of runs interpolates") {
    const auto stats = course::summarize({1.0, 2.0, 3.0, 10.0});
    CHECK(stats.median_ms == 2.5);
    CHECK(stats.max_ms == 10.0);  // one slow outlier moves neither median nor quartiles much
    CHECK(stats.q3_ms == doctest::Approx(4.75));
}

TEST_CASE("one run, and no runs") {
    const auto stats = course::summarize({0.25});
    CHECK(stats.median_ms == 0.25);
    CHECK(stats.spread() == 0.0);
    CHECK_THROWS_AS(course::summarize({}), course::Error);
}
