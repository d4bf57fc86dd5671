// The harness on a real GPU: buffers, error reports, timing, and the
// check-time-recheck sequence against kernels with known flaws.
#include "doctest_include.h"

#include "course/buffers.h"
#include "course/ceilings.h"
#include "course/check.h"
#include "course/launches.h"
#include "course/runner.h"
#include "gpu_helpers.h"
#include "gpu_test.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using course::testing::harness;

namespace {

// A KernelRun for out[i] = i over n floats, with any of the test_kernels
// launchers (gpu_helpers.h).
struct IndexProblem {
    explicit IndexProblem(std::size_t n) : out(n), expected(n) {
        for (std::size_t i = 0; i < n; ++i) expected[i] = static_cast<float>(i);
    }
    course::KernelRun run(void (*launch)(float*, std::size_t, cudaStream_t)) {
        return {[this, launch](cudaStream_t s) { launch(out.data(), out.size(), s); },
                [this](std::uint8_t pattern, cudaStream_t s) { out.fill_bytes(pattern, s); },
                [this]() {
                    const auto got = out.download();
                    return course::compare_close(got.data(), expected.data(), got.size(), course::Tolerance{});
                }};
    }
    course::DeviceBuffer<float> out;
    std::vector<float> expected;
};

course::Rung named(const std::string& label) {
    course::Rung rung;
    rung.label = label;
    rung.title = "test";
    rung.work = 1.0;
    return rung;
}

}  // namespace

TEST_CASE("the device's properties are read, and its peaks are plausible") {
    const auto& device = harness().device;
    CHECK(device.sm_count > 0);
    CHECK(device.l2_bytes > 0);
    CHECK(device.peak_dram_gbps > 50.0);
    CHECK(device.peak_fp32_gflops > 500.0);
    CHECK(device.summary().find(device.name) == 0);
    MESSAGE(device.summary());
}

TEST_CASE("device buffers upload, download, fill and move") {
    course::DeviceBuffer<int> buffer(std::vector<int>{1, 2, 3});
    CHECK(buffer.size() == 3);
    CHECK(buffer.bytes() == 12);
    CHECK(buffer.download() == std::vector<int>{1, 2, 3});
    buffer.fill_bytes(0xFF);
    CHECK(buffer.download() == std::vector<int>{-1, -1, -1});

    course::DeviceBuffer<int> moved(std::move(buffer));
    CHECK(moved.size() == 3);
    CHECK(buffer.size() == 0);
    CHECK(buffer.data() == nullptr);
    CHECK_THROWS_AS(moved.upload(std::vector<int>{1}), course::Error);  // wrong size

    course::PinnedBuffer<int> pinned(3);
    moved.download(pinned.data(), pinned.size());
    CHECK(pinned[2] == -1);
}

TEST_CASE("a failing CUDA call names the file, the line and the expression") {
    if (course::testing::under_sanitizer()) return;
    try {
        CUDA_CHECK(cudaSetDevice(-1));
        FAIL("no exception");
    } catch (const course::CudaError& error) {
        const std::string message = error.what();
        CHECK(message.find("test_gpu_harness.cpp:") != std::string::npos);
        CHECK(message.find("cudaSetDevice(-1) failed: cudaErrorInvalidDevice") != std::string::npos);
        CHECK(error.code == cudaErrorInvalidDevice);
    }
    CUDA_CHECK(cudaSetDevice(harness().device.ordinal));
}

TEST_CASE("a bad launch is caught right after the launch") {
    if (course::testing::under_sanitizer()) return;
    try {
        test_kernels::launch_too_many_threads(nullptr);
        FAIL("no exception");
    } catch (const course::CudaError& error) {
        // CUDA 12 calls it an invalid configuration, CUDA 13 an invalid argument.
        CHECK((error.code == cudaErrorInvalidConfiguration || error.code == cudaErrorInvalidValue));
        CHECK(std::string(error.what()).find("gpu_helpers.cu:") != std::string::npos);
        CHECK(std::string(error.what()).find("cudaGetLastError() failed") != std::string::npos);
    }
}

