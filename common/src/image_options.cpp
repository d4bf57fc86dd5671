#include "course/image_options.h"

#include "course/check.h"

#include <cctype>

namespace course {

ImageRequest image_request(const Options& options, int default_side, int max_side) {
    ImageRequest request;
    request.width = request.height = default_side;
    if (!options.input_image.empty() && !options.size.empty())
        throw UsageError("--size and --input: give one of them (the image's size is the file's)");
    if (!options.size.empty()) {
        const auto dims = parse_dims(options.size, 2, "--size");
        if (dims[0] > static_cast<std::uint64_t>(max_side) || dims[1] > static_cast<std::uint64_t>(max_side))
            throw UsageError("--size: \"" + options.size + "\" is too large; each side can be at most " +
                             std::to_string(max_side));
        request.width = static_cast<int>(dims[0]);
        request.height = static_cast<int>(dims[1]);
    }
    request.input = options.input_image;

    const std::string& output = options.output_image;
    if (!output.empty()) {
        const auto dot = output.find_last_of('.');
        std::string ext = dot == std::string::npos ? "" : output.substr(dot + 1);
        for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (ext != "png" && ext != "pgm") throw UsageError("--output: \"" + output + "\" should end in .png or .pgm");
    }
    return request;
}

Image load_requested_image(const ImageRequest& request, std::uint64_t seed, int max_side, int channels) {
    if (request.input.empty()) return synthetic_image(request.width, request.height, channels, seed);
    Image image = load_image(request.input, channels);
    if (image.width > max_side || image.height > max_side)
        throw UsageError("--input: \"" + request.input + "\" is " + std::to_string(image.width) + "x" +
                         std::to_string(image.height) + "; each side can be at most " + std::to_string(max_side));
    return image;
}

}  // namespace course
