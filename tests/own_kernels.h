// Grading's check that a lesson's launcher runs kernels of its own: every
// kernel it launches must have machine code in the static library built from
// the kernel.cu graded (or in the solution of an earlier step whose launcher
// the step's reference solution, or an earlier step's, calls: hgemm 06 to 08
// hand step 05 the shapes their tensor maps cannot describe, so from step 06
// on step 05's kernels count), and must not be a header-only
// library's compiled into it (CUB's, Thrust's, CUTLASS's, CuTe's, libcu++'s:
// library_of_kernel in sass_text.h). A launcher that calls cuBLAS, CUB or NPP, or the reference
// solution that the speed rule races (linked into every grading program),
// computes the right result at the reference's speed and would pass every
// other check; this one names the kernel it launched instead.
//
// The launches are recorded from a capture, at each correctness size and, by
// the speed rule (tests/speed_rule.cpp), at the race's size before the race
// times the graded row, where the harness measures the row (course::measure:
// every race but separable 08's, whose transfer bench times the job, and
// whose job's graph is checked at the grading shapes): a launcher that
// changes its kernels at the race's size fails there. A capture cannot see
// what a launcher does when it is not captured: one that asks
// (cudaStreamIsCapturing), or counts its calls, could launch its own kernels
// while recorded and a library's otherwise. So the first check also reads
// what the kernel.cu calls outside itself (library_calls.h: the symbols its
// static library leaves undefined, `nm`), and fails a call to a library's
// API, to code loaded or looked up at run time, to the question whether its
// stream is captured, to a library rung of the course, to the grading
// program's own functions or to the reference solution, unless the step's
// solution makes a call of the same kind; and a header-only library's kernel
// compiled into the kernel.cu fails whether it is launched or not (but CUB's
// EmptyKernel, which its headers compile into any .cu that includes them).
// library_calls.h says what this still cannot see.
//
// tests/meson.build defines COURSE_GRADED_LIBRARY, COURSE_EARLIER_LIBRARIES
// (paths separated by ':'), COURSE_SOLUTION_LIBRARY (the step's solution's
// static library) and COURSE_NM on each grading test's compile line; this header,
// included by every track's test helpers, hands them to the checks below. The
// tracks' exactness checks (check_grading_sizes, check_every_shape, ...) call
// check_launches_own_kernels at each size, so every grading test of a kernel
// runs it; occupancy 02, a host-side calculator that launches none, calls
// check_calls_of_graded_file itself.
#pragma once

#include "course/launches.h"

#include <cuda_runtime.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace course::testing {

void register_graded_libraries(const char* graded, const char* earlier, const char* solution, const char* nm);

struct GradedLibraries {
    GradedLibraries(const char* graded, const char* earlier, const char* solution, const char* nm) {
        register_graded_libraries(graded, earlier, solution, nm);
    }
};

// Fails the current test case, naming the kernel and where its code is not,
// where `record` launches no kernel, a header-only library's, or one compiled
// neither from the graded kernel.cu nor from an earlier step's solution it
// may call; `what` says which call
// ("at 17 x 33 x 65"; empty where the test's CAPTURE says it). In a program that grades no kernel.cu (the grading's
// self-tests, which build a grading test's source against a plant) it checks
// nothing, unless $COURSE_GRADED says a lesson or a solution is graded: then
// it fails, since the library to look in is missing.
void check_launches_own_kernels(const LaunchRecord& record, const std::string& what);
// The same for what `enqueue` launches (course::record_launches), failing
// with an explanation where it cannot be recorded: a launcher that waits for
// the GPU (cudaStreamSynchronize, cudaDeviceSynchronize) cannot be captured.
void check_launches_own_kernels(const std::function<void(cudaStream_t)>& enqueue, const std::string& what);
// The same for kernels found another way (a multi-stream job's captured graph).
void check_kernels_are_own(const std::vector<const void*>& kernels, const std::string& what);
// Only the check of what the graded kernel.cu calls (library_calls.h), once
// per program as the checks above run it: for a grading test whose launcher
// launches no kernel (occupancy 02's calculator, which could otherwise hand
// its answers to the reference solution's calculator).
void check_calls_of_graded_file();
// The symbols the graded kernel.cu's library leaves undefined, read with nm
// once per program (the check above reads the same set), for a test's rule of
// its own (occupancy 02 refuses the runtime's occupancy calculator); null
// where this program grades no kernel.cu or nm cannot read them (the check
// above says why).
const std::set<std::string>* graded_file_calls();

}  // namespace course::testing

#ifdef COURSE_GRADED_LIBRARY
#ifndef COURSE_EARLIER_LIBRARIES
#define COURSE_EARLIER_LIBRARIES ""
#endif
#ifndef COURSE_SOLUTION_LIBRARY
#define COURSE_SOLUTION_LIBRARY ""
#endif
#ifndef COURSE_NM
#define COURSE_NM ""
#endif
static const course::testing::GradedLibraries course_graded_libraries_(COURSE_GRADED_LIBRARY, COURSE_EARLIER_LIBRARIES,
                                                                       COURSE_SOLUTION_LIBRARY, COURSE_NM);
#endif
