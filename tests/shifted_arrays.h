// Shared by the grading tests that hand a kernel misaligned arrays (basics 02,
// matmul, hgemm): one checked run per shift of the problem's three arrays
// (course/offsets.h), its message naming what was shifted.
#pragma once

#include "doctest_include.h"
#include "gpu_test.h"

#include "course/offsets.h"
#include "course/runner.h"

#include <string>
#include <vector>

namespace course::testing {

// For each of `shifts`: make(offsets) builds the problem with its arrays so
// shifted, `launch` runs on it (course::check_once: a call, then one on new
// inputs), and a wrong result fails with "<names> offset by ... <unit>s".
template <class MakeProblem, class Launch>
void check_each_shift(const std::vector<Offsets>& shifts, const char* const (&names)[3], const std::string& unit,
                      MakeProblem make, Launch launch) {
    for (const Offsets& offsets : shifts) {
        const std::string shifted = describe(offsets, names, unit);
        CAPTURE(shifted);
        auto problem = make(offsets);
        const CheckResult result = check_once(harness(), problem.run(launch));
        CHECK_MESSAGE(result.ok, shifted, ": ", result.summary());
    }
}

}  // namespace course::testing
