// The image pipeline track's CPU side: the three rules (the talk's weights in
// fixed point, the rounding of each stage, the exact square root), the CPU
// reference (the border rule, symmetry, tiny images, a real photo) and the
// command line. No GPU needed.
#include "doctest_include.h"

#include "course/check.h"
#include "course/image.h"
#include "course/options.h"
#include "pipeline/sass_rows.h"
#include "tracks/pipeline/track.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace pipeline;

course::Image grey_rgb(int width, int height, const std::vector<int>& values) {
    course::Image image;
    image.width = width;
    image.height = height;
    image.channels = 3;
    for (const int v : values)
        for (int c = 0; c < 3; ++c) image.pixels.push_back(static_cast<std::uint8_t>(v));
    REQUIRE(image.pixels.size() == static_cast<std::size_t>(width) * height * 3);
    return image;
}

// The nearest integer to sqrt(s), in integers only.
int nearest_root(long long s) {
    long long n = static_cast<long long>(std::sqrt(static_cast<double>(s)));
    while (n * n > s) --n;
    while ((n + 1) * (n + 1) <= s) ++n;
    return static_cast<int>(s > n * n + n ? n + 1 : n);  // sqrt(s) >= n + 1/2 <=> s > n^2 + n
}

course::Options options_with(const std::vector<std::string>& args) {
    return course::parse_options(args, pipeline::track_options());
}

}  // namespace

TEST_CASE("rule 1: the talk's grey weights in 16-bit fixed point, rounded to nearest") {
    CHECK(kGreyR + kGreyG + kGreyB == 65536);  // white stays white
    CHECK(std::fabs(kGreyR / 65536.0 - 0.298839) < 0.5 / 65536);
    CHECK(std::fabs(kGreyG / 65536.0 - 0.586811) < 0.5 / 65536);
    CHECK(std::fabs(kGreyB / 65536.0 - 0.114350) < 0.5 / 65536);
    CHECK(grey_of(0, 0, 0) == 0);
    CHECK(grey_of(255, 255, 255) == 255);
    CHECK(grey_of(100, 100, 100) == 100);
    // Every colour: within half a level (plus the fixed point's tiny error)
    // of the talk's float formula.
    double worst = 0;
    for (int r = 0; r < 256; ++r)
        for (int g = 0; g < 256; ++g)
            for (int b = 0; b < 256; ++b)
                worst = std::max(worst, std::fabs(grey_of(r, g, b) - (0.298839 * r + 0.586811 * g + 0.114350 * b)));
    CHECK(worst < 0.501);
}

TEST_CASE("rule 2: the 7x7 weights are 1 2 3 4 3 2 1 times itself, 256 in all, rounded to nearest") {
    int total = 0;
    for (int j = -kRadius; j <= kRadius; ++j)
        for (int i = -kRadius; i <= kRadius; ++i) total += gauss_weight(i) * gauss_weight(j);
    CHECK(total == 256);
    CHECK(gauss_weight(0) == 4);
    CHECK(gauss_weight(-3) == 1);
    CHECK(gauss_weight(3) == 1);
    CHECK(blur_of(256 * 255) == 255);
    CHECK(blur_of(127) == 0);
    CHECK(blur_of(128) == 1);  // halves round up
    CHECK(blur_of(256 * 7 + 128) == 8);
}

TEST_CASE("rule 3: the edge is the nearest integer to sqrt(Gx^2 + Gy^2), capped at 255, for every gradient") {
    CHECK(edge_of(0, 0) == 0);
    CHECK(edge_of(3, 4) == 5);
    CHECK(edge_of(-3, 4) == 5);
    CHECK(edge_of(1, 1) == 1);  // 1.414
    CHECK(edge_of(1, 2) == 2);  // 2.236
    CHECK(edge_of(2, 2) == 3);  // 2.828
    CHECK(edge_of(1020, 1020) == 255);
    // Every (Gx, Gy) the rule can meet: |G| <= 4 x 255. sqrtf's rounding
    // never moves the result across a half-integer.
    long long wrong = 0;
    for (int gx = -1020; gx <= 1020; ++gx)
        for (int gy = 0; gy <= 1020; ++gy) {
            const int want =
                std::min(255, nearest_root(static_cast<long long>(gx) * gx + static_cast<long long>(gy) * gy));
            if (edge_of(gx, gy) != want) ++wrong;
        }
    CHECK(wrong == 0);
}

