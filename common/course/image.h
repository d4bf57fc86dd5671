// 8-bit images in and out: PNG, PGM/PPM and whatever else stb_image reads;
// PNG or PGM/PPM out. A synthetic test image when the user gives none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace course {

struct Image {
    int width = 0;
    int height = 0;
    int channels = 1;                  // 1 = gray, 3 = RGB
    std::vector<std::uint8_t> pixels;  // row-major, channels interleaved, no padding

    std::uint8_t& at(int x, int y, int c = 0) {
        return pixels[(static_cast<std::size_t>(y) * width + x) * channels + c];
    }
    std::uint8_t at(int x, int y, int c = 0) const {
        return pixels[(static_cast<std::size_t>(y) * width + x) * channels + c];
    }
};

// Reads `path`, converted to `channels` (1 or 3). Throws course::Error with
// the file name and the reason (missing, not an image, truncated, ...).
Image load_image(const std::string& path, int channels);

// Writes .png, .pgm (gray) or .ppm (RGB), chosen by the file's extension.
// Throws course::Error on an unknown extension or a failed write.
void save_image(const std::string& path, const Image& image);

// A deterministic test picture of any size: smooth gradients, sharp-edged
// discs and bars (so blurs and edge filters show), and a little seeded noise
// (so no two neighbouring pixels are trivially equal).
Image synthetic_image(int width, int height, int channels, std::uint64_t seed);

}  // namespace course
