// The convolution track's CPU side: the filter, its rounding rule, the CPU
// reference (frame, clamping, orientation, tiny images), the helpers the
// launchers share, and the command line. No GPU needed.
#include "doctest_include.h"

#include "course/check.h"
#include "course/options.h"
#include "course/random.h"
#include "tracks/convolution/track.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using convolution::kFilter;
using convolution::kFilterSize;
using convolution::kRadius;
using convolution::kTaps;

namespace {

course::Image flat(int width, int height, std::uint8_t value) {
    course::Image image;
    image.width = width;
    image.height = height;
    image.channels = 1;
    image.pixels.assign(static_cast<std::size_t>(width) * height, value);
    return image;
}

int weight(int dy, int dx) { return kFilter.weights[(dy + kRadius) * kFilterSize + dx + kRadius]; }

// What __dp4a computes with unsigned pixel bytes and signed weight bytes.
int dp4a(std::uint32_t pixels, int weights, int acc) {
    for (int i = 0; i < 4; ++i)
        acc += static_cast<int>((pixels >> (8 * i)) & 0xffu) *
               static_cast<int>(static_cast<std::int8_t>(static_cast<std::uint32_t>(weights) >> (8 * i)));
    return acc;
}

std::uint32_t word_of(const std::uint8_t* bytes) {
    return bytes[0] | bytes[1] << 8 | bytes[2] << 16 | static_cast<std::uint32_t>(bytes[3]) << 24;
}

course::Options options_with(const std::vector<std::string>& args) {
    return course::parse_options(args, convolution::track_options());
}

}  // namespace

TEST_CASE("the track's filter: sums to 64, scale 1/64, lopsided, not separable, weights in a signed byte") {
    int sum = 0;
    for (int w : kFilter.weights) {
        sum += w;
        CHECK(w >= -128);
        CHECK(w <= 127);
    }
    CHECK(sum == 64);
    CHECK(kFilter.scale == 1.0f / 64.0f);
    // Not symmetric under a half turn: a kernel applying it upside down fails.
    bool symmetric = true;
    for (int i = 0; i < kTaps; ++i) symmetric = symmetric && kFilter.weights[i] == kFilter.weights[kTaps - 1 - i];
    CHECK_FALSE(symmetric);
    // Not separable: a separable filter has rank 1, so every 2x2 minor is 0.
    bool rank_one = true;
    for (int r = 1; r < kFilterSize; ++r)
        for (int c = 1; c < kFilterSize; ++c)
            rank_one = rank_one && weight(r - 2, c - 2) * weight(-2, -2) == weight(r - 2, -2) * weight(-2, c - 2);
    CHECK_FALSE(rank_one);
}

TEST_CASE("the rounding rule: one float multiply, truncated toward zero, clamped to 0..255") {
    using convolution::scale_and_clamp;
    const float scale = kFilter.scale;
    CHECK(scale_and_clamp(0, scale) == 0);
    CHECK(scale_and_clamp(63, scale) == 0);  // 0.98 truncates to 0
    CHECK(scale_and_clamp(64, scale) == 1);
    CHECK(scale_and_clamp(127, scale) == 1);  // 1.98
    CHECK(scale_and_clamp(64 * 200 + 63, scale) == 200);
    CHECK(scale_and_clamp(64 * 255 + 63, scale) == 255);
    CHECK(scale_and_clamp(64 * 256, scale) == 255);  // clamped high
    CHECK(scale_and_clamp(20145, scale) == 255);
    CHECK(scale_and_clamp(-1, scale) == 0);  // clamped low (trunc gives 0, a shift would give -1)
    CHECK(scale_and_clamp(-3825, scale) == 0);
    // Any scale follows the same rule, rounding included: 30 * 0.1f is a
    // little above 3, 7 * 0.1f a little below 0.7.
    CHECK(scale_and_clamp(30, 0.1f) == 3);
    CHECK(scale_and_clamp(7, 0.1f) == 0);
    CHECK(scale_and_clamp(29, 0.1f) == 2);
    // The float form, for sums added up in float (step 05), agrees.
    for (int s = -300; s < 17000; s += 7)
        CHECK(scale_and_clamp(static_cast<float>(s), scale) == scale_and_clamp(s, scale));
}