TEST_CASE("the reference: flat images have no edges, whatever their size") {
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {7, 7}, {40, 9}}) {
        CAPTURE(w);
        CAPTURE(h);
        const auto edges = reference(grey_rgb(w, h, std::vector<int>(static_cast<std::size_t>(w) * h, 77)));
        for (const auto e : edges) CHECK(e == 0);
    }
}

TEST_CASE("the reference: a vertical step gives edges beside it only, the same in every row") {
    const int w = 20, h = 5;
    std::vector<int> values;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) values.push_back(x < 10 ? 0 : 200);
    const course::Image image = grey_rgb(w, h, values);
    const auto grey = grey_image(image);
    CHECK(grey[9] == 0);
    CHECK(grey[10] == 200);
    const auto blurred = blur_image(grey, w, h);
    // Along x the blur reaches 3 pixels: at x = 7 only column 10 (weight 1)
    // is bright, in all 7 rows (weights 16 in all).
    CHECK(blurred[6] == 0);
    CHECK(blurred[7] == blur_of(16 * 200));
    CHECK(blurred[7] == 13);
    const auto edges = reference(image);
    for (int y = 0; y < h; ++y) {
        CAPTURE(y);
        CHECK(edges[static_cast<std::size_t>(y) * w + 0] == 0);
        CHECK(edges[static_cast<std::size_t>(y) * w + w - 1] == 0);
        CHECK(edges[static_cast<std::size_t>(y) * w + 9] > 0);
        CHECK(edges[static_cast<std::size_t>(y) * w + 10] > 0);
        for (int x = 0; x < w; ++x) CHECK(edges[static_cast<std::size_t>(y) * w + x] == edges[x]);
    }
}

TEST_CASE("the reference is symmetric: mirrored or transposed pictures give mirrored or transposed edges") {
    const course::Image image = course::synthetic_image(23, 17, 3, 9);
    const auto edges = reference(image);
    course::Image mirrored = image, transposed = image;
    transposed.width = image.height;
    transposed.height = image.width;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            for (int c = 0; c < 3; ++c) {
                mirrored.at(image.width - 1 - x, y, c) = image.at(x, y, c);
                transposed.at(y, x, c) = image.at(x, y, c);
            }
    const auto mirrored_edges = reference(mirrored), transposed_edges = reference(transposed);
    int differ_mirror = 0, differ_transpose = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const auto e = edges[static_cast<std::size_t>(y) * image.width + x];
            differ_mirror += mirrored_edges[static_cast<std::size_t>(y) * image.width + image.width - 1 - x] != e;
            differ_transpose += transposed_edges[static_cast<std::size_t>(x) * image.height + y] != e;
        }
    CHECK(differ_mirror == 0);
    CHECK(differ_transpose == 0);
}

TEST_CASE("the reference: the border clamps at every stage (the edge beside a border reads the border's blur)") {
    // One bright column at x = 0: the Sobel at x = 0 reads blurred(-1) as
    // blurred(0), so Gx there is blurred(1) - blurred(0), not blurred(1) -
    // blur of a wider image.
    const int w = 12, h = 3;
    std::vector<int> values(static_cast<std::size_t>(w) * h, 0);
    for (int y = 0; y < h; ++y) values[static_cast<std::size_t>(y) * w] = 255;
    const course::Image image = grey_rgb(w, h, values);
    const auto grey = grey_image(image);
    const auto blurred = blur_image(grey, w, h);
    const auto edges = edge_image(blurred, w, h);
    const int b0 = blurred[0], b1 = blurred[1];
    CHECK(b0 > b1);
    const int gx = 4 * (b1 - b0);  // rows clamp too: all three rows alike
    CHECK(edges[0] == edge_of(gx, 0));
    CHECK(edges[static_cast<std::size_t>(w)] == edge_of(gx, 0));
}

TEST_CASE("the reference reads a real photo: the slides' picture, RGB, 451x300") {
    const course::Image photo = course::load_image(COURSE_PHOTO, 3);
    CHECK(photo.width == 451);
    CHECK(photo.height == 300);
    const auto edges = reference(photo);
    std::size_t strong = 0;
    for (const auto e : edges) strong += e >= 32;
    // A photo has edges, and far from everywhere.
    CHECK(strong > edges.size() / 100);
    CHECK(strong < edges.size() / 2);
}

