// The command line of the image tracks (convolution, separable, ...): which
// image a ladder filters, and where its result goes. One place, so that every
// image track says the same thing about the same mistake.
#pragma once

#include "course/image.h"
#include "course/options.h"

#include <cstdint>
#include <string>

namespace course {

// The image a ladder runs on: --input, or the synthetic picture of --size.
struct ImageRequest {
    int width = 0, height = 0;  // from --size (default_side x default_side when it is empty)
    std::string input;          // --input; empty: the synthetic picture
};

// Parses --size ("N" or "WxH", each side at most max_side) and --input (not
// both), and checks that --output, if given, ends in .png or .pgm. Throws
// UsageError with the option's name.
ImageRequest image_request(const Options& options, int default_side, int max_side);

// The requested image with `channels` channels (1: grey, 3: RGB): the
// --input file, or the synthetic picture of the requested size. Throws
// UsageError if the file has a side past max_side.
Image load_requested_image(const ImageRequest& request, std::uint64_t seed, int max_side, int channels = 1);

}  // namespace course
