// The matmul track's checking logic, on the CPU: the tolerance rule, the
// references, the sample, the command line, the reading of machine code for
// step 09's grading. No GPU needed.
#include "doctest_include.h"

#include "course/check.h"
#include "course/options.h"
#include "course/random.h"
#include "sass_text.h"
#include "tracks/matmul/track.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using matmul::Shape;

namespace {

struct Inputs {
    Shape shape;
    std::vector<float> a, b;
};

Inputs random_inputs(Shape shape, std::uint64_t seed) {
    return {shape, course::random_floats(static_cast<std::size_t>(shape.M) * shape.K, -1.0f, 1.0f, seed),
            course::random_floats(static_cast<std::size_t>(shape.K) * shape.N, -1.0f, 1.0f, seed + 1)};
}

// C = A * B in FP32 as a GPU kernel would compute it: each dot product summed
// in float, in one of several orders. `blocks` partial sums, each over a
// contiguous run of k, added at the end (1: one sequential sum, as steps 01
// to 08 do; 8 or 64: as a split-K kernel might); fmaf like the GPU's FFMA.
std::vector<float> float_product(const Inputs& in, int blocks) {
    const int M = in.shape.M, N = in.shape.N, K = in.shape.K;
    std::vector<float> c(static_cast<std::size_t>(M) * N);
    for (int row = 0; row < M; ++row) {
        for (int col = 0; col < N; ++col) {
            float total = 0.0f;
            for (int block = 0; block < blocks; ++block) {
                float partial = 0.0f;
                for (int k = K * block / blocks; k < K * (block + 1) / blocks; ++k)
                    partial = std::fmaf(in.a[row * K + k], in.b[k * N + col], partial);
                total += partial;
            }
            c[static_cast<std::size_t>(row) * N + col] = total;
        }
    }
    return c;
}

}  // namespace

TEST_CASE("the tolerance is 4 sqrt(K) units of 2^-24") {
    CHECK(matmul::relative_tolerance(1) == doctest::Approx(4 * 0x1.0p-24));
    CHECK(matmul::relative_tolerance(4096) == doctest::Approx(256 * 0x1.0p-24));
    CHECK(matmul::relative_tolerance(100) > matmul::relative_tolerance(99));
}

TEST_CASE("every element is checked up to 1024^3, a sample above") {
    CHECK(matmul::checks_every_element({1, 1, 1}));
    CHECK(matmul::checks_every_element({1000, 1000, 1000}));
    CHECK(matmul::checks_every_element({1024, 1024, 1024}));
    CHECK_FALSE(matmul::checks_every_element({1025, 1024, 1024}));
    CHECK_FALSE(matmul::checks_every_element({4096, 4096, 1}));  // 16 M outputs
    CHECK_FALSE(matmul::checks_every_element({2053, 2053, 2053}));
}

TEST_CASE("the reference: values and scales in double precision") {
    // [1 -2 3; 0.5 1 -1] * [1 2; 3 -4; 0.25 1]
    const Inputs in{{2, 2, 3}, {1, -2, 3, 0.5f, 1, -1}, {1, 2, 3, -4, 0.25f, 1}};
    const matmul::Reference all = matmul::reference_all(in.a, in.b, in.shape);
    REQUIRE(all.every_element);
    CHECK(all.want == std::vector<double>{1 - 6 + 0.75, 2 + 8 + 3, 0.5 + 3 - 0.25, 1 - 4 - 1});
    CHECK(all.scale == std::vector<double>{1 + 6 + 0.75, 2 + 8 + 3, 0.5 + 3 + 0.25, 1 + 4 + 1});
    CHECK_THROWS_AS(matmul::reference_all(in.a, in.b, Shape{2, 2, 2}), course::Error);
}

TEST_CASE("the sampled reference agrees with the full one") {
    const Inputs in = random_inputs({37, 29, 53}, 7);
    const matmul::Reference all = matmul::reference_all(in.a, in.b, in.shape);
    const matmul::Reference some =
        matmul::reference_at(in.a, in.b, in.shape, matmul::sample_indices(in.shape, 100, 11));
    REQUIRE_FALSE(some.every_element);
    REQUIRE(some.indices.size() == some.want.size());
    for (std::size_t s = 0; s < some.indices.size(); ++s) {
        CHECK(some.want[s] == doctest::Approx(all.want[some.indices[s]]).epsilon(1e-12));
        CHECK(some.scale[s] == doctest::Approx(all.scale[some.indices[s]]).epsilon(1e-12));
    }
}