TEST_CASE("the command line: --pitch-pad, --size, --input") {
    CHECK(settings_from(options_with({})).pitch_pad == 0);
    CHECK(settings_from(options_with({"--pitch-pad", "1"})).pitch_pad == 1);
    CHECK_THROWS_AS(settings_from(options_with({"--pitch-pad", "5000"})), course::UsageError);
    CHECK(settings_from(options_with({"--size", "640x480"})).width == 640);
    CHECK_THROWS_AS(settings_from(options_with({"--size", "20000"})), course::UsageError);
    CHECK_THROWS_AS(settings_from(options_with({"--size", "64", "--input", "photo.png"})), course::UsageError);
}

TEST_CASE("step 09's check reads a kernel's cheapest word loop from cuobjdump's listing, that kernel's alone") {
    // Made up in cuobjdump -sass's form: kernel a has a loop of 2 rows (6 word
    // loads) in 10 instructions and one of bytes (no word loads); kernel b a
    // loop of 1 row in 4 instructions, which must not count for a.
    const std::string listing = "\tcode for sm_90a\n"
                                "\t\tFunction : _Z1av\n"
                                "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
                                "        /*0010*/                   LDG.E.CONSTANT R2, desc[UR4][R4.64] ;\n"
                                "        /*0020*/                   LDG.E.CONSTANT R3, desc[UR4][R4.64+0x4] ;\n"
                                "        /*0030*/                   LDG.E.CONSTANT R6, desc[UR4][R4.64+0x8] ;\n"
                                "        /*0040*/                   IDP.4A.U8.S8 R7, R2, R3, R6 ;\n"
                                "        /*0050*/                   LDG.E.CONSTANT R2, desc[UR4][R8.64] ;\n"
                                "        /*0060*/                   LDG.E.CONSTANT R3, desc[UR4][R8.64+0x4] ;\n"
                                "        /*0070*/                   LDG.E.CONSTANT R6, desc[UR4][R8.64+0x8] ;\n"
                                "        /*0080*/                   IADD3 R4, P0, R4, 0x60, RZ ;\n"
                                "        /*0090*/                   STG.E desc[UR4][R10.64], R7 ;\n"
                                "        /*00a0*/              @!P0 BRA 0x10 ;\n"
                                "        /*00b0*/                   LDG.E.U8.CONSTANT R2, desc[UR4][R4.64] ;\n"
                                "        /*00c0*/                   LDG.E.U8.CONSTANT R3, desc[UR4][R4.64+0x1] ;\n"
                                "        /*00d0*/                   LDG.E.U8.CONSTANT R6, desc[UR4][R4.64+0x2] ;\n"
                                "        /*00e0*/               @P1 BRA 0xb0 ;\n"
                                "        /*00f0*/                   EXIT ;\n"
                                "        /*0100*/                   BRA 0x10;\n"
                                "\t\tFunction : _Z1bv\n"
                                "        /*0000*/                   LDG.E.CONSTANT R2, desc[UR4][R4.64] ;\n"
                                "        /*0010*/                   LDG.E.CONSTANT R3, desc[UR4][R4.64+0x4] ;\n"
                                "        /*0020*/                   LDG.E.CONSTANT R6, desc[UR4][R4.64+0x8] ;\n"
                                "        /*0030*/              @!P0 BRA 0x0 ;\n";
    const pipeline::testing::WordLoop a = pipeline::testing::cheapest_word_loop(listing, "_Z1av");
    CHECK(a.found);
    CHECK(a.instructions == 10);
    CHECK(a.rows == 2);
    CHECK(a.per_row() == doctest::Approx(5.0));
    const pipeline::testing::WordLoop b = pipeline::testing::cheapest_word_loop(listing, "_Z1bv");
    CHECK(b.instructions == 4);
    CHECK(b.rows == 1);
    const pipeline::testing::WordLoop none = pipeline::testing::cheapest_word_loop(listing, "_Z1cv");
    CHECK_FALSE(none.found);
    CHECK(none.functions == "_Z1av, _Z1bv");
}
