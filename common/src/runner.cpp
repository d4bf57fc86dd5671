#include "course/runner.h"

#include "course/profile.h"

#include <cuda_profiler_api.h>

namespace course {

namespace {

// The profile pass's measure(): the warm-up launch stays outside the profiled
// range (module loading, first touches), so ncu sees the rung's marker and
// then exactly one launch of its kernels.
void launch_for_profiler(Harness& harness, int run_index, const KernelRun& run) {
    const cudaStream_t stream = harness.stream.get();
    run.poison(kFirstPoison, stream);
    run.launch(stream);
    harness.stream.synchronize();
    CUDA_CHECK(cudaProfilerStart());
    launch_profile_marker(run_index, stream);
    run.launch(stream);
    harness.stream.synchronize();
    CUDA_CHECK(cudaProfilerStop());
}

}  // namespace

Harness::Harness(DeviceInfo device_in, TimingConfig timing_in, bool profile_pass_in)
    : device(std::move(device_in)), timing(timing_in), flusher(device.l2_bytes), profile_pass(profile_pass_in) {}

namespace {

// One call: the inputs of `set` written (where the problem has sets), the
// output poisoned, one launch, the result compared. `when` is added to a
// failure's detail ("second call, ...").
CheckResult call_and_check(Harness& harness, const KernelRun& run, int set, std::uint8_t poison,
                           const std::string& when) {
    const cudaStream_t stream = harness.stream.get();
    if (run.use_inputs) run.use_inputs(set, stream);
    run.poison(poison, stream);
    run.launch(stream);
    harness.stream.synchronize();
    CheckResult result = run.check();
    if (!result.ok && !when.empty()) result.first_detail += " (" + when + ")";
    return result;
}

}  // namespace

CheckResult check_once(Harness& harness, const KernelRun& run, std::uint8_t poison) {
    if (run.prepare) run.prepare(harness.stream.get());
    CheckResult first = call_and_check(harness, run, kFreshInputs, poison, "");
    if (!first.ok || !run.use_inputs) return first;
    CheckResult second = call_and_check(harness, run, kFirstCallInputs, kSecondPoison,
                                        "second call with new inputs in the same buffers, nothing reset in between");
    run.use_inputs(kFreshInputs, harness.stream.get());
    harness.stream.synchronize();
    return second.ok ? first : second;
}

Rung measure(Harness& harness, Rung rung, const KernelRun& run) {
    rung.run_index = harness.runs_measured++;
    try {
        if (harness.before_measure && !harness.profile_pass) harness.before_measure(rung, run);
        if (harness.profile_pass) {
            if (run.prepare) run.prepare(harness.stream.get());
            launch_for_profiler(harness, rung.run_index, run);
            return rung;
        }
        if (run.prepare) run.prepare(harness.stream.get());
        rung.check = call_and_check(harness, run, kFirstCallInputs, kFirstPoison, "");
        CheckResult second =
            call_and_check(harness, run, kSecondCallInputs, kSecondPoison,
                           "second call with new inputs in the same buffers, nothing reset in between");
        run.poison(kFirstPoison, harness.stream.get());
        rung.time = time_launches(run.launch, harness.timing, &harness.flusher, harness.stream.get());
        harness.stream.synchronize();
        CheckResult timed = run.check();
        if (!timed.ok) timed.first_detail += " (after the timed runs only)";
        CheckResult fresh = call_and_check(harness, run, kFreshInputs, kSecondPoison,
                                           "fresh inputs in the same buffers after the timed runs");
        // The first failure in the order the calls ran is the one reported.
        for (const CheckResult* later : {&second, &timed, &fresh}) {
            if (!rung.check.ok) break;
            if (!later->ok) rung.check = *later;
        }
    } catch (const CudaError& error) {
        throw Error("step " + rung.label + " (" + rung.title + ") failed: " + error.what() +
                    "\n  hint: run this program under compute-sanitizer to see which access went wrong");
    }
    return rung;
}

Rung measure_library(Harness& harness, Rung rung, const KernelRun& run) {
    try {
        return measure(harness, rung, run);
    } catch (const Error& error) {
        rung.check = failed_check(error.what());
        return rung;
    }
}

}  // namespace course
