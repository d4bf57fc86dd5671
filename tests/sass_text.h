// A kernel's machine code as `cuobjdump -sass` prints it, cut into its
// functions, and the questions the grading checks ask of one kernel's code
// (tests/hgemm/sass.h counts its tensor-core and TMA instructions, basics 02
// and matmul 06 look for 16-byte loads, matmul 09 for cp.async and its waits,
// tests/pipeline/sass_rows.h a loop's rows). No CUDA here, so that the CPU
// tests check the reading on made-up listings.
#pragma once

#include <cxxabi.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
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

// A mangled name as C++ writes it ("_Z3fooi" is "foo(int)"), or the name
// itself where it does not demangle (an extern "C" kernel's).
inline std::string demangled(const std::string& name) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                std::free);
    return status == 0 && text ? std::string(text.get()) : name;
}

// The code of one kernel in a listing: the lines of every function of its
// mangled name (one per architecture the file holds code for, in order, all
// together: a build for several architectures counts an instruction once per
// architecture, and finds it where any of them has it), and every function's
// name, for a message where the kernel has none.
struct KernelCode {
    bool found = false;
    std::vector<std::string> lines;
    std::string functions;
};

inline KernelCode kernel_code(const std::string& listing, const std::string& kernel) {
    KernelCode code;
    const std::vector<SassFunction> functions = sass_functions(listing);
    code.functions = function_names(functions);
    for (const SassFunction& function : functions) {
        if (function.name != kernel) continue;
        code.found = true;
        code.lines.insert(code.lines.end(), function.lines.begin(), function.lines.end());
    }
    return code;
}

// How many of `lines` hold every one of `parts` ("LDG.", ".128": the 16-byte
// global loads; "LDG" alone would count LDGSTS and LDGDEPBAR too).
inline std::size_t count_lines_with(const std::vector<std::string>& lines,
                                    std::initializer_list<std::string_view> parts) {
    return static_cast<std::size_t>(std::count_if(lines.begin(), lines.end(), [&](const std::string& line) {
        return std::all_of(parts.begin(), parts.end(),
                           [&](std::string_view part) { return line.find(part) != std::string::npos; });
    }));
}

// The most groups of cp.async copies a wait in `lines` leaves in flight:
// cp.async.wait_group N compiles to "DEPBAR.LE SB0, N" (N in hexadecimal,
// 0x1), so a pipeline that computes on one tile while the copies of the next
// two are in flight waits with N >= 1, and one that waits for every copy it
// issued with N = 0. -1 where no line waits so.
inline long most_copy_groups_left_in_flight(const std::vector<std::string>& lines) {
    long most = -1;
    for (const std::string& line : lines) {
        const std::size_t at = line.find("DEPBAR.LE SB0, ");
        if (at == std::string::npos) continue;
        const char* number = line.c_str() + at + 15;
        char* end = nullptr;
        const long n = std::strtol(number, &end, 0);
        if (end != number) most = std::max(most, n);
    }
    return most;
}

// The library a kernel comes from, where its mangled name says so: its
// outermost namespace (_ZN, then the name's length and the name: "_ZN3cub17
// CUB_300001_SM_900..." is CUB's) when that is one of the CUDA toolkit's
// header-only libraries, whose kernels compile into any .cu that calls them
// (cub::DeviceReduce::Sum instantiates CUB's kernels there). "" otherwise.
inline std::string library_of_kernel(const std::string& mangled) {
    if (mangled.rfind("_ZN", 0) != 0) return "";
    std::size_t at = 3;
    std::size_t length = 0;
    while (at < mangled.size() && mangled[at] >= '0' && mangled[at] <= '9')
        length = 10 * length + (mangled[at++] - '0');
    if (length == 0 || at + length > mangled.size()) return "";
    const std::string outermost = mangled.substr(at, length);
    for (const char* library : {"cub", "thrust", "cutlass", "cute", "cuda"})
        if (outermost == library) return outermost;
    return "";
}

}  // namespace course::testing
