#include "course/image.h"

#include "course/check.h"
#include "course/random.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>

namespace course {

namespace {

std::string extension_of(const std::string& path) {
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot + 1);
    for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

void write_netpbm(const std::string& path, const Image& image) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw Error("cannot write \"" + path + "\"");
    out << (image.channels == 1 ? "P5" : "P6") << "\n" << image.width << " " << image.height << "\n255\n";
    out.write(reinterpret_cast<const char*>(image.pixels.data()), static_cast<std::streamsize>(image.pixels.size()));
    if (!out) throw Error("writing \"" + path + "\" failed");
}

}  // namespace

Image load_image(const std::string& path, int channels) {
    if (channels != 1 && channels != 3) throw Error("load_image: channels must be 1 or 3");
    {
        std::ifstream probe(path, std::ios::binary);
        if (!probe) throw Error("cannot open image \"" + path + "\": no such file or not readable");
    }
    int width = 0, height = 0, in_file = 0;
    std::unique_ptr<stbi_uc, void (*)(void*)> data(stbi_load(path.c_str(), &width, &height, &in_file, channels),
                                                   stbi_image_free);
    if (!data) {
        const char* reason = stbi_failure_reason();
        throw Error("cannot read image \"" + path + "\": " + (reason ? reason : "unknown format") +
                    " (PNG, PGM/PPM, JPEG, BMP and TGA are supported)");
    }
    if (width <= 0 || height <= 0) throw Error("image \"" + path + "\" is empty");
    Image image;
    image.width = width;
    image.height = height;
    image.channels = channels;
    image.pixels.assign(data.get(), data.get() + static_cast<std::size_t>(width) * height * channels);
    return image;
}

void save_image(const std::string& path, const Image& image) {
    if (image.width <= 0 || image.height <= 0 ||
        image.pixels.size() != static_cast<std::size_t>(image.width) * image.height * image.channels)
        throw Error("save_image: the image's size and pixel count disagree");
    const std::string ext = extension_of(path);
    if (ext == "png") {
        if (!stbi_write_png(path.c_str(), image.width, image.height, image.channels, image.pixels.data(),
                            image.width * image.channels))
            throw Error("cannot write \"" + path + "\"");
    } else if ((ext == "pgm" && image.channels == 1) || (ext == "ppm" && image.channels == 3)) {
        write_netpbm(path, image);
    } else {
        throw Error("cannot save \"" + path + "\": use .png, or .pgm for gray and .ppm for colour images");
    }
}

Image synthetic_image(int width, int height, int channels, std::uint64_t seed) {
    if (width <= 0 || height <= 0) throw Error("synthetic_image: width and height must be positive");
    if (channels != 1 && channels != 3) throw Error("synthetic_image: channels must be 1 or 3");
    Image image;
    image.width = width;
    image.height = height;
    image.channels = channels;
    image.pixels.resize(static_cast<std::size_t>(width) * height * channels);
    Rng rng(seed);
    const double cx = 0.5 * width, cy = 0.5 * height, radius = 0.3 * std::min(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const double u = static_cast<double>(x) / width, v = static_cast<double>(y) / height;
            double value = 40 + 120 * u + 60 * v;  // diagonal gradient
            const double r = std::hypot(x - cx, y - cy);
            if (r < radius) value = 230 - 0.25 * value;                         // a bright disc with a hard rim
            if (std::fmod(std::floor(u * 16), 4) == 0 && v > 0.8) value = 20;   // dark bars at the bottom
            if (std::fmod(std::floor(v * 32), 8) == 0 && u < 0.1) value = 250;  // bright ticks on the left
            for (int c = 0; c < channels; ++c) {
                const double tint = channels == 3 ? (c == 0 ? 1.0 : c == 1 ? 0.8 + 0.2 * u : 0.6 + 0.4 * v) : 1.0;
                const double noisy = value * tint + static_cast<double>(rng.integer(-6, 6));
                image.pixels[(static_cast<std::size_t>(y) * width + x) * channels + c] =
                    static_cast<std::uint8_t>(std::lround(std::clamp(noisy, 0.0, 255.0)));
            }
        }
    }
    return image;
}

}  // namespace course