TEST_CASE("the sample: the last row, the last column, and seeded random elements") {
    const Shape shape{300, 200, 10};
    const auto indices = matmul::sample_indices(shape, 500, 42);
    CHECK(std::is_sorted(indices.begin(), indices.end()));
    CHECK(std::adjacent_find(indices.begin(), indices.end()) == indices.end());
    CHECK(indices.back() < 300u * 200u);
    for (std::size_t col = 0; col < 200; ++col)
        CHECK(std::binary_search(indices.begin(), indices.end(), 299 * 200 + col));
    for (std::size_t row = 0; row < 300; ++row)
        CHECK(std::binary_search(indices.begin(), indices.end(), row * 200 + 199));
    // 500 random ones on top of 499 edge elements, less a few repeats.
    CHECK(indices.size() > 950);
    CHECK(indices.size() <= 999);
    CHECK(indices == matmul::sample_indices(shape, 500, 42));
    CHECK(indices != matmul::sample_indices(shape, 500, 43));
    CHECK(matmul::sample_indices({1, 1, 1}, 10, 1) == std::vector<std::size_t>{0});
}

TEST_CASE("FP32 products pass the rule in any order of summation, with room to spare") {
    // The rule allows 4 sqrt(K) 2^-24 of the scale; on inputs uniform in
    // [-1, 1] the errors of FP32 sums stay well inside that. This measures
    // the largest error as a fraction of the tolerance, over 64 x 64 outputs
    // per K, for one sequential sum and for 8 and 64 partial sums.
    for (const int K : {1, 17, 129, 1000, 4096}) {
        const Inputs in = random_inputs({64, 64, K}, 1000 + K);
        const matmul::Reference reference = matmul::reference_all(in.a, in.b, in.shape);
        for (const int blocks : {1, 8, 64}) {
            if (blocks > K) continue;
            const std::vector<float> c = float_product(in, blocks);
            const auto result = matmul::compare_with_reference(c.data(), reference);
            CAPTURE(K);
            CAPTURE(blocks);
            CHECK_MESSAGE(result.ok, result.summary());
            double worst = 0;
            for (std::size_t i = 0; i < c.size(); ++i)
                worst = std::max(
                    worst, std::fabs(c[i] - reference.want[i]) / (matmul::relative_tolerance(K) * reference.scale[i]));
            MESSAGE("K = ", K, ", ", blocks, " partial sums: largest error = ", worst, " of the tolerance");
            CHECK(worst < 0.5);
        }
    }
}

TEST_CASE("the rule catches a dropped term, a wrong index, an unwritten element") {
    const Inputs in = random_inputs({64, 64, 4096}, 99);
    const matmul::Reference reference = matmul::reference_all(in.a, in.b, in.shape);
    const std::vector<float> good = float_product(in, 1);
    const int N = 64, K = 4096;
    SUBCASE("one term left out of every dot product: off by |a b|, 0.25 on average") {
        std::vector<float> c = good;
        for (int row = 0; row < 64; ++row)
            for (int col = 0; col < N; ++col) c[row * N + col] -= in.a[row * K + K - 1] * in.b[(K - 1) * N + col];
        const auto result = matmul::compare_with_reference(c.data(), reference);
        CHECK_FALSE(result.ok);
        CHECK(result.mismatches > 64 * 64 * 8 / 10);  // |a b| is below the tolerance (0.016) for about 8%
    }
    SUBCASE("a neighbour's value (row and column swapped)") {
        std::vector<float> c = good;
        std::swap(c[5 * N + 6], c[6 * N + 5]);
        const auto result = matmul::compare_with_reference(c.data(), reference);
        CHECK(result.mismatches == 2);
        CHECK(result.first_bad == 5 * N + 6);
        CHECK(result.summary().find("(row 5, col 6)") != std::string::npos);
    }
    SUBCASE("NaN, the harness's first poison") {
        std::vector<float> c = good;
        c[4095] = std::numeric_limits<float>::quiet_NaN();
        const auto result = matmul::compare_with_reference(c.data(), reference);
        CHECK(result.mismatches == 1);
        CHECK(result.summary().find("got NaN") != std::string::npos);
    }
}

