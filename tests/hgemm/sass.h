// Reading a kernel's machine code (SASS) as `cuobjdump -sass` prints it: for
// the hgemm grading's checks of steps 07 and 08 (tests/hgemm/structure.h),
// which ask whether the graded kernel's code holds warpgroup MMA instructions
// (07) and register reallocation between warpgroups (08). No CUDA
// here, so that the CPU tests (test_hgemm_cpu.cpp) check the reading on a
// made-up listing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace hgemm::testing {

struct SassCounts {
    bool found = false;          // the kernel has code in the listing
    std::size_t hgmma = 0;       // lines with HGMMA (wgmma.mma_async) in its code
    std::size_t hmma = 0;        // lines with HMMA (mma.sync, WMMA)
    std::size_t setmaxnreg = 0;  // lines with USETMAXREG (setmaxnreg.inc or .dec)
    std::string functions;       // every kernel of the listing, comma-separated
};

// Counts the instructions of `kernel` (its mangled name) in `listing`, the
// output of cuobjdump -sass: each kernel's code starts at a line
// "Function : <name>", once per architecture the file holds code for, and
// runs to the next such line.
inline SassCounts count_tensor_instructions(const std::string& listing, const std::string& kernel) {
    SassCounts counts;
    std::istringstream lines(listing);
    std::string line, current;
    std::vector<std::string> seen;
    while (std::getline(lines, line)) {
        const std::size_t at = line.find("Function : ");
        if (at != std::string::npos) {
            current = line.substr(at + 11);
            while (!current.empty() && (current.back() == '\r' || current.back() == ' ' || current.back() == '\t'))
                current.pop_back();
            counts.found = counts.found || current == kernel;
            if (std::find(seen.begin(), seen.end(), current) == seen.end()) {
                counts.functions += (seen.empty() ? "" : ", ") + current;
                seen.push_back(current);
            }
            continue;
        }
        if (current != kernel) continue;
        if (line.find("HGMMA") != std::string::npos) ++counts.hgmma;
        if (line.find("HMMA") != std::string::npos) ++counts.hmma;
        if (line.find("USETMAXREG") != std::string::npos) ++counts.setmaxnreg;
    }
    return counts;
}

}  // namespace hgemm::testing
