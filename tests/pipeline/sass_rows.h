// Reading the hot loop of pipeline steps 08 and 09 in their machine code
// (SASS, as `cuobjdump -sass` prints it), for step 09's check without a clock
// (tests/pipeline/helpers.h, check_fewer_instructions). No CUDA here, so
// that the CPU tests (test_reference.cpp) check the reading on a made-up
// listing.
#pragma once

#include "sass_text.h"

#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace pipeline::testing {

// The cheapest loop of a kernel that loads whole words: its instructions per
// row. A loop is the code from a conditional branch back (a predicated BRA
// whose target lies before it) to its target. A row of the word walks loads
// three 4-byte RGB words (LDG without .U8), so a loop's rows are its word
// loads / 3, and the strip's hot loop (rows inside the image) is the one with
// the fewest instructions a row. `found`: the kernel has code in the listing;
// `rows` and `instructions`: that loop's (0 where no loop loads words).
struct WordLoop {
    bool found = false;
    int instructions = 0;
    int rows = 0;
    std::string functions;  // every kernel of the listing, comma-separated
    double per_row() const { return rows > 0 ? double(instructions) / rows : std::numeric_limits<double>::infinity(); }
};

// `kernel` is the mangled name, as cudaFuncGetName gives it and cuobjdump
// prints it after "Function : ". A listing may hold the kernel's code once
// per architecture: the cheapest loop of the most expensive copy counts.
inline WordLoop cheapest_word_loop(const std::string& listing, const std::string& kernel) {
    struct Instruction {
        long address;
        std::string text;
    };
    std::vector<std::vector<Instruction>> copies;  // the kernel's code, once per architecture
    const std::vector<course::testing::SassFunction> functions = course::testing::sass_functions(listing);
    WordLoop result;
    result.functions = course::testing::function_names(functions);
    for (const course::testing::SassFunction& function : functions) {
        if (function.name != kernel) continue;
        copies.emplace_back();
        for (const std::string& line : function.lines) {
            // "        /*01a0*/                   LDG.E.CONSTANT R44, desc[UR4][R4.64] ;"
            const std::size_t open = line.find("/*"), close = line.find("*/");
            if (open == std::string::npos || close == std::string::npos || close < open + 3) continue;
            const std::string hex = line.substr(open + 2, close - open - 2);
            if (hex.find_first_not_of("0123456789abcdef") != std::string::npos) continue;
            std::string text = line.substr(close + 2);
            const std::size_t start = text.find_first_not_of(' ');
            const std::size_t end = text.find(';');
            if (start == std::string::npos || end == std::string::npos || end <= start) continue;
            copies.back().push_back({std::strtol(hex.c_str(), nullptr, 16), text.substr(start, end - start)});
        }
    }
    result.found = !copies.empty();
    double worst = -1;
    for (const auto& code : copies) {
        WordLoop best;
        for (const Instruction& branch : code) {
            if (branch.text.rfind("@", 0) != 0 || branch.text.find(" BRA ") == std::string::npos) continue;
            const std::size_t x = branch.text.rfind("0x");
            if (x == std::string::npos) continue;
            const long target = std::strtol(branch.text.c_str() + x + 2, nullptr, 16);
            if (target >= branch.address) continue;
            int count = 0, loads = 0;
            for (const Instruction& i : code) {
                if (i.address < target || i.address > branch.address) continue;
                ++count;
                if (i.text.find("LDG") != std::string::npos && i.text.find(".U8") == std::string::npos) ++loads;
            }
            WordLoop loop;
            loop.instructions = count;
            loop.rows = loads / 3;
            if (loop.rows > 0 && loop.per_row() < best.per_row()) best = loop;
        }
        if (best.per_row() > worst) {
            worst = best.per_row();
            result.instructions = best.instructions;
            result.rows = best.rows;
        }
    }
    return result;
}

}  // namespace pipeline::testing