TEST_CASE("asking for more memory than the GPU has is refused with a reason") {
    // Only cudaMemGetInfo is called: no failing call, so this runs under the sanitizer too.
    CHECK_THROWS_WITH_AS(course::require_device_memory(std::size_t{1} << 50, "n = 2^48 floats"),
                         doctest::Contains("n = 2^48 floats needs 1024 TiB of GPU memory"), course::UsageError);
    CHECK_NOTHROW(course::require_device_memory(1024, "a little"));
}

TEST_CASE("timing: positive, ordered statistics over the asked number of runs") {
    IndexProblem problem(1 << 20);
    course::TimingConfig config;
    config.runs = 9;
    const auto stats = course::time_launches(problem.run(test_kernels::write_index).launch, config, &harness().flusher,
                                             harness().stream.get());
    CHECK(stats.runs == 9);
    CHECK(stats.min_ms > 0.0);
    CHECK(stats.min_ms <= stats.median_ms);
    CHECK(stats.median_ms <= stats.max_ms);
}

TEST_CASE("measure: a correct kernel passes both checks") {
    IndexProblem problem(4097);
    const auto rung = course::measure(harness(), named("01"), problem.run(test_kernels::write_index));
    CHECK(rung.check.ok);
    CHECK(rung.time.runs == harness().timing.runs);
}

TEST_CASE("measure: an unwritten element fails, caught by the poison") {
    IndexProblem problem(4097);
    const auto rung = course::measure(harness(), named("01"), problem.run(test_kernels::write_first_half));
    CHECK_FALSE(rung.check.ok);
    CHECK(rung.check.first_bad == 2048);
    CHECK(rung.check.mismatches == 4097 - 2048);
    CHECK(rung.check.summary().find("got NaN") != std::string::npos);
}

TEST_CASE("measure: a kernel that works only on its first call fails the second call") {
    IndexProblem problem(1000);
    const auto rung = course::measure(harness(), named("01"), problem.run(test_kernels::write_once));
    CHECK_FALSE(rung.check.ok);
    CHECK(rung.check.summary().find("(second call with new inputs in the same buffers") != std::string::npos);
}

TEST_CASE("record_launches lists what a launcher enqueues, without running it") {
    course::DeviceBuffer<float> out(1000);
    out.fill_bytes(0);
    const auto record = course::record_launches([&](cudaStream_t s) {
        test_kernels::write_index(out.data(), 1000, s);
        out.fill_bytes(0xFF, s);
        test_kernels::write_first_half(out.data(), 1000, s);
    });
    REQUIRE(record.kernels.size() == 2);
    CHECK(record.other_operations == 1);     // the memset
    CHECK(record.kernels[0].blocks() == 4);  // 1000 values, 256 per block
    CHECK(record.kernels[1].blocks() == 2);  // 500 values
    CHECK(record.kernels[0].threads_per_block() == 256);
    CHECK(record.kernels[0].attributes.numRegs > 0);
    CHECK(out.download()[999] == 0.0f);  // captured, never run
}

TEST_CASE("the read-only sweep measures a plausible bandwidth") {
    if (!course::testing::timing_is_meaningful()) return;
    const std::size_t bytes = std::size_t{256} << 20;
    const auto stats = course::measure_read_sweep(harness(), bytes);
    const double gbps = static_cast<double>(bytes) / (stats.median_ms * 1e-3) / 1e9;
    MESSAGE("read sweep of 256 MiB: ", gbps, " GB/s; theoretical peak ", harness().device.peak_dram_gbps);
    CHECK(gbps > 0.3 * harness().device.peak_dram_gbps);
    CHECK(gbps < 1.05 * harness().device.peak_dram_gbps);
}
