// main() of the GPU test programs: exit 77 (Meson's "skipped") with a
// one-line reason when there is no GPU, otherwise run the doctest cases.
#define DOCTEST_CONFIG_IMPLEMENT
#include "doctest_include.h"

#include "gpu_test.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace course::testing {

namespace {
int test_device() {
    const char* text = std::getenv("COURSE_TEST_DEVICE");
    return text != nullptr ? std::atoi(text) : 0;
}
}  // namespace

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

bool timing_is_meaningful() { return !under_sanitizer(); }

}  // namespace course::testing

int main(int argc, char** argv) {
    std::string why;
    if (!course::gpu_available(&why)) {
        std::printf("skipped: %s\n", why.c_str());
        return 77;
    }
    doctest::Context context(argc, argv);
    return context.run();
}