TEST_CASE("images no larger than the frame come back unchanged") {
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {3, 5}, {4, 4}, {5, 4}, {4, 9}, {2, 100}}) {
        CAPTURE(w);
        CAPTURE(h);
        const course::Image image = convolution::test_image(w, h, 3);
        CHECK(convolution::reference(image, kFilter) == image.pixels);
    }
}

TEST_CASE("a 5x5 image: the centre is filtered, the frame is copied") {
    const course::Image image = convolution::test_image(5, 5, 11);
    const auto out = convolution::reference(image, kFilter);
    int sum = 0;
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) sum += weight(dy, dx) * image.at(2 + dx, 2 + dy);
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 5; ++x) {
            CAPTURE(x);
            CAPTURE(y);
            const int want = x == 2 && y == 2 ? convolution::scale_and_clamp(sum, kFilter.scale) : image.at(x, y);
            CHECK(out[static_cast<std::size_t>(y) * 5 + x] == want);
        }
}

TEST_CASE("a flat image stays flat (the weights sum to 64)") {
    for (const int value : {0, 1, 77, 254, 255}) {
        const auto out = convolution::reference(flat(9, 7, static_cast<std::uint8_t>(value)), kFilter);
        for (const auto pixel : out) CHECK(pixel == value);
    }
}

TEST_CASE("orientation: weight (dy, dx) multiplies the pixel dx right of and dy below the centre") {
    // One pixel of 64 at (6, 6) on black: output (6 - dx, 6 - dy) sees it at
    // offset (dx, dy), so it is weight(dy, dx) * 64 / 64, clamped at 0.
    course::Image image = flat(13, 13, 0);
    image.at(6, 6) = 64;
    const auto out = convolution::reference(image, kFilter);
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
            CAPTURE(dx);
            CAPTURE(dy);
            const int want = std::max(0, weight(dy, dx));
            CHECK(out[static_cast<std::size_t>(6 - dy) * 13 + (6 - dx)] == want);
        }
}

TEST_CASE("clamping at both ends") {
    // A white image with one black pixel next to the centre's strongest
    // negative weight... and the reverse.
    course::Image white = flat(9, 9, 255);
    white.at(4 + 2, 4 + 1) = 0;  // weight(1, 2) = -3 at the centre (4, 4)
    CHECK(weight(1, 2) == -3);
    const auto bright = convolution::reference(white, kFilter);
    CHECK(bright[4 * 9 + 4] == 255);  // 255 * (64 + 3) / 64 = 266.9, clamped
    course::Image black = flat(9, 9, 0);
    black.at(4 + 2, 4 + 1) = 255;
    const auto dark = convolution::reference(black, kFilter);
    CHECK(dark[4 * 9 + 4] == 0);  // -3 * 255 / 64 = -11.9, clamped
    CHECK(dark[4 * 9 + 5] == 7);  // (5, 4) sees it at (1, 1): 2 * 255 / 64 = 7.97
}

TEST_CASE("the reference matches a direct evaluation on a random picture") {
    const course::Image image = convolution::test_image(37, 23, 99);
    const auto out = convolution::reference(image, kFilter);
    course::Rng rng(5);
    for (int i = 0; i < 200; ++i) {
        const int x = static_cast<int>(rng.integer(2, 34)), y = static_cast<int>(rng.integer(2, 20));
        double exact = 0;
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx) exact += weight(dy, dx) * image.at(x + dx, y + dy);
        const int want = static_cast<int>(std::clamp(std::trunc(exact / 64.0), 0.0, 255.0));
        CHECK(out[static_cast<std::size_t>(y) * 37 + x] == want);
    }
}

