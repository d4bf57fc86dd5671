// Reading a kernel's machine code (SASS) as `cuobjdump -sass` prints it: for
// the hgemm grading's checks of steps 06 to 09 (tests/hgemm/structure.h),
// which ask whether the graded kernel's code holds TMA copies (06 on),
// warpgroup MMA instructions (07) and register reallocation between
// warpgroups (08). No CUDA
// here, so that the CPU tests (test_hgemm_cpu.cpp) check the reading on a
// made-up listing.
#pragma once

#include "sass_text.h"

#include <cstddef>
#include <string>

namespace hgemm::testing {

struct SassCounts {
    bool found = false;          // the kernel has code in the listing
    std::size_t hgmma = 0;       // lines with HGMMA (wgmma.mma_async) in its code
    std::size_t hmma = 0;        // lines with HMMA (mma.sync, WMMA)
    std::size_t setmaxnreg = 0;  // lines with USETMAXREG (setmaxnreg.inc or .dec)
    std::size_t utmaldg = 0;     // lines with UTMALDG (cp.async.bulk.tensor: a TMA copy into shared memory)
    std::string functions;       // every kernel of the listing, comma-separated
};

// Counts the instructions of one kernel's code (course::testing::kernel_code:
// its lines for every architecture the file holds code for, together).
inline SassCounts count_tensor_instructions(const course::testing::KernelCode& code) {
    SassCounts counts;
    counts.found = code.found;
    counts.functions = code.functions;
    counts.hgmma = course::testing::count_lines_with(code.lines, {"HGMMA"});
    counts.hmma = course::testing::count_lines_with(code.lines, {"HMMA"});
    counts.setmaxnreg = course::testing::count_lines_with(code.lines, {"USETMAXREG"});
    counts.utmaldg = course::testing::count_lines_with(code.lines, {"UTMALDG"});
    return counts;
}

// The same, read from `listing`, the output of cuobjdump -sass, for the
// kernel of mangled name `kernel`.
inline SassCounts count_tensor_instructions(const std::string& listing, const std::string& kernel) {
    return count_tensor_instructions(course::testing::kernel_code(listing, kernel));
}

}  // namespace hgemm::testing
