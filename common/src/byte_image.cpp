#include "course/byte_image.h"

#include "course/check.h"
#include "course/random.h"

#include <algorithm>
#include <cstdio>

namespace course {

namespace {

// Spare bytes around a DeviceImage, and the alignment of its first pixel
// (the texture alignment of current GPUs is 512 bytes).
constexpr std::size_t kImageAlignment = 512;
constexpr std::size_t kGuardBytes = 512;

std::size_t round_up(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

bool aligned_to(const void* pointer, std::size_t bytes) {
    return reinterpret_cast<std::uintptr_t>(pointer) % bytes == 0;
}

// The device's texture alignment rules, asked once.
struct TextureAlignment {
    int pitch = 32;
    int base = 512;
};
TextureAlignment texture_alignment() {
    int device = 0;
    TextureAlignment alignment;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&alignment.pitch, cudaDevAttrTexturePitchAlignment, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&alignment.base, cudaDevAttrTextureAlignment, device));
    return alignment;
}

const Image& grey_image(const std::string& track, const Image& image) {
    if (image.channels != 1) throw Error(track + ": the image must have 1 channel (grey)");
    if (image.width <= 0 || image.height <= 0) throw Error(track + ": the image is empty");
    return image;
}

// The seed every image problem's other input sets start from: the sets must
// differ from set 0 and from each other, not from run to run.
constexpr std::uint64_t kInputSetSeed = 0x1a9e5e7;

int checked_pitch(const std::string& track, int width, int pitch) {
    const int chosen = pitch == 0 ? default_pitch(width) : pitch;
    if (chosen < width)
        throw Error(track + ": a pitch of " + std::to_string(chosen) + " bytes is narrower than the image (" +
                    std::to_string(width) + " pixels)");
    return chosen;
}

}  // namespace

int default_pitch(int width) { return static_cast<int>(round_up(static_cast<std::size_t>(width), 128)); }

Image speckled_image(int width, int height, std::uint64_t seed, int channels) {
    Image image = synthetic_image(width, height, channels, seed);
    Rng rng(seed ^ 0x5eed);
    for (auto& pixel : image.pixels) {
        const auto roll = rng.integer(0, 99);
        if (roll == 0) pixel = 0;
        if (roll == 1) pixel = 255;
    }
    return image;
}

Image input_set_image(const Image& image, int set) {
    if (set == 0) return image;
    Image varied = image;
    Rng rng(input_set_seed(kInputSetSeed, set));
    for (auto& byte : varied.pixels) byte = static_cast<std::uint8_t>(byte ^ rng.integer(1, 15));
    return varied;
}

int pitch_pad_option(const Options& options) {
    constexpr int kMaxPitchPad = 4096;
    const std::string& pad = options.option("pitch-pad");
    if (pad == "0") return 0;
    const int value = static_cast<int>(std::min<std::uint64_t>(parse_count(pad, "--pitch-pad"), kMaxPitchPad + 1));
    if (value > kMaxPitchPad)
        throw UsageError("--pitch-pad: \"" + pad + "\" is too large; at most " + std::to_string(kMaxPitchPad));
    return value;
}

bool rows_aligned(const void* in, const void* out, int pitch, int bytes) {
    return aligned_to(in, static_cast<std::size_t>(bytes)) && aligned_to(out, static_cast<std::size_t>(bytes)) &&
           pitch % bytes == 0;
}

// --- DeviceImage ---------------------------------------------------------------------------

DeviceImage::DeviceImage(int width, int height, int pitch)
    : width_(width), height_(height), pitch_(pitch),
      storage_(static_cast<std::size_t>(pitch) * height + 2 * kGuardBytes + kImageAlignment) {
    const auto base = reinterpret_cast<std::uintptr_t>(storage_.data());
    offset_ = round_up(base + kGuardBytes, kImageAlignment) - base;
}

void DeviceImage::upload(const std::vector<std::uint8_t>& pixels) {
    if (pixels.size() != static_cast<std::size_t>(width_) * height_) throw Error("DeviceImage::upload: size mismatch");
    // In order with all other work, as DeviceBuffer::upload (course/buffers.h).
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy2D(data(), static_cast<std::size_t>(pitch_), pixels.data(), static_cast<std::size_t>(width_),
                            static_cast<std::size_t>(width_), static_cast<std::size_t>(height_),
                            cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaDeviceSynchronize());
}

void DeviceImage::fill(std::uint8_t pattern, cudaStream_t stream) { storage_.fill_bytes(pattern, stream); }

