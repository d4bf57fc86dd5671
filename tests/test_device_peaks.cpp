// Peak formulas against the published figures of known GPUs.
#include "doctest_include.h"

#include "course/device.h"

#include <cuda_runtime.h>

#include <string>

TEST_CASE("DRAM bandwidth from memory clock and bus width") {
    // H100 SXM5 (HBM3): 2619 MHz, 5120-bit bus -> 3.35 TB/s.
    CHECK(course::peak_dram_gbps(2619000, 5120) == doctest::Approx(3352.3).epsilon(1e-4));
    // A100 40 GB (HBM2): 1215 MHz, 5120-bit -> 1555 GB/s.
    CHECK(course::peak_dram_gbps(1215000, 5120) == doctest::Approx(1555.2).epsilon(1e-4));
    // RTX 3090 (GDDR6X): the driver reports 9751 MHz on a 384-bit bus -> 936 GB/s.
    CHECK(course::peak_dram_gbps(9751000, 384) == doctest::Approx(936.1).epsilon(1e-4));
}

TEST_CASE("FP32 lanes per multiprocessor by compute capability") {
    CHECK(course::fp32_lanes_per_sm(7, 0) == 64);   // V100
    CHECK(course::fp32_lanes_per_sm(7, 5) == 64);   // T4
    CHECK(course::fp32_lanes_per_sm(8, 0) == 64);   // A100
    CHECK(course::fp32_lanes_per_sm(8, 6) == 128);  // RTX 30xx
    CHECK(course::fp32_lanes_per_sm(8, 9) == 128);  // RTX 40xx, L4
    CHECK(course::fp32_lanes_per_sm(9, 0) == 128);  // H100, H200
    CHECK(course::fp32_lanes_per_sm(1, 0) == 0);    // unknown: the caller warns
}

TEST_CASE("a step that needs a later GPU is left out with a line that says which") {
    // Hopper (9.0) and later have what a Hopper step needs.
    CHECK(course::capability_missing(9, 0, 90, "hgemm step 06") == "");
    CHECK(course::capability_missing(10, 0, 90, "hgemm step 06") == "");
    CHECK(course::capability_missing(7, 5, 0, "any step") == "");
    CHECK(course::capability_missing(8, 9, 90, "hgemm step 06 (TMA)") ==
          "hgemm step 06 (TMA) needs compute capability 9.0 (Hopper) or later; this GPU is 8.9: left out");
    CHECK(course::capability_missing(7, 5, 80, "cp.async") ==
          "cp.async needs compute capability 8.0 (Ampere) or later; this GPU is 7.5: left out");
}

TEST_CASE("FP32 peak: SMs x lanes x 2 FLOP x clock") {
    // H100 SXM5: 132 SMs x 128 x 2 x 1980 MHz = 66.9 TFLOP/s.
    CHECK(course::peak_fp32_gflops(132, 128, 1980000) == doctest::Approx(66908.2).epsilon(1e-4));
    // A100: 108 x 64 x 2 x 1410 MHz = 19.5 TFLOP/s.
    CHECK(course::peak_fp32_gflops(108, 64, 1410000) == doctest::Approx(19491.8).epsilon(1e-4));
}

TEST_CASE("byte counts read well") {
    CHECK(course::format_bytes(17) == "17 B");
    CHECK(course::format_bytes(12 * 1024) == "12 KiB");
    CHECK(course::format_bytes(768.0 * 1024 * 1024) == "768 MiB");
    CHECK(course::format_bytes(1.5 * 1024 * 1024 * 1024) == "1.50 GiB");
}

TEST_CASE("without a GPU, the reason names what is missing, never a driver version to upgrade") {
    // On a machine with a GPU this only checks that one is found; on one
    // without a driver (CI) the CUDA runtime itself says "driver version is
    // insufficient", which the course must not pass on.
    std::string why;
    if (course::gpu_available(&why)) return;
    MESSAGE(why);
    CHECK(!why.empty());
    CHECK(why.find("insufficient") == std::string::npos);
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess && driver == 0)
        CHECK(why.find("no NVIDIA driver or GPU found") != std::string::npos);
}
