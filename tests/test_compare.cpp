// The comparison rules stated at the head of common/course/compare.h: exact
// integers, documented float tolerance, NaN and Inf never pass, poison never
// passes.
#include "doctest_include.h"

#include "course/compare.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

using course::compare_close;
using course::compare_exact;
using course::Tolerance;

TEST_CASE("exact comparison of integers") {
    const std::vector<int> want = {1, -2, 3, 4};
    SUBCASE("equal arrays pass") {
        const auto result = compare_exact(want.data(), want.data(), want.size());
        CHECK(result.ok);
        CHECK(result.checked == 4);
        CHECK(result.summary() == "ok");
    }
    SUBCASE("one difference fails, and the first bad index is reported") {
        const std::vector<int> got = {1, -2, 4, 5};
        const auto result = compare_exact(got.data(), want.data(), got.size());
        CHECK_FALSE(result.ok);
        CHECK(result.mismatches == 2);
        CHECK(result.first_bad == 2);
        CHECK(result.summary() == "2 of 4 wrong; first at [2]: got 4, want 3");
    }
    SUBCASE("bytes print as numbers, not characters") {
        const std::vector<std::uint8_t> got = {65}, expected = {66};
        CHECK(compare_exact(got.data(), expected.data(), 1).summary() == "1 of 1 wrong; first at [0]: got 65, want 66");
    }
    SUBCASE("a 64-bit sum is compared in full") {
        const std::vector<long long> got = {(1LL << 40) + 1}, expected = {1LL << 40};
        CHECK_FALSE(compare_exact(got.data(), expected.data(), 1).ok);
    }
}

TEST_CASE("floats pass within abs + rel * |want| and fail outside") {
    const Tolerance tol{1e-6, 0.0};
    const std::vector<double> want = {1.0, -1000.0, 0.0};
    SUBCASE("inside") {
        const std::vector<float> got = {1.0f + 5e-7f, -1000.0f + 5e-4f, 0.0f};
        CHECK(compare_close(got.data(), want.data(), got.size(), tol).ok);
    }
    SUBCASE("outside") {
        const std::vector<float> got = {1.0f + 1e-5f, -1000.0f, 0.0f};
        const auto result = compare_close(got.data(), want.data(), got.size(), tol);
        CHECK_FALSE(result.ok);
        CHECK(result.first_bad == 0);
        CHECK(result.max_abs_error == doctest::Approx(1e-5).epsilon(0.05));
    }
    SUBCASE("a zero reference needs the absolute part") {
        const std::vector<float> got = {1.0f, -1000.0f, 1e-9f};
        CHECK_FALSE(compare_close(got.data(), want.data(), got.size(), tol).ok);
        CHECK(compare_close(got.data(), want.data(), got.size(), Tolerance{1e-6, 1e-8}).ok);
    }
}

TEST_CASE("NaN and Inf never pass") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const Tolerance loose{1.0, 1e30};
    SUBCASE("NaN result") {
        const std::vector<float> got = {nan}, want = {1.0f};
        const auto result = compare_close(got.data(), want.data(), 1, loose);
        CHECK_FALSE(result.ok);
        CHECK(result.summary() == "1 of 1 wrong; first at [0]: got NaN, want 1");
    }
    SUBCASE("NaN against a NaN reference") {
        const std::vector<float> got = {nan}, want = {nan};
        CHECK_FALSE(compare_close(got.data(), want.data(), 1, loose).ok);
    }
    SUBCASE("Inf, even against Inf") {
        const std::vector<float> got = {inf}, want = {inf};
        CHECK_FALSE(compare_close(got.data(), want.data(), 1, loose).ok);
        CHECK_FALSE(course::within_tolerance(-inf, 0.0, loose));
    }
}