TEST_CASE("a sampled check reports the element of C that is wrong") {
    const Inputs in = random_inputs({40, 30, 20}, 5);
    const matmul::Reference reference = matmul::reference_at(in.a, in.b, in.shape, {3, 17 * 30 + 29, 39 * 30 + 7});
    std::vector<float> c = float_product(in, 1);
    CHECK(matmul::compare_with_reference(c.data(), reference).ok);
    c[17 * 30 + 29] += 1.0f;
    c[17 * 30 + 28] += 1.0f;  // not in the sample: not seen
    const auto result = matmul::compare_with_reference(c.data(), reference);
    CHECK(result.checked == 3);
    CHECK(result.mismatches == 1);
    CHECK(result.first_bad == 17 * 30 + 29);
    CHECK(result.summary().find("(row 17, col 29)") != std::string::npos);
}

TEST_CASE("--size: one number or MxNxK, each matrix under 2^31 elements") {
    course::Options options;
    const Shape fallback = matmul::shape_from(options);
    CHECK((fallback.M == 4096 && fallback.N == 4096 && fallback.K == 4096));
    options.size = "2053";
    CHECK(matmul::shape_from(options).describe() == "2053 x 2053 x 2053");
    options.size = "31x33x17";
    CHECK(matmul::shape_from(options).describe() == "31 x 33 x 17");
    options.size = "2^12x2^12+1x1000";
    CHECK(matmul::shape_from(options).describe() == "4096 x 4097 x 1000");
    CHECK(matmul::shape_from(options).flops() == doctest::Approx(2.0 * 4096 * 4097 * 1000));
    options.size = "46340x46340x46340";  // 46340^2 < 2^31
    CHECK_NOTHROW(matmul::shape_from(options));
    for (const std::string bad : {"46341", "2x3", "0x5x5", "65536x65536x1", "1x1x2^31"}) {
        options.size = bad;
        CAPTURE(bad);
        CHECK_THROWS_AS(matmul::shape_from(options), course::UsageError);
    }
}

TEST_CASE("--steps: all, one step, or a range of steps") {
    const std::vector<course::OptionSpec> specs = {matmul::steps_option()};
    const auto range = [&](const std::vector<std::string>& args) {
        return matmul::steps_from(course::parse_options(args, specs));
    };
    const matmul::StepRange all = range({});
    CHECK((all.contains(1) && all.contains(10)));
    // The defaults the grading race declares (tests/matmul/helpers.h) mean
    // every step; options that never declared --steps are a mistake in the
    // code that built them, reported rather than read as every step.
    course::Options defaults;
    defaults.extra = course::option_defaults({matmul::steps_option()});
    const matmul::StepRange declared = matmul::steps_from(defaults);
    CHECK((declared.contains(1) && declared.contains(10)));
    CHECK_THROWS_AS(matmul::steps_from(course::Options{}), course::Error);
    const matmul::StepRange nine = range({"--steps", "9"});
    CHECK((nine.contains(9) && !nine.contains(8) && !nine.contains(10)));
    const matmul::StepRange last = range({"--steps=8-10"});
    CHECK((!last.contains(7) && last.contains(8) && last.contains(10) && !last.contains(11)));
    for (const std::string bad : {"10-8", "-3", "9-", "x", "100", "0"}) {
        CAPTURE(bad);
        CHECK_THROWS_AS(range({"--steps", bad}), course::UsageError);
    }
}

TEST_CASE("grids: ceil-divided, and an error past 65535 blocks in y") {
    const dim3 grid = matmul::grid_for(1000, 128, 33, 16);
    CHECK(grid.x == 8);
    CHECK(grid.y == 3);
    CHECK(grid.z == 1);
    CHECK(matmul::grid_for(65535 * 8, 32, 65535 * 8, 8).y == 65535);
    CHECK_THROWS_AS(matmul::grid_for(1, 32, 65535 * 8 + 1, 8), course::Error);
}

TEST_CASE("a kernel's library, for the own-kernels check, from the outermost namespace of its mangled name") {
    using course::testing::library_of_kernel;
    // CUB's single-tile reduce kernel as nvcc mangles it (CUDA 13.0).
    CHECK(library_of_kernel("_ZN3cub17CUB_300001_SM_9006detail6reduce28DeviceReduceSingleTileKernelINS2_10policy_"
                            "hubIxjN4cuda3std3__44plusIvEEE10Policy1000EPKiPxjS9_xxNS7_10__identityEEEvT0_T1_") ==
          "cub");
    CHECK(library_of_kernel("_ZN6thrust11cuda_cub4core13_kernel_agentEv") == "thrust");
    CHECK(library_of_kernel("_ZN7cutlass6KernelEv") == "cutlass");
    // A course kernel in an anonymous namespace, in a named one whose template
    // arguments are CUB's, and outside any: none.
    CHECK(library_of_kernel("_ZN41_GLOBAL__N__69b808cb_9_kernel_cu_b7de752d17reduce_sequentialIiEEvPKT_PxmPKiPxm")
              .empty());
    CHECK(library_of_kernel("_ZN8pipeline7kernels8fused_v9IN3cub4SumEEEvv").empty());
    CHECK(library_of_kernel("_Z6kernelPf").empty());
    CHECK(library_of_kernel("_ZN3cu").empty());
}

