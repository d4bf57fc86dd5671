// The kernels a graded launcher runs, looked up by name in the machine code of
// the libraries it may take them from (own_kernels.h).
#include "own_kernels.h"

#include "doctest_include.h"
#include "library_calls.h"
#include "sass_listing.h"

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

namespace course::testing {

namespace {

struct Libraries {
    std::string graded;  // empty: this program grades no kernel.cu
    std::vector<std::string> earlier;
    std::string solution;  // the step's solution's library: the calls it makes are allowed
    std::string nm;
};

Libraries& libraries() {
    static Libraries instance;
    return instance;
}

// A library's kernels by mangled name (each listed once per architecture),
// or why they cannot be read. Read once per library and program.
struct KernelNames {
    std::set<std::string> names;
    std::string failure;
};

const KernelNames& kernels_in(const std::string& library) {
    static std::map<std::string, KernelNames> read;
    const auto found = read.find(library);
    if (found != read.end()) return found->second;
    KernelNames& names = read[library];
    std::string listing;
    if (sass_listing(COURSE_CUOBJDUMP, library, listing, names.failure))
        for (const SassFunction& function : sass_functions(listing)) names.names.insert(function.name);
    else if (listing.find("does not contain device code") != std::string::npos)
        names.failure.clear();  // a kernel.cu that defines no kernel: none of its own
    return names;
}

std::string file_name(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// " at 17 x 33 x 65" for a message, or "" where the test's CAPTURE says it.
std::string where(const std::string& at) { return at.empty() ? "" : " " + at; }

bool grading_a_kernel_file() {
    const char* graded = std::getenv("COURSE_GRADED");
    return graded != nullptr && *graded != '\0';
}

// The graded library's undefined symbols, read once per program; `failure`
// says why where they cannot be read.
struct GradedCalls {
    bool read = false;
    std::set<std::string> calls;
    std::string failure;
};

const GradedCalls& graded_calls_of(const Libraries& l) {
    static const GradedCalls instance = [&] {
        GradedCalls read;
        read.read = library_undefined_symbols(l.nm, l.graded, read.calls, read.failure);
        return read;
    }();
    return instance;
}

// What the graded kernel.cu calls that a lesson's launcher may not
// (library_calls.h), and the header-only libraries' kernels compiled into it,
// launched or not (but CUB's EmptyKernel, which CUB's headers compile into
// any .cu that includes them, for their own queries of the device): checked
// once per program, at its first look at a launcher's kernels.
void check_calls_once(const Libraries& l) {
    static bool checked = false;
    if (checked) return;
    checked = true;
    const GradedCalls& graded = graded_calls_of(l);
    if (!graded.read) {
        FAIL_CHECK("what the kernel.cu graded calls cannot be read: " << graded.failure);
        return;
    }
    std::set<std::string> solution_calls;
    std::string failure;
    if (!l.solution.empty() && !library_undefined_symbols(l.nm, l.solution, solution_calls, failure)) {
        FAIL_CHECK("what the step's solution calls, which the kernel.cu graded may call too, cannot be read from "
                   << l.solution
                   << " (meson test builds it before the test; a grading program run by hand needs a "
                      "full ninja -C <build> first): "
                   << failure);
        return;
    }
    for (const ForbiddenCall& call : forbidden_calls(graded.calls, solution_calls))
        FAIL_CHECK("the kernel.cu graded (" << file_name(l.graded) << ") calls " << call.name << ": " << call.what
                                            << ". A lesson's launcher does its work with its own kernels, the same "
                                               "way whether its launches are recorded, timed or checked");
    const KernelNames& own = kernels_in(l.graded);  // where it cannot be read, the caller says so
    for (const std::string& kernel : own.names) {
        const std::string library = library_of_kernel(kernel);
        if (!library.empty() && demangled(kernel).find("::EmptyKernel<") == std::string::npos)
            FAIL_CHECK("the kernel.cu graded (" << file_name(l.graded) << ") has " << library << "'s kernel "
                                                << demangled(kernel)
                                                << " compiled in from its headers: a lesson's launcher runs kernels "
                                                   "the lesson writes");
    }
}

// The libraries of the kernel.cu graded, or null where this program grades
// none (the grading's self-tests, which check nothing then); it fails, saying
// that `what` cannot be checked, where $COURSE_GRADED says one is graded but
// the program was built without its library.
const Libraries* graded_libraries(const char* what) {
    const Libraries& l = libraries();
    if (!l.graded.empty()) return &l;
    if (grading_a_kernel_file())
        FAIL_CHECK("this grading program was built without COURSE_GRADED_LIBRARY (tests/meson.build defines it), "
                   "so "
                   << what);
    return nullptr;
}

}  // namespace

void register_graded_libraries(const char* graded, const char* earlier, const char* solution, const char* nm) {
    static bool registered = false;  // once: the grading program's own definition, before main
    if (registered) return;
    registered = true;
    Libraries& l = libraries();
    l.graded = graded;
    l.solution = solution;
    l.nm = nm;
    l.earlier.clear();
    std::istringstream paths(earlier);
    for (std::string path; std::getline(paths, path, ':');)
        if (!path.empty()) l.earlier.push_back(path);
}

void check_calls_of_graded_file() {
    if (const Libraries* l = graded_libraries("what its kernel.cu calls cannot be read")) check_calls_once(*l);
}

const std::set<std::string>* graded_file_calls() {
    const Libraries& l = libraries();
    if (l.graded.empty()) return nullptr;
    const GradedCalls& graded = graded_calls_of(l);
    return graded.read ? &graded.calls : nullptr;
}

void check_kernels_are_own(const std::vector<const void*>& kernels, const std::string& at) {
    const std::string what = where(at);
    const Libraries* graded = graded_libraries("the kernels it launches cannot be looked up");
    if (graded == nullptr) return;
    const Libraries& l = *graded;
    check_calls_once(l);
    if (kernels.empty()) {
        FAIL_CHECK("the launcher launches no kernel" << what
                                                     << ": a lesson's launcher computes its result with the "
                                                        "kernels of its kernel.cu, on the GPU");
        return;
    }
    const KernelNames& own = kernels_in(l.graded);
    if (!own.failure.empty()) {
        FAIL_CHECK("the kernels launched" << what << " cannot be looked up: " << own.failure);
        return;
    }
    for (const void* kernel : kernels) {
        if (kernel == nullptr) {
            FAIL_CHECK("the launcher runs a kernel"
                       << what
                       << " that it launched through the driver API, as cuBLAS and NPP launch theirs: a lesson's "
                          "launcher runs its own kernels, not a library's");
            continue;
        }
        std::string name, failure;
        if (!kernel_name(kernel, name, failure)) {
            FAIL_CHECK("a kernel launched" << what << " cannot be named (" << failure
                                           << "): a lesson's launcher runs the kernels of its own kernel.cu");
            continue;
        }
        const std::string library = library_of_kernel(name);
        if (!library.empty()) {
            FAIL_CHECK("the launcher runs the kernel " << demangled(name) << what << ", " << library
                                                       << "'s, compiled into the kernel.cu from its headers: a "
                                                          "lesson's launcher runs kernels the lesson writes");
            continue;
        }
        if (own.names.count(name) != 0) continue;
        bool earlier = false;
        std::string unread;
        for (const std::string& path : l.earlier) {
            const KernelNames& theirs = kernels_in(path);
            earlier = earlier || theirs.names.count(name) != 0;
            if (!theirs.failure.empty()) unread += " (" + theirs.failure + ")";
        }
        if (earlier) continue;
        std::string defined;
        for (const std::string& each : own.names)
            if (defined.find(demangled(each)) == std::string::npos)
                defined += (defined.empty() ? "" : "; ") + demangled(each);
        FAIL_CHECK("the launcher runs the kernel " << demangled(name) << what
                                                   << ", which is not compiled from the kernel.cu graded ("
                                                   << file_name(l.graded)
                                                   << ") nor from an earlier step's solution: a lesson's launcher "
                                                      "runs its own kernels, not a library's (cuBLAS, CUB, NPP) or "
                                                      "the reference solution's. The kernel.cu's kernels: "
                                                   << (defined.empty() ? "none" : defined) << unread);
    }
}

void check_launches_own_kernels(const std::function<void(cudaStream_t)>& enqueue, const std::string& what) {
    LaunchRecord record;
    try {
        record = record_launches(enqueue);
    } catch (const std::exception& error) {
        FAIL_CHECK("the launcher's work cannot be recorded into a CUDA graph"
                   << where(what) << " (" << error.what()
                   << "), so the kernels it launches cannot be looked up: a launcher enqueues its work on the "
                      "stream it is given and does not wait for the GPU (no cudaStreamSynchronize or "
                      "cudaDeviceSynchronize)");
        (void)cudaGetLastError();
        return;
    }
    check_launches_own_kernels(record, what);
}

void check_launches_own_kernels(const LaunchRecord& record, const std::string& what) {
    std::vector<const void*> kernels;
    for (const KernelLaunch& launch : record.kernels) kernels.push_back(launch.function);
    check_kernels_are_own(kernels, what);
}

}  // namespace course::testing