TEST_CASE("the test picture hits both ends of the range") {
    const course::Image image = convolution::test_image(64, 64, 1);
    int black = 0, white = 0;
    for (const auto pixel : image.pixels) black += pixel == 0, white += pixel == 255;
    CHECK(black > 0);
    CHECK(white > 0);
    CHECK(convolution::test_image(64, 64, 1).pixels == image.pixels);  // deterministic
}

TEST_CASE("scale_shift finds the powers of two, and only them") {
    CHECK(convolution::scale_shift(1.0f) == 0);
    CHECK(convolution::scale_shift(0.5f) == 1);
    CHECK(convolution::scale_shift(1.0f / 64) == 6);
    CHECK(convolution::scale_shift(std::ldexp(1.0f, -24)) == 24);
    CHECK(convolution::scale_shift(0.1f) == -1);
    CHECK(convolution::scale_shift(3.0f / 64) == -1);
    CHECK(convolution::scale_shift(2.0f) == -1);
    CHECK(convolution::scale_shift(-1.0f / 64) == -1);
    // Where it applies, the shift gives the rule's result for every sum.
    for (int s = -5000; s < 20000; ++s) {
        const int shifted = std::clamp(s >> 6, 0, 255);
        if (shifted != convolution::scale_and_clamp(s, 1.0f / 64)) {
            FAIL("sum ", s, ": shift ", shifted, ", rule ",
                 static_cast<int>(convolution::scale_and_clamp(s, 1.0f / 64)));
        }
    }
}

TEST_CASE("the dp4a layout of the weights gives each pixel's 25-tap sum") {
    const convolution::PackedFilter packed = convolution::pack_for_dp4a(kFilter);
    course::Rng rng(17);
    for (int trial = 0; trial < 500; ++trial) {
        // Five input rows under four output pixels x .. x+3, each row as
        // A | B | C: pixels x-4 .. x+7.
        std::uint8_t rows[kFilterSize][12];
        for (auto& row : rows)
            for (auto& b : row) b = static_cast<std::uint8_t>(rng.integer(0, 255));
        for (int k = 0; k < 4; ++k) {
            int want = 0;
            for (int r = 0; r < kFilterSize; ++r)
                for (int t = 0; t < kFilterSize; ++t)
                    want += kFilter.weights[r * kFilterSize + t] * rows[r][4 + k - 2 + t];
            // Rows 0..3: one column word per tap column, byte j from row j.
            int got = 0;
            for (int dx = 0; dx < kFilterSize; ++dx) {
                const int column = 4 + k - 2 + dx;
                const std::uint8_t down[4] = {rows[0][column], rows[1][column], rows[2][column], rows[3][column]};
                got = dp4a(word_of(down), packed.columns[dx], got);
            }
            // Row 4: two of its words A, B, C.
            const std::uint8_t* last = rows[kFilterSize - 1];
            const std::uint32_t first = word_of(last + (k < 2 ? 0 : 4)), second = word_of(last + (k < 2 ? 4 : 8));
            got = dp4a(second, packed.last_row[2 * k + 1], dp4a(first, packed.last_row[2 * k], got));
            CAPTURE(k);
            REQUIRE(got == want);
        }
    }
    convolution::Filter big = kFilter;
    big.weights[3] = 200;
    CHECK_THROWS_AS(convolution::pack_for_dp4a(big), course::Error);
    big.weights[3] = -129;
    CHECK_THROWS_AS(convolution::pack_for_dp4a(big), course::Error);
}

TEST_CASE("conflict_free_stride: 16-byte rows, and the rows a warp reads on different banks") {
    CHECK(convolution::conflict_free_stride(72, 16) == 80);  // the 16x16 tile of step 09
    CHECK(convolution::conflict_free_stride(64, 16) == 80);  // its staging rows
    for (const int width : {1, 2, 3, 4, 8, 16, 19, 32, 64}) {
        for (const int words : {1, 5, 8, 40, 72, 136, 264}) {
            CAPTURE(width);
            CAPTURE(words);
            const int stride = convolution::conflict_free_stride(words, width);
            CHECK(stride >= words);
            CHECK(stride % 4 == 0);
            CHECK(stride < words + 36);
            if (width % 4 == 0 && width < 32) {
                // A warp covers 32 / width rows, width consecutive words of
                // each: they must fall on 32 different banks.
                std::vector<int> seen(32, 0);
                for (int row = 0; row < 32 / width; ++row)
                    for (int t = 0; t < width; ++t) ++seen[(row * stride + t) % 32];
                for (const int count : seen) CHECK(count == 1);
            }
        }
    }
}

