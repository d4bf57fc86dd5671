// The hgemm track's checking logic, on the CPU: the inputs, the tolerance
// rule against several models of FP32 accumulation, the tensor-core peak, the
// notes on the mma.sync ceiling, the command line. No GPU needed.
#include "doctest_include.h"

#include "course/check.h"
#include "course/options.h"
#include "tracks/hgemm/track.h"

#include "hgemm/sass.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using hgemm::Shape;

namespace {

struct Inputs {
    Shape shape;
    std::vector<float> a, b;  // FP16 values, as floats
};

Inputs random_inputs(Shape shape, std::uint64_t seed) {
    return {shape, hgemm::random_halves(static_cast<std::size_t>(shape.M) * shape.K, seed).as_float,
            hgemm::random_halves(static_cast<std::size_t>(shape.K) * shape.N, seed + 1).as_float};
}

// x rounded towards zero to a float (x is a double; the rounding to nearest
// is undone where it went away from zero).
float truncate_to_float(double x) {
    float f = static_cast<float>(x);
    if (std::fabs(static_cast<double>(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
    return f;
}

// How a dot product of FP16 values may be added up in FP32.
enum class Model {
    nearest,    // one sequential sum, each addition rounded to nearest (fmaf, like FFMA)
    truncated,  // one sequential sum, each addition truncated towards zero
    blocks,     // the tensor cores as Fasi et al. describe them: 16 exact products and the
                // accumulator aligned to the largest exponent, the bits below its 24 dropped,
                // then the sum truncated to FP32
};

float dot(const Inputs& in, int row, int col, Model model) {
    const int N = in.shape.N, K = in.shape.K;
    float sum = 0.0f;
    if (model != Model::blocks) {
        for (int k = 0; k < K; ++k) {
            const float a = in.a[row * K + k], b = in.b[k * N + col];
            sum = model == Model::nearest ? std::fmaf(a, b, sum)
                                          : truncate_to_float(static_cast<double>(a) * b + static_cast<double>(sum));
        }
        return sum;
    }
    for (int k0 = 0; k0 < K; k0 += 16) {
        double terms[17];
        int count = 0;
        terms[count++] = sum;
        for (int k = k0; k < std::min(K, k0 + 16); ++k)
            terms[count++] = static_cast<double>(in.a[row * K + k]) * in.b[k * N + col];  // exact
        double largest = 0;
        for (int t = 0; t < count; ++t) largest = std::max(largest, std::fabs(terms[t]));
        if (largest == 0) continue;
        const double unit = std::ldexp(1.0, std::ilogb(largest) - 23);  // the last of 24 bits of the largest
        double total = 0;
        for (int t = 0; t < count; ++t) total += std::trunc(terms[t] / unit) * unit;
        sum = truncate_to_float(total);
    }
    return sum;
}

std::vector<float> product(const Inputs& in, Model model) {
    std::vector<float> c(static_cast<std::size_t>(in.shape.M) * in.shape.N);
    for (int row = 0; row < in.shape.M; ++row)
        for (int col = 0; col < in.shape.N; ++col)
            c[static_cast<std::size_t>(row) * in.shape.N + col] = dot(in, row, col, model);
    return c;
}

}  // namespace

TEST_CASE("the inputs are FP16 values in [-1, 1], and the floats the reference reads are exactly those") {
    const hgemm::HalfValues values = hgemm::random_halves(10000, 3);
    REQUIRE(values.as_float.size() == 10000);
    REQUIRE(values.as_half.size() == 10000);
    bool fractions = false;
    for (std::size_t i = 0; i < values.as_float.size(); ++i) {
        CHECK(values.as_float[i] == __half2float(values.as_half[i]));
        CHECK(std::fabs(values.as_float[i]) <= 1.0f);
        fractions = fractions || values.as_float[i] != std::round(values.as_float[i]);
    }
    CHECK(fractions);
    CHECK(hgemm::random_halves(100, 3).as_float ==
          std::vector<float>(values.as_float.begin(), values.as_float.begin() + 100));
}

TEST_CASE("products of two FP16 values are exact in FP32") {
    const hgemm::HalfValues a = hgemm::random_halves(4096, 5), b = hgemm::random_halves(4096, 6);
    for (std::size_t i = 0; i < a.as_float.size(); ++i)
        CHECK(static_cast<double>(a.as_float[i] * b.as_float[i]) ==
              static_cast<double>(a.as_float[i]) * static_cast<double>(b.as_float[i]));
}

TEST_CASE("the tolerance is 8 sqrt(K) units of 2^-24") {
    CHECK(hgemm::relative_tolerance(1) == doctest::Approx(8 * 0x1.0p-24));
    CHECK(hgemm::relative_tolerance(4096) == doctest::Approx(512 * 0x1.0p-24));
    CHECK(hgemm::relative_tolerance(100) > hgemm::relative_tolerance(99));
}

TEST_CASE("every element is checked up to 1024^3, a sample above") {
    CHECK(hgemm::checks_every_element({1, 1, 1}));
    CHECK(hgemm::checks_every_element({1023, 1023, 1023}));
    CHECK(hgemm::checks_every_element({1024, 1024, 1024}));
    CHECK_FALSE(hgemm::checks_every_element({1025, 1025, 1025}));
    CHECK_FALSE(hgemm::checks_every_element({1000, 3000, 500}));
}

TEST_CASE("the sampled reference agrees with the full one") {
    const Inputs in = random_inputs({37, 29, 53}, 7);
    const hgemm::Reference all = hgemm::reference_all(in.a, in.b, in.shape);
    const hgemm::Reference some = hgemm::reference_at(in.a, in.b, in.shape, hgemm::sample_indices(in.shape, 100, 11));
    REQUIRE_FALSE(some.every_element);
    for (std::size_t s = 0; s < some.indices.size(); ++s) {
        CHECK(some.want[s] == doctest::Approx(all.want[some.indices[s]]).epsilon(1e-12));
        CHECK(some.scale[s] == doctest::Approx(all.scale[some.indices[s]]).epsilon(1e-12));
    }
}

TEST_CASE("FP32 sums pass the rule rounded to nearest, truncated, or in the tensor cores' blocks, with room") {
    // The largest error over 48 x 48 outputs per K, as a fraction of the
    // tolerance, for each model of the accumulation.
    for (const int K : {1, 17, 129, 1000, 4096}) {
        const Inputs in = random_inputs({48, 48, K}, 1000 + K);
        const hgemm::Reference reference = hgemm::reference_all(in.a, in.b, in.shape);
        for (const Model model : {Model::nearest, Model::truncated, Model::blocks}) {
            const std::vector<float> c = product(in, model);
            const auto result = hgemm::compare_with_reference(c.data(), reference);
            CAPTURE(K);
            CAPTURE(static_cast<int>(model));
            CHECK_MESSAGE(result.ok, result.summary());
            double worst = 0;
            for (std::size_t i = 0; i < c.size(); ++i)
                if (reference.scale[i] > 0)
                    worst = std::max(worst, std::fabs(c[i] - reference.want[i]) /
                                                (hgemm::relative_tolerance(K) * reference.scale[i]));
            MESSAGE("K = ", K, ", model ", static_cast<int>(model), ": largest error = ", worst, " of the tolerance");
            CHECK(worst < 0.5);
        }
    }
}

TEST_CASE("the rule catches a dropped term, a sum kept in FP16, a swapped element, NaN") {
    const int M = 48, N = 48, K = 4096;
    const Inputs in = random_inputs({M, N, K}, 99);
    const hgemm::Reference reference = hgemm::reference_all(in.a, in.b, in.shape);
    const std::vector<float> good = product(in, Model::nearest);
    SUBCASE("one term left out of every dot product: off by |a b|, 0.25 on average") {
        std::vector<float> c = good;
        for (int row = 0; row < M; ++row)
            for (int col = 0; col < N; ++col) c[row * N + col] -= in.a[row * K + K - 1] * in.b[(K - 1) * N + col];
        const auto result = hgemm::compare_with_reference(c.data(), reference);
        CHECK_FALSE(result.ok);
        CHECK(result.mismatches > M * N * 8 / 10);  // |a b| is below the tolerance (0.03) for about 15%
    }
    SUBCASE("the sum kept in FP16 (an FP16 accumulator)") {
        std::vector<float> c(good.size());
        for (int row = 0; row < M; ++row)
            for (int col = 0; col < N; ++col) {
                __half sum = __float2half(0.0f);
                for (int k = 0; k < K; ++k)
                    sum = __float2half_rn(__half2float(sum) + in.a[row * K + k] * in.b[k * N + col]);
                c[row * N + col] = __half2float(sum);
            }
        const auto result = hgemm::compare_with_reference(c.data(), reference);
        CHECK(result.mismatches > M * N / 2);
    }
    SUBCASE("a neighbour's value (row and column swapped)") {
        std::vector<float> c = good;
        std::swap(c[5 * N + 6], c[6 * N + 5]);
        const auto result = hgemm::compare_with_reference(c.data(), reference);
        CHECK(result.mismatches == 2);
        CHECK(result.summary().find("(row 5, col 6)") != std::string::npos);
    }
    SUBCASE("NaN, the harness's first poison") {
        std::vector<float> c = good;
        c[100] = std::numeric_limits<float>::quiet_NaN();
        CHECK(hgemm::compare_with_reference(c.data(), reference).mismatches == 1);
    }
}

TEST_CASE("the tensor-core peak: the whitepapers' figures") {
    // FLOP per clock per SM, dense FP16 with FP32 accumulation.
    CHECK(hgemm::tensor_flops_per_clock_per_sm(7, 5) == 1024);
    CHECK(hgemm::tensor_flops_per_clock_per_sm(8, 0) == 2048);
    CHECK(hgemm::tensor_flops_per_clock_per_sm(8, 6) == 1024);
    CHECK(hgemm::tensor_flops_per_clock_per_sm(8, 9) == 1024);
    CHECK(hgemm::tensor_flops_per_clock_per_sm(9, 0) == 4096);
    CHECK(hgemm::tensor_flops_per_clock_per_sm(10, 0) == 0);  // no figure: no ceiling
    CHECK(hgemm::tensor_flops_per_clock_per_sm(6, 1) == 0);   // no tensor cores
    // Tesla T4: 40 SMs at 1590 MHz, 65 TFLOP/s in its datasheet.
    CHECK(hgemm::tensor_peak_gflops(40, 1590000, 1024) == doctest::Approx(65126.4));
    // A100: 108 SMs at 1410 MHz, 312 TFLOP/s in its whitepaper.
    CHECK(hgemm::tensor_peak_gflops(108, 1410000, 2048) == doctest::Approx(311869.4).epsilon(1e-6));
    // H100 SXM5: 132 SMs at 1830 MHz, 989.4 TFLOP/s in its whitepaper.
    CHECK(hgemm::tensor_peak_gflops(132, 1830000, 4096) == doctest::Approx(989429.8).epsilon(1e-6));
}

namespace {

// A ladder row of `gflops` (one run of 1 GFLOP timed at 1000 / gflops ms).
course::Rung row_of(const std::string& label, double gflops, bool library = false, bool ok = true) {
    course::Rung rung;
    rung.label = label;
    rung.library = library;
    rung.work = 1e9;
    rung.time.median_ms = 1e3 / gflops;
    rung.check.ok = ok;
    return rung;
}

hgemm::MmaCeiling ceiling_of(double gflops) {
    hgemm::MmaCeiling ceiling;
    ceiling.flops = 2e11;
    ceiling.time.median_ms = 2e11 / (gflops * 1e9) * 1e3;
    return ceiling;
}

}  // namespace

TEST_CASE("the mma.sync ceiling's notes: its share of the peak, the fastest of steps 01 to 06, and no ceiling above "
          "the peak") {
    const double peak = 1000000;  // GFLOP/s
    const std::vector<course::Rung> rungs = {
        row_of("04", 300000),
        row_of("05", 450000),
        row_of("06", 500000, false, false),  // faster, but failed its check: left out
        row_of("07", 650000),                // wgmma: not under this ceiling
        row_of("ref", 700000, true),
    };
    const std::vector<std::string> notes = hgemm::mma_sync_ceiling_notes(ceiling_of(600000), peak, rungs);
    REQUIRE(notes.size() == 2);
    CHECK(notes[0] ==
          "ceiling of steps 01 to 06 (WMMA and mma.sync): mma.sync m16n8k16 from registers alone, no memory traffic, "
          "0.3333 ms for 200.0 GFLOP = 600000.0 GFLOP/s (60.0% of the peak)");
    CHECK(notes[1] == "step 05, the fastest of them, reaches 75.0% of that ceiling");

    // No peak known: no share of it, and nothing to check against.
    const std::vector<std::string> unknown = hgemm::mma_sync_ceiling_notes(ceiling_of(600000), 0, rungs);
    REQUIRE(unknown.size() == 2);
    CHECK(unknown[0].find("% of the peak") == std::string::npos);

    // No row of steps 01 to 06 that passed: the ceiling alone.
    CHECK(hgemm::mma_sync_ceiling_notes(ceiling_of(600000), peak, {row_of("07", 650000), row_of("ref", 1, true)})
              .size() == 1);

    // Above the peak (past the margin every ceiling allows), or no time at
    // all: the measurement is wrong, and the program stops.
    CHECK_NOTHROW(hgemm::mma_sync_ceiling_notes(ceiling_of(peak * course::kPeakCeilingMargin * 0.999), peak, rungs));
    CHECK_THROWS_AS(hgemm::mma_sync_ceiling_notes(ceiling_of(peak * course::kPeakCeilingMargin * 1.001), peak, rungs),
                    course::Error);
    hgemm::MmaCeiling no_time = ceiling_of(600000);
    no_time.time.median_ms = 0;
    CHECK_THROWS_AS(hgemm::mma_sync_ceiling_notes(no_time, peak, rungs), course::Error);
}

TEST_CASE("--size: one number or MxNxK, each matrix under 2^31 elements") {
    course::Options options;
    CHECK(hgemm::shape_from(options).describe() == "4096 x 4096 x 4096");
    options.size = "1000x3000x500";
    CHECK(hgemm::shape_from(options).describe() == "1000 x 3000 x 500");
    for (const std::string bad : {"46341", "2x3", "0x5x5", "65536x65536x1"}) {
        options.size = bad;
        CAPTURE(bad);
        CHECK_THROWS_AS(hgemm::shape_from(options), course::UsageError);
    }
}

TEST_CASE("a Hopper step has no row on an older GPU, and the ladder says which compute capability it needs") {
    const hgemm::Step any{5, "swizzled", nullptr, nullptr};
    const hgemm::Step hopper{6, "TMA", nullptr, nullptr, hgemm::kHopper};
    course::DeviceInfo ampere, hopper_gpu;
    ampere.cc_major = 8;
    ampere.cc_minor = 6;
    hopper_gpu.cc_major = 9;
    hopper_gpu.cc_minor = 0;
    CHECK(hgemm::step_missing(any, ampere) == "");
    CHECK(hgemm::step_missing(hopper, hopper_gpu) == "");
    CHECK(hgemm::step_missing(hopper, ampere) ==
          "hgemm step 06 (TMA) needs compute capability 9.0 (Hopper) or later; this GPU is 8.6: left out");
}

TEST_CASE("step 07's check reads a kernel's HGMMA and HMMA from cuobjdump's listing, that kernel's alone") {
    // Made up in cuobjdump -sass's form: a library of two objects, the first
    // with code for two architectures.
    const std::string listing = "member libhgemm.a:a.o:\n"
                                "\n"
                                "Fatbin elf code:\n"
                                "================\n"
                                "arch = sm_75\n"
                                "\n"
                                "\tcode for sm_75\n"
                                "\t\tFunction : _ZN12_GLOBAL__N_111hgemm_wgmmaEv\n"
                                "\t.headerflags\t@\"EF_CUDA_SM75 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM75)\"\n"
                                "        /*0000*/                   EXIT ;\n"
                                "\n"
                                "Fatbin elf code:\n"
                                "================\n"
                                "arch = sm_90a\n"
                                "\n"
                                "\tcode for sm_90a\n"
                                "\t\tFunction : _ZN12_GLOBAL__N_111hgemm_wgmmaEv\n"
                                "        /*0a80*/                   HGMMA.64x256x16.F32 R24, gdesc[UR8], R24 ;\n"
                                "        /*0ab0*/                   HGMMA.64x256x16.F32 R24, gdesc[UR12], R24, gsb0 ;\n"
                                "        /*0ac0*/                   WARPGROUP.DEPBAR.LE gsb0, 0x1 ;\n"
                                "\t\tFunction : _ZN12_GLOBAL__N_19hgemm_tmaEv \n"
                                "        /*0b00*/                   HMMA.16816.F32 R4, R8, R12, R4 ;\n"
                                "        /*0b10*/                   HMMA.16816.F32 R16, R8, R14, R16 ;\n"
                                "        /*0b20*/                   HMMA.16816.F32 R20, R8, R18, R20 ;\n"
                                "\n"
                                "member libhgemm.a:b.o:\n"
                                "\t\tFunction : _Z5otherv\n"
                                "        /*0000*/                   HGMMA.64x128x16.F32 R24, gdesc[UR4], RZ ;\n";
    const auto wgmma = hgemm::testing::count_tensor_instructions(listing, "_ZN12_GLOBAL__N_111hgemm_wgmmaEv");
    CHECK(wgmma.found);
    CHECK(wgmma.hgmma == 2);
    CHECK(wgmma.hmma == 0);
    const auto tma = hgemm::testing::count_tensor_instructions(listing, "_ZN12_GLOBAL__N_19hgemm_tmaEv");
    CHECK(tma.found);  // the trailing space after the name is not part of it
    CHECK(tma.hgmma == 0);
    CHECK(tma.hmma == 3);
    CHECK(tma.functions == "_ZN12_GLOBAL__N_111hgemm_wgmmaEv, _ZN12_GLOBAL__N_19hgemm_tmaEv, _Z5otherv");
    const auto missing = hgemm::testing::count_tensor_instructions(listing, "_Z7missingv");
    CHECK_FALSE(missing.found);
    CHECK(missing.hgmma == 0);
    CHECK_FALSE(hgemm::testing::count_tensor_instructions("", "_Z5otherv").found);
}

TEST_CASE("step 06's check reads a kernel's UTMALDG from cuobjdump's listing, that kernel's alone") {
    // Made up in cuobjdump -sass's form: a kernel that copies with the TMA
    // (cp.async.bulk.tensor.2d compiles to UTMALDG.2D) beside one that takes
    // tensor maps and copies with LDGSTS (cp.async) instead.
    const std::string listing = "\tcode for sm_90a\n"
                                "\t\tFunction : _ZN12_GLOBAL__N_19hgemm_tmaEv\n"
                                "        /*0300*/                   UTMALDG.2D [UR8], [UR4] ;\n"
                                "        /*0310*/                   UTMALDG.2D [UR16], [UR12] ;\n"
                                "        /*0a80*/                   HMMA.16816.F32 R4, R8, R12, R4 ;\n"
                                "\t\tFunction : _ZN12_GLOBAL__N_111maps_unusedEv\n"
                                "        /*0100*/                   LDGSTS.E.BYPASS.128 [R3], desc[UR6][R4.64] ;\n";
    const auto tma = hgemm::testing::count_tensor_instructions(listing, "_ZN12_GLOBAL__N_19hgemm_tmaEv");
    CHECK(tma.found);
    CHECK(tma.utmaldg == 2);
    const auto unused = hgemm::testing::count_tensor_instructions(listing, "_ZN12_GLOBAL__N_111maps_unusedEv");
    CHECK(unused.found);
    CHECK(unused.utmaldg == 0);
}

TEST_CASE("step 08's check reads a kernel's USETMAXREG from cuobjdump's listing, that kernel's alone") {
    // Made up in cuobjdump -sass's form: a warp-specialised kernel (the
    // producer's DEALLOC, the consumers' TRY_ALLOC and its retry loop) beside
    // step 07's, which has none.
    const std::string listing =
        "\tcode for sm_90a\n"
        "\t\tFunction : _ZN12_GLOBAL__N_117hgemm_specialisedEv\n"
        "        /*0100*/                   USETMAXREG.DEALLOC.CTAPOOL 0x28 ;\n"
        "        /*0200*/                   USETMAXREG.TRY_ALLOC.CTAPOOL P0, 0xe8 ;\n"
        "        /*0210*/               @!P0 BRA 0x200 ;\n"
        "        /*0a80*/                   HGMMA.64x256x16.F32 R24, gdesc[UR8], R24, gsb0 ;\n"
        "\t\tFunction : _ZN12_GLOBAL__N_111hgemm_wgmmaEv\n"
        "        /*0a80*/                   HGMMA.64x256x16.F32 R24, gdesc[UR8], R24 ;\n"
        "        /*0ab0*/                   HGMMA.64x256x16.F32 R24, gdesc[UR12], R24, gsb0 ;\n";
    const auto specialised =
        hgemm::testing::count_tensor_instructions(listing, "_ZN12_GLOBAL__N_117hgemm_specialisedEv");
    CHECK(specialised.found);
    CHECK(specialised.setmaxnreg == 2);
    CHECK(specialised.hgmma == 1);
    const auto wgmma = hgemm::testing::count_tensor_instructions(listing, "_ZN12_GLOBAL__N_111hgemm_wgmmaEv");
    CHECK(wgmma.found);
    CHECK(wgmma.setmaxnreg == 0);
    CHECK(wgmma.hgmma == 2);
}
