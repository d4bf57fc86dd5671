#include "course/compare.h"

namespace course {

std::string CheckResult::summary() const {
    if (ok) return not_checked.empty() ? "ok" : "not checked: " + not_checked;
    std::ostringstream out;
    if (checked == 0) {
        out << first_detail;
    } else {
        out << mismatches << " of " << checked << " wrong; first at [" << first_bad << "]: " << first_detail;
    }
    return out.str();
}

CheckResult& CheckResult::merge(const CheckResult& other, std::size_t index_offset) {
    if (ok && !other.ok) {  // the first failure reported is the earliest part's
        first_bad = other.first_bad + index_offset;
        first_detail = other.first_detail;
    }
    ok = ok && other.ok;
    checked += other.checked;
    mismatches += other.mismatches;
    if (other.max_abs_error > max_abs_error) max_abs_error = other.max_abs_error;
    return *this;
}

CheckResult failed_check(const std::string& reason) {
    CheckResult result;
    result.ok = false;
    result.first_detail = reason;
    return result;
}

CheckResult unchecked(const std::string& why) {
    CheckResult result;
    result.not_checked = why;
    return result;
}

}  // namespace course