TEST_CASE("a kernel's mangled name, demangled for a grading message") {
    using course::testing::demangled;
    CHECK(demangled("_Z6kernelPf") == "kernel(float*)");
    CHECK(demangled("_ZN12_GLOBAL__N_110row_filterEPKfPfii") == "(anonymous namespace)::row_filter(float const*, "
                                                                "float*, int, int)");
    CHECK(demangled("extern_c_kernel") == "extern_c_kernel");
}

TEST_CASE("step 09's check reads a kernel's cp.async copies and waits from cuobjdump's listing") {
    // Made up in cuobjdump -sass's form (tests/matmul/stages.h reads it): a
    // pipeline of three stages waits with DEPBAR.LE SB0, 0x1 (cp.async.wait_group 1),
    // one of two with 0x0; the same kernel's code for two architectures counts
    // together, another kernel's not at all.
    const std::string listing =
        "\tcode for sm_80\n"
        "\t\tFunction : _ZN12_GLOBAL__N_114three_stagesEv\n"
        "        /*0100*/                   LDGSTS.E.BYPASS.LTC128B.128 [R3], desc[UR4][R4.64] ;\n"
        "        /*0110*/                   LDGDEPBAR ;\n"
        "        /*0120*/                   DEPBAR.LE SB0, 0x1 ;\n"
        "\tcode for sm_90\n"
        "\t\tFunction : _ZN12_GLOBAL__N_114three_stagesEv\n"
        "        /*0100*/                   LDGSTS.E.BYPASS.LTC128B.128 [R3], desc[UR4][R4.64] ;\n"
        "        /*0120*/                   DEPBAR.LE SB0, 0x1 ;\n"
        "        /*0130*/                   DEPBAR.LE SB0, 0x0 ;\n"
        "\t\tFunction : _ZN12_GLOBAL__N_110two_stagesEv\n"
        "        /*0100*/                   LDGSTS.E.LTC128B [R3], desc[UR4][R4.64] ;\n"
        "        /*0120*/                   DEPBAR.LE SB0, 0x0 ;\n"
        "\t\tFunction : _ZN12_GLOBAL__N_18registerEv\n"
        "        /*0100*/                   LDG.E.128 R4, desc[UR4][R2.64] ;\n"
        "        /*0110*/                   STS.128 [R3], R4 ;\n";
    const auto three = course::testing::kernel_code(listing, "_ZN12_GLOBAL__N_114three_stagesEv");
    CHECK(three.found);
    CHECK(course::testing::count_lines_with(three.lines, {"LDGSTS"}) == 2);
    CHECK(course::testing::count_lines_with(three.lines, {"LDGSTS", ".128"}) == 2);
    CHECK(course::testing::most_copy_groups_left_in_flight(three.lines) == 1);
    const auto two = course::testing::kernel_code(listing, "_ZN12_GLOBAL__N_110two_stagesEv");
    CHECK(course::testing::count_lines_with(two.lines, {"LDGSTS"}) == 1);
    CHECK(course::testing::count_lines_with(two.lines, {"LDGSTS", ".128"}) == 0);
    CHECK(course::testing::most_copy_groups_left_in_flight(two.lines) == 0);
    const auto registers = course::testing::kernel_code(listing, "_ZN12_GLOBAL__N_18registerEv");
    CHECK(course::testing::count_lines_with(registers.lines, {"LDGSTS"}) == 0);
    CHECK(course::testing::count_lines_with(registers.lines, {"LDG.", ".128"}) == 1);
    CHECK(course::testing::most_copy_groups_left_in_flight(registers.lines) == -1);
    const auto missing = course::testing::kernel_code(listing, "_Z7missingv");
    CHECK_FALSE(missing.found);
    CHECK(missing.functions == "_ZN12_GLOBAL__N_114three_stagesEv, _ZN12_GLOBAL__N_110two_stagesEv, "
                               "_ZN12_GLOBAL__N_18registerEv");
}
