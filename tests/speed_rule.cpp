#include "speed_rule.h"

#include "own_kernels.h"

#include "course/report_json.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace course::testing {

namespace {

// One JSON line per measure of an attempt, for tests/check-grading, with the
// attempt's verdict (an unsteady ladder's fraction decided nothing) and the
// widest spread of its references (what made it unsteady). Which
// kernel was graded (the lesson's or the solution's) comes from the test's
// environment, set in tests/meson.build.
void log_attempt(const std::string& lesson, int attempt, const SpeedAttempt& result, double minimum, Verdict verdict) {
    const char* path = std::getenv("COURSE_GRADING_LOG");
    if (path == nullptr || *path == '\0') return;
    const char* graded = std::getenv("COURSE_GRADED");
    std::FILE* file = std::fopen(path, "a");
    if (file == nullptr) return;
    for (const SpeedMeasure& measure : result.measures) {
        const ReportJson line = {{"lesson", lesson},
                                 {"graded", graded ? graded : ""},
                                 {"device", harness().device.name},
                                 {"attempt", attempt},
                                 {"measure", measure.what},
                                 {"fraction", measure.fraction},
                                 {"minimum", minimum},
                                 {"reference_spread", measure.reference_spread},
                                 {"ladder_reference_spread", widest_reference_spread(result)},
                                 {"verdict", verdict_name(verdict)}};
        std::fputs((line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n").c_str(), file);
    }
    std::fclose(file);
}

std::string summary(const SpeedAttempt& attempt, double minimum) {
    std::ostringstream out;
    for (const SpeedMeasure& measure : attempt.measures) {
        out << (out.tellp() > 0 ? "; " : "") << measure.what << ": " << format_fixed(measure.fraction, 3)
            << "x the reference solution's speed (at least " << format_fixed(minimum, 2) << "x needed)";
        if (!(measure.reference_spread <= kMaxReferenceSpread))
            out << ", but the reference's times spread " << format_fixed(100 * measure.reference_spread, 1)
                << "% (between its quartiles, or from its fastest run to its median: more than "
                << format_fixed(100 * kMaxReferenceSpread, 0)
                << "%): its median is not its speed, so this ladder decides nothing";
    }
    return out.str();
}

// How graded_title ends: the speed rule finds the graded rows by it.
const std::string kGradedTitleEnd = ", the kernel graded";

// While it lives, the harness hands every row of the race's first ladder to
// the own-kernels check before timing it, where the row is the kernel graded
// (graded_title): the correctness sizes see the launcher's kernels, this sees
// them at the size it is timed at, so a launcher that hands the race's size
// to a library or to the reference solution fails as it does at the others.
class GradedRowsChecked {
public:
    GradedRowsChecked() {
        harness().before_measure = [](const Rung& rung, const KernelRun& run) {
            const std::string& title = rung.title;
            if (title.size() >= kGradedTitleEnd.size() &&
                title.compare(title.size() - kGradedTitleEnd.size(), kGradedTitleEnd.size(), kGradedTitleEnd) == 0)
                check_launches_own_kernels(run.launch, "in the race");
        };
    }
    GradedRowsChecked(const GradedRowsChecked&) = delete;
    GradedRowsChecked& operator=(const GradedRowsChecked&) = delete;
    ~GradedRowsChecked() { harness().before_measure = nullptr; }
};

}  // namespace

void check_speed_rule(const std::string& lesson, const std::function<SpeedAttempt()>& race, const std::string& advice,
                      double minimum) {
    std::string tables;
    int unsteady = 0;
    for (int attempt = 1; attempt <= kSpeedAttempts; ++attempt) {
        const SpeedAttempt result = [&] {
            if (attempt > 1) return race();
            const GradedRowsChecked checked;
            return race();
        }();
        const Verdict verdict = verdict_of(result, minimum);
        log_attempt(lesson, attempt, result, minimum, verdict);
        const bool passed = verdict == Verdict::passed;
        if (verdict == Verdict::unsteady) ++unsteady;
        const std::string line = "ladder " + std::to_string(attempt) + " of at most " + std::to_string(kSpeedAttempts) +
                                 ": " + summary(result, minimum);
        if (passed) {
            MESSAGE(result.table << line);
            return;
        }
        tables += result.table + line + "\n\n";
    }
    if (unsteady == kSpeedAttempts)
        FAIL_CHECK(lesson << ": no ladder was steady enough to decide (the reference solution's times spread more "
                          << "than " << format_fixed(100 * kMaxReferenceSpread, 0)
                          << "% in each): is another process using the GPU?\n\n"
                          << tables);
    else
        FAIL_CHECK(lesson << ": the kernel is slower than " << format_fixed(minimum, 2)
                          << "x the reference solution of the same step in every ladder that could decide:\n\n"
                          << tables << "What to look at: " << advice);
}

std::string solution_title(int step) { return "step " + step_label(step) + ", reference solution"; }
std::string graded_title(int step) { return "step " + step_label(step) + kGradedTitleEnd; }

std::string mark_and_format(Ladder& ladder, std::size_t graded_row) {
    for (std::size_t row = 0; row < ladder.rungs.size(); ++row) ladder.rungs[row].student = row == graded_row;
    return format_table({harness().device, {ladder}});
}

SpeedMeasure time_against_reference(const Ladder& ladder, std::size_t graded_row) {
    REQUIRE(graded_row > 0);
    const auto fraction = speedup_vs_previous(ladder, graded_row);
    REQUIRE_MESSAGE(fraction.has_value(), "a row of the race failed its check");
    return {"time", *fraction, reference_spread(ladder.rungs.at(graded_row - 1).time)};
}

}  // namespace course::testing
