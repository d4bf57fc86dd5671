// Comparing a GPU result with the CPU reference.
//
// Rules, the same everywhere in the course:
//  * Integers and bytes must match exactly.
//  * Floating point passes when |got - want| <= abs + rel * |want|, with the
//    tolerance stated by the lesson (see Tolerance below). Each lesson says
//    why its tolerance is what it is.
//  * NaN and Inf never pass, even where the reference is NaN or Inf too: the
//    course's inputs are finite, so a non-finite output is always a bug (and
//    NaN is the poison the harness writes into float outputs before a run).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

namespace course {

struct CheckResult {
    bool ok = true;
    std::size_t checked = 0;  // how many elements were compared
    std::size_t mismatches = 0;
    std::size_t first_bad = 0;  // index of the first mismatch
    std::string first_detail;   // "got NaN, want 1.25"
    double max_abs_error = 0;   // largest |got - want| among finite elements
    // Why a row was timed but not compared (a library that computes a
    // different rule, shown as a time reference): empty for a real check.
    std::string not_checked;

    // "ok" or "3 of 4097 wrong; first at [17]: got NaN, want 1.25"
    std::string summary() const;
    // Combines two checks of different parts of one output.
    CheckResult& merge(const CheckResult& other, std::size_t index_offset = 0);
};

// Floating-point tolerance: |got - want| <= abs + rel * |want|.
struct Tolerance {
    double rel = 0;
    double abs = 0;
};

namespace detail {
template <typename T>
std::string show(T value) {
    std::ostringstream out;
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(value))
            out << "NaN";
        else
            out.precision(9), out << value;
    } else if constexpr (sizeof(T) == 1) {
        out << static_cast<int>(value);
    } else {
        out << value;
    }
    return out.str();
}

// Counts a mismatch; only the first one is described (formatting millions of
// values for an unwritten output would take longer than the kernel).
template <typename Got, typename Want>
void record_mismatch(CheckResult& result, std::size_t index, Got got, Want want) {
    if (result.mismatches == 0) {
        result.first_bad = index;
        result.first_detail = "got " + show(got) + ", want " + show(want);
    }
    ++result.mismatches;
    result.ok = false;
}
}  // namespace detail

// Exact comparison, for integer types (int, int64, uint8_t, ...).
template <typename Got, typename Want>
CheckResult compare_exact(const Got* got, const Want* want, std::size_t count) {
    static_assert(std::is_integral_v<Got> && std::is_integral_v<Want>,
                  "compare_exact is for integers; use compare_close for floating point");
    CheckResult result;
    result.checked = count;
    for (std::size_t i = 0; i < count; ++i) {
        if (static_cast<long long>(got[i]) != static_cast<long long>(want[i]))
            detail::record_mismatch(result, i, got[i], want[i]);
        const double error = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
        if (error > result.max_abs_error) result.max_abs_error = error;
    }
    return result;
}

// Exact comparison of a width x height image whose rows lie `got_pitch`
// elements apart (a pitched GPU image, copied back as it is) with a tightly
// packed reference. Only the image's own elements are compared, never the
// padding at the end of each row. The first mismatch is named by its (x, y).
template <typename Got, typename Want>
CheckResult compare_exact_2d(const Got* got, std::size_t got_pitch, const Want* want, std::size_t width,
                             std::size_t height) {
    CheckResult result;
    for (std::size_t y = 0; y < height; ++y)
        result.merge(compare_exact(got + y * got_pitch, want + y * width, width), y * width);
    if (!result.ok && width > 0) {
        const std::size_t x = result.first_bad % width, y = result.first_bad / width;
        result.first_detail = "pixel (" + std::to_string(x) + ", " + std::to_string(y) + "): " + result.first_detail;
    }
    return result;
}

// True if `got` passes against `want` under `tol` (NaN/Inf never pass).
inline bool within_tolerance(double got, double want, Tolerance tol) {
    if (!std::isfinite(got) || !std::isfinite(want)) return false;
    return std::fabs(got - want) <= tol.abs + tol.rel * std::fabs(want);
}

// Tolerant comparison, for float or double results against a reference
// that is usually computed in double precision.
template <typename Got, typename Want>
CheckResult compare_close(const Got* got, const Want* want, std::size_t count, Tolerance tol) {
    static_assert(std::is_floating_point_v<Got> && std::is_floating_point_v<Want>,
                  "compare_close is for floating point; use compare_exact for integers");
    CheckResult result;
    result.checked = count;
    for (std::size_t i = 0; i < count; ++i) {
        const double g = static_cast<double>(got[i]);
        const double w = static_cast<double>(want[i]);
        if (!within_tolerance(g, w, tol)) detail::record_mismatch(result, i, got[i], want[i]);
        if (std::isfinite(g) && std::isfinite(w) && std::fabs(g - w) > result.max_abs_error)
            result.max_abs_error = std::fabs(g - w);
    }
    return result;
}

// Scale-aware comparison, for results that are sums of many rounded terms
// (a dot product, a matrix product): passes when
//     |got - want| <= rel * scale[i],
// where scale[i] is the size of what was summed (for a dot product,
// sum |a_k * b_k|), the quantity that floating-point rounding errors grow
// with. A relative tolerance on |want| alone is wrong for such sums: when the
// terms cancel, want is small but the rounding errors are not. NaN and Inf
// never pass, as everywhere.
template <typename Got>
CheckResult compare_scaled(const Got* got, const double* want, const double* scale, std::size_t count, double rel) {
    static_assert(std::is_floating_point_v<Got>, "compare_scaled is for floating point");
    CheckResult result;
    result.checked = count;
    for (std::size_t i = 0; i < count; ++i) {
        const double g = static_cast<double>(got[i]);
        if (!within_tolerance(g, want[i], Tolerance{0.0, rel * scale[i]}))
            detail::record_mismatch(result, i, got[i], want[i]);
        if (std::isfinite(g) && std::isfinite(want[i]) && std::fabs(g - want[i]) > result.max_abs_error)
            result.max_abs_error = std::fabs(g - want[i]);
    }
    return result;
}

// A result that could not be compared at all (the kernel crashed, ...).
CheckResult failed_check(const std::string& reason);

// A row that is only a time reference: it passes, and its check column
// says "not checked: <why>".
CheckResult unchecked(const std::string& why);

}  // namespace course