std::vector<std::uint8_t> DeviceImage::download() const {
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width_) * height_);
    CUDA_CHECK(cudaMemcpy2D(pixels.data(), static_cast<std::size_t>(width_), data(), static_cast<std::size_t>(pitch_),
                            static_cast<std::size_t>(width_), static_cast<std::size_t>(height_),
                            cudaMemcpyDeviceToHost));
    return pixels;
}

Image DeviceImage::download_image() const {
    Image image;
    image.width = width_;
    image.height = height_;
    image.channels = 1;
    image.pixels = download();
    return image;
}

// --- ByteImages ----------------------------------------------------------------------------

ByteImages::ByteImages(const char* track, const Image& image, Reference reference, int pitch)
    : track_(track), reference_(std::move(reference)),
      in_(grey_image(track_, image).width, image.height, checked_pitch(track_, image.width, pitch)),
      out_(image.width, image.height, checked_pitch(track_, image.width, pitch)) {
    sets_.emplace(0, InputSet{image, reference_(image)});
    if (sets_.at(0).expected.size() != image.pixels.size())
        throw Error(track_ + ": the expected image has " + std::to_string(sets_.at(0).expected.size()) +
                    " pixels, the input " + std::to_string(image.pixels.size()));
    // The padding and spare bytes of the input hold a fixed pattern: a
    // kernel may read them (whole words near the right edge), never use them.
    in_.fill(0x5a, nullptr);
    use_inputs(0, nullptr);
}

const ByteImages::InputSet& ByteImages::input_set(int set) {
    auto found = sets_.find(set);
    if (found == sets_.end()) {
        Image input = input_set_image(sets_.at(0).input, set);
        std::vector<std::uint8_t> expected = reference_(input);
        found = sets_.emplace(set, InputSet{std::move(input), std::move(expected)}).first;
    }
    return found->second;
}

void ByteImages::use_inputs(int set, cudaStream_t) {
    const InputSet& inputs = input_set(set);
    in_.upload(inputs.input.pixels);
    if (texture_copy_) texture_copy_->upload(inputs.input.pixels);
    current_ = set;
}

TextureObject ByteImages::texture(const cudaTextureDesc& desc) {
    static const TextureAlignment alignment = texture_alignment();
    const DeviceImage* source = &in_;
    if (pitch() % alignment.pitch != 0 || !aligned_to(in_.data(), static_cast<std::size_t>(alignment.base))) {
        if (static_cast<std::size_t>(alignment.base) > kImageAlignment)
            throw Error(track_ + ": this GPU aligns textures to " + std::to_string(alignment.base) +
                        " bytes, more than the track's images (" + std::to_string(kImageAlignment) + ")");
        if (!texture_copy_) {
            texture_copy_.emplace(width(), height(),
                                  static_cast<int>(round_up(static_cast<std::size_t>(width()), alignment.pitch)));
            texture_copy_->upload(input_pixels());
        }
        source = &*texture_copy_;
    }
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypePitch2D;
    resource.res.pitch2D.devPtr = const_cast<std::uint8_t*>(source->data());
    resource.res.pitch2D.desc = cudaCreateChannelDesc<unsigned char>();
    resource.res.pitch2D.width = static_cast<std::size_t>(width());
    resource.res.pitch2D.height = static_cast<std::size_t>(height());
    resource.res.pitch2D.pitchInBytes = static_cast<std::size_t>(source->pitch());
    return TextureObject(resource, desc);
}

void ByteImages::poison(std::uint8_t pattern, cudaStream_t stream) {
    out_.fill(pattern, stream);
    last_poison_ = pattern;
}

void ByteImages::copy_frame(int frame, cudaStream_t stream) {
    const int w = width(), h = height();
    const std::size_t p = static_cast<std::size_t>(pitch());
    auto copy = [&](int x, int y, int columns, int rows) {
        if (columns <= 0 || rows <= 0) return;
        const std::size_t at = static_cast<std::size_t>(y) * p + static_cast<std::size_t>(x);
        CUDA_CHECK(cudaMemcpy2DAsync(out_.data() + at, p, in_.data() + at, p, static_cast<std::size_t>(columns),
                                     static_cast<std::size_t>(rows), cudaMemcpyDeviceToDevice, stream));
    };
    // Rows [0, top) and [bottom, h) whole; in between, columns [0, left) and [right, w).
    const int top = std::min(frame, h), bottom = std::max(top, h - frame);
    const int left = std::min(frame, w), right = std::max(left, w - frame);
    copy(0, 0, w, top);
    copy(0, bottom, w, h - bottom);
    copy(0, top, left, bottom - top);
    copy(right, top, w - right, bottom - top);
}

