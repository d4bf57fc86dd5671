// Image files: round trips through PNG and PGM/PPM, and clear errors for
// missing, corrupt and unsupported files.
#include "doctest_include.h"

#include "course/byte_image.h"
#include "course/check.h"
#include "course/image.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

// A fresh path in the test's working directory (Meson runs tests in the
// build directory), removed when the test ends.
struct TempFile {
    explicit TempFile(const std::string& name) : path("test-image-" + name) {}
    ~TempFile() { std::remove(path.c_str()); }
    std::string path;
};

std::string error_of(const std::string& path, int channels = 1) {
    try {
        course::load_image(path, channels);
    } catch (const course::Error& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("the synthetic image is deterministic, sized as asked, and not flat") {
    const auto a = course::synthetic_image(37, 23, 1, 7);
    const auto b = course::synthetic_image(37, 23, 1, 7);
    CHECK(a.width == 37);
    CHECK(a.height == 23);
    CHECK(a.pixels.size() == 37u * 23u);
    CHECK(a.pixels == b.pixels);
    int lo = 255, hi = 0;
    for (auto p : a.pixels) lo = std::min<int>(lo, p), hi = std::max<int>(hi, p);
    CHECK(hi - lo > 100);
    CHECK(course::synthetic_image(8, 8, 3, 1).pixels.size() == 8u * 8u * 3u);
    CHECK_THROWS_AS(course::synthetic_image(0, 8, 1, 1), course::Error);
}

TEST_CASE("PNG and PGM/PPM round trips keep every pixel") {
    for (const std::string ext : {"png", "pgm"}) {
        CAPTURE(ext);
        TempFile file(std::string("gray.") + ext);
        const auto image = course::synthetic_image(31, 17, 1, 3);
        course::save_image(file.path, image);
        const auto back = course::load_image(file.path, 1);
        CHECK(back.width == 31);
        CHECK(back.height == 17);
        CHECK(back.pixels == image.pixels);
    }
    for (const std::string ext : {"png", "ppm"}) {
        CAPTURE(ext);
        TempFile file(std::string("rgb.") + ext);
        const auto image = course::synthetic_image(19, 5, 3, 3);
        course::save_image(file.path, image);
        CHECK(course::load_image(file.path, 3).pixels == image.pixels);
    }
}

TEST_CASE("a colour file read as gray is converted") {
    TempFile file("convert.png");
    course::save_image(file.path, course::synthetic_image(9, 9, 3, 1));
    const auto gray = course::load_image(file.path, 1);
    CHECK(gray.channels == 1);
    CHECK(gray.pixels.size() == 81u);
}

TEST_CASE("missing, corrupt and unsupported files give a reason") {
    CHECK(error_of("no-such-file.png") == "cannot open image \"no-such-file.png\": no such file or not readable");

    TempFile garbage("garbage.png");
    std::ofstream(garbage.path, std::ios::binary) << "this is not a picture";
    CHECK(error_of(garbage.path).find("cannot read image \"test-image-garbage.png\": ") == 0);

    // A real PNG cut in half.
    TempFile whole("whole.png"), cut("cut.png");
    course::save_image(whole.path, course::synthetic_image(64, 64, 1, 5));
    std::ifstream in(whole.path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(cut.path, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    CHECK(error_of(cut.path).find("cannot read image") == 0);

    CHECK_THROWS_WITH_AS(course::save_image("out.bmp", course::synthetic_image(4, 4, 1, 1)),
                         "cannot save \"out.bmp\": use .png, or .pgm for gray and .ppm for colour images",
                         course::Error);
    CHECK_THROWS_AS(course::save_image("out.pgm", course::synthetic_image(4, 4, 3, 1)), course::Error);
    CHECK_THROWS_AS(course::save_image("no-such-dir/out.png", course::synthetic_image(4, 4, 1, 1)), course::Error);
}

TEST_CASE("an image problem's other input sets change every byte, by 1 to 15, each set its own way") {
    const course::Image image = course::speckled_image(67, 31, 9, 3);
    const course::Image same = course::input_set_image(image, 0);
    CHECK(same.pixels == image.pixels);
    const course::Image first = course::input_set_image(image, 1), second = course::input_set_image(image, 2);
    for (const course::Image* set : {&first, &second}) {
        CHECK(set->width == image.width);
        CHECK(set->height == image.height);
        CHECK(set->channels == image.channels);
        REQUIRE(set->pixels.size() == image.pixels.size());
        std::size_t unchanged = 0, far = 0;
        for (std::size_t i = 0; i < image.pixels.size(); ++i) {
            const int change = std::abs(int(set->pixels[i]) - int(image.pixels[i]));
            unchanged += change == 0;
            far += change > 15;
        }
        CHECK(unchanged == 0);
        CHECK(far == 0);
    }
    std::size_t equal = 0;
    for (std::size_t i = 0; i < image.pixels.size(); ++i) equal += first.pixels[i] == second.pixels[i];
    CHECK(equal < image.pixels.size() / 4);                           // a mask from 1 to 15 agrees 1 time in 15
    CHECK(course::input_set_image(image, 1).pixels == first.pixels);  // the same every time
}
