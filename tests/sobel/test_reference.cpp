// The Sobel track's CPU side: the rule (the slides' formula, the cap at
// 255), the CPU reference (the border rule, orientation, tiny images), the
// helpers the launchers share, and the command line. No GPU needed.
#include "doctest_include.h"

#include "course/byte_image.h"
#include "course/check.h"
#include "course/options.h"
#include "course/random.h"
#include "tracks/sobel/track.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

course::Image image_of(int width, int height, const std::vector<int>& pixels) {
    course::Image image;
    image.width = width;
    image.height = height;
    image.channels = 1;
    for (const int p : pixels) image.pixels.push_back(static_cast<std::uint8_t>(p));
    REQUIRE(image.pixels.size() == static_cast<std::size_t>(width) * height);
    return image;
}

course::Options options_with(const std::vector<std::string>& args) {
    return course::parse_options(args, sobel::track_options());
}

}  // namespace

TEST_CASE("the rule: |Horz| + |Vert| with the slides' masks, capped at 255, the centre unused") {
    // ul um ur / ml mr / ll lm lr
    CHECK(sobel::edge_magnitude(0, 0, 0, 0, 0, 0, 0, 0) == 0);
    CHECK(sobel::edge_magnitude(9, 9, 9, 9, 9, 9, 9, 9) == 0);  // flat: no edge
    // A vertical edge, dark left, bright right: Horz = 4 * 10, Vert = 0.
    CHECK(sobel::edge_magnitude(0, 5, 10, 0, 10, 0, 5, 10) == 40);
    // A horizontal edge, bright top, dark bottom: Vert = 4 * 10.
    CHECK(sobel::edge_magnitude(10, 10, 10, 5, 5, 0, 0, 0) == 40);
    // Each neighbour's weights: Horz ur +1, mr +2, lr +1, ul -1, ml -2, ll -1;
    // Vert ul +1, um +2, ur +1, ll -1, lm -2, lr -1.
    CHECK(sobel::edge_magnitude(1, 0, 0, 0, 0, 0, 0, 0) == 2);     // ul: |-1| + |1|
    CHECK(sobel::edge_magnitude(0, 1, 0, 0, 0, 0, 0, 0) == 2);     // um: |0| + |2|
    CHECK(sobel::edge_magnitude(0, 0, 0, 0, 1, 0, 0, 0) == 2);     // mr: |2| + |0|
    CHECK(sobel::edge_magnitude(0, 0, 0, 0, 0, 0, 0, 1) == 2);     // lr: |1| + |-1|
    CHECK(sobel::edge_magnitude(0, 0, 50, 0, 0, 0, 0, 0) == 100);  // ur: |50| + |50|
    // The slides' first kernel has ll twice in Vert and no lr: lr counts here.
    CHECK(sobel::edge_magnitude(0, 0, 0, 0, 0, 0, 0, 100) == 200);
    // The cap: the largest sums saturate at 255.
    CHECK(sobel::edge_magnitude(0, 0, 255, 0, 255, 0, 0, 255) == 255);
    CHECK(sobel::edge_magnitude(255, 255, 255, 0, 0, 0, 0, 0) == 255);
    // Every value of |Horz| + |Vert| from a random sample, against the formula.
    course::Rng rng(5);
    for (int trial = 0; trial < 10000; ++trial) {
        int n[8];
        for (int& v : n) v = static_cast<int>(rng.integer(0, 255));
        const int horz = n[2] + 2 * n[4] + n[7] - n[0] - 2 * n[3] - n[5];
        const int vert = n[0] + 2 * n[1] + n[2] - n[5] - 2 * n[6] - n[7];
        const int want = std::min(std::abs(horz) + std::abs(vert), 255);
        REQUIRE(sobel::edge_magnitude(n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]) == want);
    }
}

TEST_CASE("the border: neighbours outside the image are the nearest pixel inside") {
    // 1x1: every neighbour is the pixel itself: no edge.
    CHECK(sobel::reference(image_of(1, 1, {200})) == std::vector<std::uint8_t>{0});
    // 2x1: left pixel 0, right 100. For x = 0: ml = ul = ll = 0 (clamped),
    // mr = ur = lr = 100: Horz = 400 -> 255. Vert = 0 (rows clamp to the same row).
    CHECK(sobel::reference(image_of(2, 1, {0, 100})) == std::vector<std::uint8_t>{255, 255});
    CHECK(sobel::reference(image_of(2, 1, {0, 10})) == std::vector<std::uint8_t>{40, 40});
    // 1x3: a column 0, 10, 20. Middle: Vert = 4 * (0 - 20) -> 80; top: rows
    // -1 and 0 are both 0, row 1 is 10: Vert = 4 * (0 - 10) -> 40; bottom likewise.
    CHECK(sobel::reference(image_of(1, 3, {0, 10, 20})) == std::vector<std::uint8_t>{40, 80, 40});
}