TEST_CASE("the harness's poison values never pass as results") {
    // 0xFF bytes are a NaN float: never passes, whatever the reference.
    float poisoned_float;
    std::memset(&poisoned_float, 0xFF, sizeof poisoned_float);
    CHECK_FALSE(course::within_tolerance(poisoned_float, 0.0, Tolerance{1.0, 1.0}));
    // 0xFF bytes are -1 as an int: it fails unless the reference is -1, and the
    // second poison, 0xA5, differs from it, so no element passes both checks.
    int first, second;
    std::memset(&first, 0xFF, sizeof first);
    std::memset(&second, 0xA5, sizeof second);
    const int want = -1;
    CHECK(compare_exact(&first, &want, 1).ok);         // the one value the first poison cannot catch...
    CHECK_FALSE(compare_exact(&second, &want, 1).ok);  // ...the second one catches
}

TEST_CASE("checks of two parts merge, keeping the first failure") {
    const std::vector<int> good = {1, 2}, bad = {1, 3}, want = {1, 2};
    auto merged = compare_exact(good.data(), want.data(), 2);
    merged.merge(compare_exact(bad.data(), want.data(), 2), 2);
    CHECK_FALSE(merged.ok);
    CHECK(merged.checked == 4);
    CHECK(merged.first_bad == 3);
    CHECK(course::failed_check("kernel crashed").summary() == "kernel crashed");
}

TEST_CASE("pitched images are compared pixel by pixel, padding ignored, the first mismatch named by (x, y)") {
    // A 3 x 2 image with rows 5 elements apart; the padding holds junk.
    const std::vector<std::uint8_t> want = {1, 2, 3, 4, 5, 6};
    std::vector<std::uint8_t> got = {1, 2, 3, 99, 99, 4, 5, 6, 98, 97};
    SUBCASE("the image matches: the padding does not count") {
        const auto result = course::compare_exact_2d(got.data(), 5, want.data(), 3, 2);
        CHECK(result.ok);
        CHECK(result.checked == 6);
    }
    SUBCASE("a wrong pixel in the second row") {
        got[6] = 7;  // (x 1, y 1)
        const auto result = course::compare_exact_2d(got.data(), 5, want.data(), 3, 2);
        CHECK_FALSE(result.ok);
        CHECK(result.mismatches == 1);
        CHECK(result.first_bad == 4);  // its index in the packed reference
        CHECK(result.summary() == "1 of 6 wrong; first at [4]: pixel (1, 1): got 7, want 5");
    }
}

TEST_CASE("scale-aware comparison: |got - want| <= rel * scale") {
    // want = 1e-3 is the sum of terms of size 1: cancellation. A tolerance
    // relative to |want| would ask for 1e-9 here; the scale allows 1e-6.
    const std::vector<double> want = {1e-3, 2.0}, scale = {1.0, 2.0};
    SUBCASE("inside, although far outside rel * |want|") {
        const std::vector<float> got = {1e-3f + 9e-7f, 2.0f};
        CHECK(course::compare_scaled(got.data(), want.data(), scale.data(), 2, 1e-6).ok);
        CHECK_FALSE(compare_close(got.data(), want.data(), 2, Tolerance{1e-6, 0.0}).ok);
    }
    SUBCASE("outside") {
        const std::vector<float> got = {1e-3f, 2.0f + 1e-5f};
        const auto result = course::compare_scaled(got.data(), want.data(), scale.data(), 2, 1e-6);
        CHECK_FALSE(result.ok);
        CHECK(result.first_bad == 1);
        CHECK(result.checked == 2);
    }
    SUBCASE("NaN, Inf and the first poison never pass, even with a huge tolerance") {
        float poisoned;
        std::memset(&poisoned, 0xFF, sizeof poisoned);
        const std::vector<float> got = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                                        poisoned};
        const std::vector<double> three_want = {1.0, 1.0, 1.0}, three_scale = {1e30, 1e30, 1e30};
        const auto result = course::compare_scaled(got.data(), three_want.data(), three_scale.data(), 3, 1.0);
        CHECK(result.mismatches == 3);
    }
    SUBCASE("a zero scale asks for an exact match") {
        const std::vector<float> got = {0.0f};
        const std::vector<double> zero = {0.0};
        CHECK(course::compare_scaled(got.data(), zero.data(), zero.data(), 1, 1e-6).ok);
        const std::vector<float> off = {1e-30f};
        CHECK_FALSE(course::compare_scaled(off.data(), zero.data(), zero.data(), 1, 1e-6).ok);
    }
}