CheckResult check_device_image(const DeviceImage& image, const std::vector<std::uint8_t>& expected,
                               std::uint8_t poison) {
    const std::vector<std::uint8_t> all = image.download_all();
    const std::size_t start = image.offset(), p = static_cast<std::size_t>(image.pitch());
    const std::size_t w = static_cast<std::size_t>(image.width()), h = static_cast<std::size_t>(image.height());
    if (expected.size() != w * h)
        throw Error("check_device_image: the expected image has " + std::to_string(expected.size()) +
                    " pixels, the image " + std::to_string(w * h));
    CheckResult result = compare_exact_2d(all.data() + start, p, expected.data(), w, h);
    if (!result.ok) return result;

    // Every byte that is not a pixel must still hold the poison: a kernel
    // that stores a whole word across the end of a row, or past the last
    // row, is caught here even when the pixels came out right.
    std::size_t changed = 0;
    std::string first;
    auto look = [&](std::size_t i) {
        if (all[i] == poison) return;
        if (changed++ > 0) return;
        char where[160];
        if (i < start)
            std::snprintf(where, sizeof where, "%zu bytes before the first row", start - i);
        else if (i >= start + p * h)
            std::snprintf(where, sizeof where, "%zu bytes after the last row", i - (start + p * h) + 1);
        else
            std::snprintf(where, sizeof where, "byte %zu of row %zu (the row padding: the image is %zu wide)",
                          (i - start) % p, (i - start) / p, w);
        char value[64];
        std::snprintf(value, sizeof value, ": 0x%02x where the poison 0x%02x was", all[i], poison);
        first = std::string(where) + value;
    };
    for (std::size_t i = 0; i < start; ++i) look(i);
    for (std::size_t y = 0; y < h; ++y)
        for (std::size_t i = start + y * p + w; i < start + (y + 1) * p; ++i) look(i);
    for (std::size_t i = start + p * h; i < all.size(); ++i) look(i);
    if (changed > 0)
        return failed_check("every pixel is right, but " + std::to_string(changed) +
                            " bytes outside the image were written; the first is " + first);
    return result;
}

CheckResult ByteImages::check(const std::vector<std::uint8_t>& expected) const {
    return check_device_image(out_, expected, last_poison_);
}

// Rows that follow each other with no padding are one block of memory,
// copied with a plain cudaMemcpyAsync (the 2-D form of the same copy was
// measured much slower on the H200: see the convolution track's README);
// padded rows need the 2-D form, which leaves the padding alone.
KernelRun ByteImages::copy_run() {
    return KernelRun{
        [this](cudaStream_t stream) {
            const std::size_t p = static_cast<std::size_t>(pitch());
            const std::size_t w = static_cast<std::size_t>(width()), h = static_cast<std::size_t>(height());
            if (p == w)
                CUDA_CHECK(cudaMemcpyAsync(out(), in(), w * h, cudaMemcpyDeviceToDevice, stream));
            else
                CUDA_CHECK(cudaMemcpy2DAsync(out(), p, in(), p, w, h, cudaMemcpyDeviceToDevice, stream));
        },
        [this](std::uint8_t pattern, cudaStream_t stream) { poison(pattern, stream); },
        [this]() { return check(input_pixels()); },
        [this](int set, cudaStream_t stream) { use_inputs(set, stream); },
    };
}

Rung ByteImages::copy_rung(Harness& harness) {
    Rung rung;
    rung.label = "copy";
    rung.title = "device-to-device copy of the same image";
    rung.work = bytes_moved();
    return measure(harness, rung, copy_run());
}

void ByteImages::set_copy_ceiling(Ladder& ladder, const Rung& copy_row, Harness& harness) {
    const std::string what = "a device-to-device copy of the same bytes";
    double best = copy_row.check.ok && copy_row.time.runs > 0 ? throughput(copy_row) : 0;
    if (pitch() != width() && !harness.profile_pass) {
        const std::size_t span = static_cast<std::size_t>(pitch()) * static_cast<std::size_t>(height());
        Rung whole;
        whole.work = bytes_moved();
        whole.time = time_launches(
            [this, span](cudaStream_t stream) {
                CUDA_CHECK(cudaMemcpyAsync(out(), in(), span, cudaMemcpyDeviceToDevice, stream));
            },
            harness.timing, &harness.flusher, harness.stream.get());
        harness.stream.synchronize();
        best = std::max(best, throughput(whole));
    }
    if (best > 0) set_ceiling(ladder, best, what, kMeasuredCeilingMargin);
}

Image ByteImages::output() const { return out_.download_image(); }

}  // namespace course
