#include "course/runner.h"

namespace course {

Harness::Harness(DeviceInfo device_in, TimingConfig timing_in)
    : device(std::move(device_in)), timing(timing_in), flusher(device.l2_bytes) {}

CheckResult check_once(Harness& harness, const KernelRun& run, std::uint8_t poison) {
    run.poison(poison, harness.stream.get());
    run.launch(harness.stream.get());
    harness.stream.synchronize();
    return run.check();
}

Rung measure(Harness& harness, Rung rung, const KernelRun& run) {
    try {
        rung.check = check_once(harness, run, kFirstPoison);
        run.poison(kSecondPoison, harness.stream.get());
        rung.time = time_launches(run.launch, harness.timing, &harness.flusher, harness.stream.get());
        harness.stream.synchronize();
        CheckResult again = run.check();
        if (rung.check.ok && !again.ok) {
            again.first_detail += " (after the timed runs only)";
            rung.check = again;
        }
    } catch (const CudaError& error) {
        throw Error("step " + rung.label + " (" + rung.title + ") failed: " + error.what() +
                    "\n  hint: run this program under compute-sanitizer to see which access went wrong");
    }
    return rung;
}

}  // namespace course
