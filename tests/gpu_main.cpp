// main() of the GPU test programs: exit 77 (Meson's "skipped") with a
// one-line reason when there is no GPU, otherwise run the doctest cases.
#define DOCTEST_CONFIG_IMPLEMENT
#include "doctest_include.h"

#include "gpu_test.h"
#include "sanitizer_run.h"

#include "course/device.h"

#include <cuda_runtime.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace course::testing {

namespace {
int test_device() {
    const char* text = std::getenv("COURSE_TEST_DEVICE");
    return text != nullptr ? std::atoi(text) : 0;
}

// What COURSE_NEEDS_COMPUTE_CAPABILITY declared (0: any GPU).
int needed_capability = 0;
const char* needed_for = "";
}  // namespace

NeedsComputeCapability::NeedsComputeCapability(int needed, const char* what) {
    needed_capability = needed;
    needed_for = what;
}

// "" when the test device has the compute capability the tests declared,
// else why they are skipped.
std::string missing_capability() {
    if (needed_capability == 0) return "";
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, test_device()) != cudaSuccess) return "";  // open_device says why
    return capability_missing(properties.major, properties.minor, needed_capability, needed_for);
}

Harness& harness() {
    static std::unique_ptr<Harness> instance;
    if (!instance) {
        TimingConfig timing;
        timing.runs = 30;
        instance = std::make_unique<Harness>(open_device(test_device()), timing);
    }
    return *instance;
}

bool under_sanitizer() {
    const char* sanitizer = std::getenv("COURSE_SANITIZER");
    return sanitizer != nullptr && *sanitizer != '\0';
}

bool under_racecheck() {
    const char* sanitizer = std::getenv("COURSE_SANITIZER");
    return sanitizer != nullptr && std::strcmp(sanitizer, "racecheck") == 0;
}

bool timing_is_meaningful() { return !under_sanitizer(); }

bool small_sizes_only() {
    const char* small = std::getenv("COURSE_SMALL_SIZES");
    return small != nullptr && *small != '\0';
}

std::vector<std::size_t> sizes_1d() {
    std::vector<std::size_t> sizes;
    for (const std::size_t n : kSizes1D)
        if (!small_sizes_only() || n <= (std::size_t{1} << 16)) sizes.push_back(n);
    return sizes;
}

}  // namespace course::testing

namespace {

// The grade setup's sanitizer runs of a lesson: tests/meson.build sets
// `variable` to compute-sanitizer's path (empty when it is not installed) in
// the "<lesson> memcheck" and "<lesson> racecheck" tests.
struct SanitizerRun {
    const char* variable;  // COURSE_MEMCHECK or COURSE_RACECHECK
    const char* tool;
    const char* what;  // what the tool finds, for the messages
    std::vector<std::string> options;
};

const SanitizerRun kSanitizerRuns[] = {
    {"COURSE_MEMCHECK", "memcheck", "memory errors", {}},
    // Every hazard, as the racecheck test setup reports them (tests/meson.build).
    {"COURSE_RACECHECK", "racecheck", "shared-memory races", {"--racecheck-report", "all"}},
};

// This program runs again under compute-sanitizer's `run.tool`, at small
// sizes, without its speed rules, and any error the tool reports (a memory
// error; a shared-memory hazard, warnings included) fails the test
// (sanitizer_run.h). Returns the test's exit status.
int run_under_sanitizer(const SanitizerRun& run, const char* sanitizer, int argc, char** argv) {
    if (*sanitizer == '\0') {
        std::printf("skipped: compute-sanitizer is not installed (it comes with the CUDA toolkit, beside nvcc): "
                    "this lesson's kernels were NOT checked for %s\n",
                    run.what);
        return 77;
    }
    char self[4096];
    const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) {
        std::printf("cannot find this program's path to run it under compute-sanitizer\n");
        return 1;
    }
    self[length] = '\0';
    for (const SanitizerRun& each : kSanitizerRuns) unsetenv(each.variable);
    setenv("COURSE_SANITIZER", run.tool, 1);
    setenv("COURSE_SMALL_SIZES", "1", 1);
    std::vector<std::string> args = {sanitizer, "--tool", run.tool, "--error-exitcode", "1", "--print-limit", "20"};
    args.insert(args.end(), run.options.begin(), run.options.end());
    args.emplace_back(self);
    args.emplace_back("--test-case-exclude=*as fast as*");
    for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
    std::printf("%s: this lesson's tests at small sizes, under compute-sanitizer %s (speed rules left out)\n", run.what,
                run.tool);
    return course::testing::run_sanitizer_and_check(args);
}

}  // namespace

int main(int argc, char** argv) {
    std::string why;
    if (!course::gpu_available(&why)) {
        std::printf("skipped: %s\n", why.c_str());
        return 77;
    }
    const std::string missing = course::testing::missing_capability();
    if (!missing.empty()) {
        std::printf("skipped: %s\n", missing.c_str());
        return 77;
    }
    // Under a sanitizer already (the memcheck and racecheck setups), the
    // sanitizer tests run as they are.
    for (const SanitizerRun& run : kSanitizerRuns) {
        const char* sanitizer = std::getenv(run.variable);
        if (sanitizer != nullptr && !course::testing::under_sanitizer())
            return run_under_sanitizer(run, sanitizer, argc, argv);
    }
    doctest::Context context(argc, argv);
    return context.run();
}