TEST_CASE("orientation and the whole frame: a 3x3 image, every pixel by hand") {
    // a b c
    // d e f
    // g h i
    const course::Image image = image_of(3, 3, {1, 2, 4, 8, 16, 32, 64, 100, 3});
    const std::vector<std::uint8_t> out = sobel::reference(image);
    const auto at = [&](int x, int y) {
        return static_cast<int>(image.pixels[static_cast<std::size_t>(std::clamp(y, 0, 2)) * 3 + std::clamp(x, 0, 2)]);
    };
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x) {
            const int horz = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) -
                             2 * at(x - 1, y) - at(x - 1, y + 1);
            const int vert = at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1) - at(x - 1, y + 1) -
                             2 * at(x, y + 1) - at(x + 1, y + 1);
            CAPTURE(x);
            CAPTURE(y);
            CHECK(out[static_cast<std::size_t>(y) * 3 + x] == std::min(std::abs(horz) + std::abs(vert), 255));
        }
    // The centre, by hand: Horz = 4 + 64 + 3 - 1 - 16 - 64 = -10, Vert = 1 + 4 + 4 - 64 - 200 - 3 = -258.
    CHECK(out[4] == 255);
    CHECK(sobel::reference(image_of(3, 3, {1, 2, 4, 8, 16, 32, 6, 5, 3}))[4] ==
          std::abs(4 + 64 + 3 - 1 - 16 - 6) + std::abs(1 + 4 + 4 - 6 - 10 - 3));
}

TEST_CASE("a flat image has no edges; a grey image only") {
    course::Image image = image_of(4, 2, {7, 7, 7, 7, 7, 7, 7, 7});
    CHECK(sobel::reference(image) == std::vector<std::uint8_t>(8, 0));
    image.channels = 3;
    CHECK_THROWS_AS(sobel::reference(image), course::Error);
}

TEST_CASE("launch helpers: grid, alignment") {
    sobel::Params p;
    p.width = 2053;
    p.height = 1031;
    const dim3 grid = sobel::grid_for(p, 512, 64);
    CHECK(grid.x == 5);   // ceil(2053 / 512)
    CHECK(grid.y == 17);  // ceil(1031 / 64)
    p.height = 65536 * 4;
    CHECK_THROWS_AS(sobel::grid_for(p, 32, 2), course::Error);
    CHECK(sobel::grid_for(p, 32, 8).y == 32768);

    alignas(16) static std::uint8_t bytes[64];
    p.in = bytes;
    p.out = bytes + 32;
    p.pitch = 2176;
    CHECK(sobel::rows_aligned(p, 16));
    p.pitch = 2180;
    CHECK_FALSE(sobel::rows_aligned(p, 16));
    CHECK(sobel::rows_aligned(p, 4));
    p.out = bytes + 33;
    CHECK_FALSE(sobel::rows_aligned(p, 4));
}

TEST_CASE("the command line: sizes, pitch padding, images") {
    const auto defaults = sobel::settings_from(options_with({}));
    CHECK(defaults.width == 2048);
    CHECK(defaults.height == 2048);
    CHECK(defaults.pitch_pad == 0);
    const auto custom = sobel::settings_from(options_with({"--size", "1920x1080", "--pitch-pad", "1"}));
    CHECK(custom.width == 1920);
    CHECK(custom.height == 1080);
    CHECK(custom.pitch_pad == 1);

    auto error_of = [](const std::vector<std::string>& args) {
        try {
            sobel::settings_from(options_with(args));
        } catch (const course::UsageError& error) {
            return std::string(error.what());
        }
        return std::string();
    };
    CHECK(error_of({"--size", "40000"}).find("at most 32768") != std::string::npos);
    CHECK(error_of({"--pitch-pad", "5000"}).find("at most 4096") != std::string::npos);
    CHECK(error_of({"--pitch-pad", "-1"}).find("negative") != std::string::npos);
    CHECK(error_of({"--size", "64", "--input", "x.png"}).find("give one of them") != std::string::npos);
}
