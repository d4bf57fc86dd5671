// How far a test shifts each of a problem's three arrays (two inputs, one
// output) from the start of its allocation, in elements, so that a kernel is
// handed pointers off the alignment its vector loads need (how many bytes a
// shift moves depends on the element: 1 float is 4 bytes, 8 halves are 16).
//
// A kernel with a vector path must check every array it reads or writes that
// way. Shifting all three together would pass a kernel that checks only one of
// them (its check fails, it takes the safe path for all three), so grading
// shifts one array at a time as well: offsets_one_at_a_time.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace course {

struct Offsets {
    std::size_t a = 0, b = 0, c = 0;
};

// {k, 0, 0}, {0, k, 0}, {0, 0, k}, then {k, k, k}.
inline std::vector<Offsets> offsets_one_at_a_time(std::size_t k) {
    return {{k, 0, 0}, {0, k, 0}, {0, 0, k}, {k, k, k}};
}

// "A offset by 1 element, B and C aligned", "a, b and c offset by 2 floats", ...:
// `names` are the three arrays' names, `unit` the element's name (singular).
inline std::string describe(const Offsets& offsets, const char* const (&names)[3], const std::string& unit) {
    const std::size_t values[3] = {offsets.a, offsets.b, offsets.c};
    std::vector<std::string> shifted, aligned;
    std::size_t by = 0;
    for (int i = 0; i < 3; ++i) {
        (values[i] != 0 ? shifted : aligned).push_back(names[i]);
        if (values[i] != 0) by = values[i];
    }
    const auto list = [](const std::vector<std::string>& words) {
        std::string text;
        for (std::size_t i = 0; i < words.size(); ++i)
            text += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
        return text;
    };
    if (shifted.empty()) return "every array aligned";
    bool same = true;
    for (const std::size_t value : values) same = same && (value == 0 || value == by);
    std::string text = list(shifted) + " offset by ";
    if (same) {
        text += std::to_string(by) + " " + unit + (by == 1 ? "" : "s");
    } else {
        text += "(" + std::to_string(offsets.a) + ", " + std::to_string(offsets.b) + ", " + std::to_string(offsets.c) +
                ") " + unit + "s";
    }
    if (!aligned.empty()) text += ", " + list(aligned) + " aligned";
    return text;
}

}  // namespace course