TEST_CASE("launch helpers: pitch, grid, alignment") {
    CHECK(convolution::default_pitch(1) == 128);
    CHECK(convolution::default_pitch(2048) == 2048);
    CHECK(convolution::default_pitch(2053) == 2176);
    convolution::Params p;
    p.width = 2053;
    p.height = 1031;
    p.block = dim3(16, 16);
    const dim3 one = convolution::grid_for(p, 1);
    CHECK(one.x == 129);                         // ceil(2053 / 16)
    CHECK(one.y == 65);                          // ceil(1031 / 16)
    CHECK(convolution::grid_for(p, 16).x == 9);  // ceil(2053 / 256)
    p.block = dim3(19, 13);
    CHECK(convolution::grid_for(p, 4).x == 28);  // ceil(2053 / 76)
    CHECK(convolution::grid_for(p, 4).y == 80);

    alignas(16) static std::uint8_t buffer[64];
    p.in = buffer;
    p.out = buffer + 16;
    p.pitch = 2048;
    CHECK(convolution::rows_aligned(p, 16));
    p.pitch = 2052;
    CHECK_FALSE(convolution::rows_aligned(p, 16));
    CHECK(convolution::rows_aligned(p, 4));
    p.pitch = 2053;
    CHECK_FALSE(convolution::rows_aligned(p, 4));
    p.pitch = 2048;
    p.out = buffer + 4;
    CHECK_FALSE(convolution::rows_aligned(p, 16));
}

TEST_CASE("the command line: sizes, block shapes, pitch padding, images") {
    const auto defaults = convolution::settings_from(options_with({}));
    CHECK(defaults.width == 2048);
    CHECK(defaults.height == 2048);
    CHECK(defaults.block.x == 16);
    CHECK(defaults.block.y == 16);
    CHECK(defaults.pitch_pad == 0);

    const auto custom =
        convolution::settings_from(options_with({"--size", "1920x1080", "--block", "19x13", "--pitch-pad", "4"}));
    CHECK(custom.width == 1920);
    CHECK(custom.height == 1080);
    CHECK(custom.block.x == 19);
    CHECK(custom.block.y == 13);
    CHECK(custom.pitch_pad == 4);
    CHECK(convolution::settings_from(options_with({"--size", "8192"})).height == 8192);

    auto error_of = [](const std::vector<std::string>& args) {
        try {
            convolution::settings_from(options_with(args));
        } catch (const course::UsageError& error) {
            return std::string(error.what());
        }
        return std::string();
    };
    CHECK(error_of({"--block", "32x64"}).find("at most 1024 threads") != std::string::npos);
    CHECK(error_of({"--block", "128x1"}).find("each side from 1 to 64") != std::string::npos);
    CHECK(error_of({"--block", "0x16"}).find("zero") != std::string::npos);
    CHECK(error_of({"--block", "16"}).empty());  // one number: a square
    CHECK(error_of({"--size", "40000"}).find("at most 32768") != std::string::npos);
    CHECK(error_of({"--size", "0x5"}).find("zero") != std::string::npos);
    CHECK(error_of({"--pitch-pad", "5000"}).find("at most 4096") != std::string::npos);
    CHECK(error_of({"--pitch-pad", "-1"}).find("negative") != std::string::npos);
    CHECK(error_of({"--size", "64", "--input", "x.png"}).find("give one of them") != std::string::npos);
    CHECK(error_of({"--output", "out.jpg"}).find(".png or .pgm") != std::string::npos);
    CHECK(error_of({"--output", "out.PNG"}).empty());
}
