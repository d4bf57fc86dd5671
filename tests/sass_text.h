// A kernel's machine code as `cuobjdump -sass` prints it, cut into its
// functions: for the grading checks that read it (tests/hgemm/sass.h counts
// instructions, tests/pipeline/sass_rows.h a loop's). No CUDA here, so that
// the CPU tests check the reading on made-up listings.
#pragma once

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace course::testing {

// One function's code: its mangled name and its lines.
struct SassFunction {
    std::string name;
    std::vector<std::string> lines;
};

// The functions of `listing`, in order: each function's code starts at a line
// "Function : <name>", once per architecture the file holds code for, and
// runs to the next such line; lines before the first are no function's.
inline std::vector<SassFunction> sass_functions(const std::string& listing) {
    std::vector<SassFunction> functions;
    std::istringstream lines(listing);
    std::string line;
    while (std::getline(lines, line)) {
        const std::size_t at = line.find("Function : ");
        if (at != std::string::npos) {
            std::string name = line.substr(at + 11);
            while (!name.empty() && (name.back() == '\r' || name.back() == ' ' || name.back() == '\t')) name.pop_back();
            functions.push_back({name, {}});
        } else if (!functions.empty()) {
            functions.back().lines.push_back(line);
        }
    }
    return functions;
}

// Every function's name once, in the listing's order, comma-separated.
inline std::string function_names(const std::vector<SassFunction>& functions) {
    std::vector<std::string> seen;
    std::string names;
    for (const SassFunction& f : functions) {
        if (std::find(seen.begin(), seen.end(), f.name) != seen.end()) continue;
        names += (seen.empty() ? "" : ", ") + f.name;
        seen.push_back(f.name);
    }
    return names;
}

}  // namespace course::testing
