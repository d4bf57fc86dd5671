#include "speed_rule.h"

#include "course/report_json.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace course::testing {

namespace {

// One JSON line per measure of an attempt, for tests/check-grading. Which
// kernel was graded (the lesson's or the solution's) comes from the test's
// environment, set in tests/meson.build.
void log_attempt(const std::string& lesson, int attempt, const SpeedAttempt& result, double minimum) {
    const char* path = std::getenv("COURSE_GRADING_LOG");
    if (path == nullptr || *path == '\0') return;
    const char* graded = std::getenv("COURSE_GRADED");
    std::FILE* file = std::fopen(path, "a");
    if (file == nullptr) return;
    for (const SpeedMeasure& measure : result.measures) {
        const ReportJson line = {
            {"lesson", lesson},   {"graded", graded ? graded : ""}, {"device", harness().device.name},
            {"attempt", attempt}, {"measure", measure.what},        {"fraction", measure.fraction},
            {"minimum", minimum}};
        std::fputs((line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n").c_str(), file);
    }
    std::fclose(file);
}

std::string summary(const SpeedAttempt& attempt, double minimum) {
    std::ostringstream out;
    for (const SpeedMeasure& measure : attempt.measures) {
        out << (out.tellp() > 0 ? "; " : "") << measure.what << ": " << format_fixed(measure.fraction, 3)
            << "x the reference solution's speed (at least " << format_fixed(minimum, 2) << "x needed)";
    }
    return out.str();
}

}  // namespace

void check_speed_rule(const std::string& lesson, const std::function<SpeedAttempt()>& race, const std::string& advice,
                      double minimum) {
    std::string tables;
    for (int attempt = 1; attempt <= kSpeedAttempts; ++attempt) {
        const SpeedAttempt result = race();
        log_attempt(lesson, attempt, result, minimum);
        bool passed = true;
        for (const SpeedMeasure& measure : result.measures) passed = passed && measure.fraction >= minimum;
        const std::string line = "ladder " + std::to_string(attempt) + " of at most " + std::to_string(kSpeedAttempts) +
                                 ": " + summary(result, minimum);
        if (passed) {
            MESSAGE(result.table << line);
            return;
        }
        tables += result.table + line + "\n\n";
    }
    FAIL_CHECK(lesson << ": the kernel is slower than " << format_fixed(minimum, 2)
                      << "x the reference solution of the same step in every ladder:\n\n"
                      << tables << "What to look at: " << advice);
}

std::string solution_title(int step) { return "step " + step_label(step) + ", reference solution"; }
std::string graded_title(int step) { return "step " + step_label(step) + ", the kernel graded"; }

std::string mark_and_format(Ladder& ladder, std::size_t graded_row) {
    for (std::size_t row = 0; row < ladder.rungs.size(); ++row) ladder.rungs[row].student = row == graded_row;
    return format_table({harness().device, {ladder}});
}

double fraction_of_reference(const Ladder& ladder, std::size_t graded_row) {
    REQUIRE(graded_row > 0);
    const auto fraction = speedup_vs_previous(ladder, graded_row);
    REQUIRE_MESSAGE(fraction.has_value(), "a row of the race failed its check");
    return *fraction;
}

}  // namespace course::testing
