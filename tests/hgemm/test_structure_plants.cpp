// The grading checks itself (hgemm 01 to 09): each step's checks without a
// clock (tests/hgemm/structure.h) must pass the step's solution and fail the
// untouched starter of the step, which is the previous step's solution (step
// 01's starter writes nothing and fails on its results instead). A change
// that loosens a check so far that its starter passes fails here.
#include "doctest_include.h"
#include "gpu_test.h"
#include "hgemm/structure.h"

namespace hgemm::plants {
// tests/hgemm/plant_maps_unused.cu
void maps_unused(const __half* A, const __half* B, float* C, int M, int N, int K, cudaStream_t stream);
}  // namespace hgemm::plants

namespace {

void expect(const hgemm::testing::StructureCheck& check, bool ok, const std::string& who) {
    MESSAGE(who, ": ", check.what);
    CHECK_MESSAGE(check.ok == ok, who, (ok ? " should pass: " : " should fail: "), check.what);
}

}  // namespace

TEST_CASE("step 01's one-warp-per-tile check passes step 01's solution and fails step 02's warp tiles") {
    expect(hgemm::testing::check_one_warp_per_tile(hgemm::step01_wmma), true, "step 01's solution");
    expect(hgemm::testing::check_one_warp_per_tile(hgemm::step02_wmma_shared), false, "step 02's solution");
}

TEST_CASE("step 02's warp-tile check fails step 01's solution (the starter) and passes step 02's") {
    expect(hgemm::testing::check_warp_tiles(hgemm::step01_wmma), false, "step 01's solution (the starter)");
    expect(hgemm::testing::check_warp_tiles(hgemm::step02_wmma_shared), true, "step 02's solution");
}

TEST_CASE("step 02's shared-tiles check passes step 02's solution") {
    expect(hgemm::testing::check_shared_tiles(hgemm::step02_wmma_shared), true, "step 02's solution");
}

TEST_CASE("step 03's no-staging check fails step 02's solution (the starter) and passes step 03's") {
    expect(hgemm::testing::check_no_staging(hgemm::step02_wmma_shared), false, "step 02's solution (the starter)");
    expect(hgemm::testing::check_no_staging(hgemm::step03_mma_ldmatrix), true, "step 03's solution");
}

TEST_CASE("step 04's stages check fails step 03's solution (the starter) and passes step 04's") {
    expect(hgemm::testing::check_stages(hgemm::step03_mma_ldmatrix), false, "step 03's solution (the starter)");
    expect(hgemm::testing::check_stages(hgemm::step04_async_copies), true, "step 04's solution");
}

TEST_CASE("step 05's packed-tiles check fails step 04's solution (the starter) and passes step 05's") {
    expect(hgemm::testing::check_packed_warp_tiles(hgemm::step04_async_copies), false,
           "step 04's solution (the starter)");
    expect(hgemm::testing::check_packed_warp_tiles(hgemm::step05_swizzled), true, "step 05's solution");
}

TEST_CASE("step 06's tensor-map check fails step 05's solution (the starter) and a kernel that leaves its maps unused, "
          "and passes step 06's") {
    const course::DeviceInfo& device = course::testing::harness().device;
    const std::string missing =
        course::capability_missing(device.cc_major, device.cc_minor, hgemm::kHopper, "step 06's tensor-map check");
    if (!missing.empty()) {
        MESSAGE(missing);
        return;
    }
    bool skipped = false;
    const auto starter = hgemm::testing::check_tensor_maps(hgemm::step05_swizzled, HGEMM_SOLUTION_05_LIBRARY, &skipped);
    if (skipped) {
        MESSAGE(starter.what);
        return;
    }
    expect(starter, false, "step 05's solution (the starter)");
    expect(hgemm::testing::check_tensor_maps(hgemm::step06_tma, HGEMM_SOLUTION_06_LIBRARY), true, "step 06's solution");
    // Two tensor maps taken and never used: the parameters alone would pass.
    expect(hgemm::testing::check_tensor_maps(hgemm::plants::maps_unused, HGEMM_PLANT_MAPS_UNUSED_LIBRARY), false,
           "a kernel that takes two tensor maps and copies nothing through them");
}

TEST_CASE("step 07's wgmma check fails step 06's solution (the starter) and passes step 07's") {
    const course::DeviceInfo& device = course::testing::harness().device;
    const std::string missing =
        course::capability_missing(device.cc_major, device.cc_minor, hgemm::kHopper, "step 07's wgmma check");
    if (!missing.empty()) {
        MESSAGE(missing);
        return;
    }
    expect(hgemm::testing::check_wgmma_instructions(hgemm::step06_tma, HGEMM_SOLUTION_06_LIBRARY), false,
           "step 06's solution (the starter)");
    expect(hgemm::testing::check_wgmma_instructions(hgemm::step07_wgmma, HGEMM_SOLUTION_07_LIBRARY), true,
           "step 07's solution");
}

TEST_CASE("step 08's warp-specialisation check fails step 07's solution (the starter) and passes step 08's") {
    const course::DeviceInfo& device = course::testing::harness().device;
    const std::string missing = course::capability_missing(device.cc_major, device.cc_minor, hgemm::kHopper,
                                                           "step 08's warp-specialisation check");
    if (!missing.empty()) {
        MESSAGE(missing);
        return;
    }
    expect(hgemm::testing::check_warp_specialised(hgemm::step07_wgmma, HGEMM_SOLUTION_07_LIBRARY), false,
           "step 07's solution (the starter)");
    expect(hgemm::testing::check_warp_specialised(hgemm::step08_warp_specialised, HGEMM_SOLUTION_08_LIBRARY), true,
           "step 08's solution");
}

TEST_CASE("step 09's any-shape check fails step 08's solution (the starter) and passes step 09's") {
    const course::DeviceInfo& device = course::testing::harness().device;
    const std::string missing =
        course::capability_missing(device.cc_major, device.cc_minor, hgemm::kHopper, "step 09's any-shape check");
    if (!missing.empty()) {
        MESSAGE(missing);
        return;
    }
    expect(hgemm::testing::check_any_shape_on_tma(hgemm::step08_warp_specialised), false,
           "step 08's solution (the starter)");
    expect(hgemm::testing::check_any_shape_on_tma(hgemm::step09_any_shape), true, "step 09's solution");
}
