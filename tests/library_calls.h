// What a graded kernel.cu calls outside itself, read from the symbols its
// static library leaves undefined (`nm --undefined-only`), and which of those
// calls a lesson's launcher may not make: a library's API (cuBLAS, NPP,
// cuFFT, ...), code loaded or looked up at run time (dlopen, the driver's
// modules, launches and entry points, the loaded libraries' symbol tables),
// the question whether its stream is being captured, the course's own
// library rungs (matmul::cublas_sgemm, hgemm::cublas_gemm_ex,
// reduction::CubSum), the grading program's own functions
// (course::testing::) and the reference solution the grading test links
// (namespace `solution`).
//
// The own-kernels check (own_kernels.h) looks at the kernels a launcher runs
// where a capture records them; this one looks at what the code can reach, so
// a launcher that asks whether it is being captured, or that counts its calls
// and hands the work to a library or the reference solution on the calls a
// capture does not see, fails here. A call of a kind the step's solution
// makes is allowed: hgemm 06 to 09 ask the driver for cuTensorMapEncodeTiled
// (cudaGetDriverEntryPointByVersion), matmul 10 asks whether it is captured
// (cudaStreamIsCapturing: it cannot time its configurations then). What it
// cannot see: a launcher that counts its calls and runs other kernels of its
// own on some of them; one that finds a function without naming it (by
// parsing its own executable); and one that replaces the C library's popen,
// which the grading program runs nm through, in its own process (the CPU test
// `library calls (CPU)` runs the same rules on every lesson from outside).
// No CUDA here, so that the CPU tests check the reading on made-up listings.
#pragma once

#include "command_output.h"
#include "sass_text.h"

#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace course::testing {

// The undefined symbols of `nm --undefined-only --format=posix` output: each
// line "<symbol> U ..." (a line per object of the archive, the objects' own
// lines "library.a[object.o]:" in between), each symbol once.
inline std::set<std::string> undefined_symbols(const std::string& nm_output) {
    std::set<std::string> symbols;
    std::istringstream lines(nm_output);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::string symbol, type;
        if (fields >> symbol >> type && (type == "U" || type == "w" || type == "v")) symbols.insert(symbol);
    }
    return symbols;
}

// What `symbol` (as nm prints it: mangled, or a C name) reaches that a
// lesson's launcher may not call, in words for a message ("cuBLAS's API"), or
// "" where it is allowed.
inline std::string forbidden_call(const std::string& symbol) {
    struct Prefix {
        const char* prefix;
        const char* what;
    };
    static const Prefix prefixes[] = {
        {"cublas", "cuBLAS's API"},
        {"npp", "NPP's API"},
        {"cufft", "cuFFT's API"},
        {"curand", "cuRAND's API"},
        {"cusparse", "cuSPARSE's API"},
        {"cusolver", "cuSOLVER's API"},
        {"cudnn", "cuDNN's API"},
        {"cutensor", "cuTENSOR's API"},
        {"nvrtc", "NVRTC, which compiles code at run time"},
        {"nvJitLink", "nvJitLink, which links code at run time"},
        {"cuModule", "the driver's modules: code loaded at run time"},
        {"cuLibrary", "the driver's libraries: code loaded at run time"},
        {"cudaLibrary", "the runtime's libraries: code loaded at run time"},
        {"cuKernel", "the driver's kernels, launched by handle"},
        {"cuLaunch", "the driver's launches"},
        {"cuGetProcAddress", "the driver's functions, looked up by name"},
        {"cudaGetDriverEntryPoint", "the driver's functions, looked up by name"},
        {"dlopen", "code loaded at run time"},
        {"dlmopen", "code loaded at run time"},
        {"dlsym", "functions looked up by name at run time"},
        {"dlvsym", "functions looked up by name at run time"},
        {"dl_iterate_phdr", "the loaded libraries' symbol tables, walked at run time"},
        {"getauxval", "the loaded libraries' symbol tables, walked at run time"},
        {"cudaStreamIsCapturing", "the question whether its stream is being captured"},
        {"cudaStreamGetCaptureInfo", "the question whether its stream is being captured"},
        {"cuStreamIsCapturing", "the question whether its stream is being captured"},
        {"cuStreamGetCaptureInfo", "the question whether its stream is being captured"},
    };
    for (const Prefix& p : prefixes)
        if (symbol.rfind(p.prefix, 0) == 0) return p.what;
    const std::string name = demangled(symbol);
    if (name.rfind("course::testing::", 0) == 0) return "the grading program's own functions";
    if (name.find("::solution::") != std::string::npos || name.rfind("solution::", 0) == 0)
        return "the reference solution, which the grading test links to race it";
    for (const char* rung : {"matmul::cublas_sgemm(", "hgemm::cublas_gemm_ex(", "reduction::CubSum::"})
        if (name.find(rung) != std::string::npos) return "the track's library rung";
    return "";
}

// One forbidden call: the symbol, demangled, and what it reaches.
struct ForbiddenCall {
    std::string name;
    std::string what;
};

// The calls of `graded` (its undefined symbols) that forbidden_call refuses,
// but for those of a kind that `solution` (the step's solution's) makes too:
// where the solution asks whether it is captured with cudaStreamIsCapturing,
// cudaStreamGetCaptureInfo is allowed as well.
inline std::vector<ForbiddenCall> forbidden_calls(const std::set<std::string>& graded,
                                                  const std::set<std::string>& solution) {
    std::set<std::string> allowed;
    for (const std::string& symbol : solution) allowed.insert(forbidden_call(symbol));
    std::vector<ForbiddenCall> calls;
    for (const std::string& symbol : graded) {
        const std::string what = forbidden_call(symbol);
        if (!what.empty() && allowed.count(what) == 0) calls.push_back({demangled(symbol), what});
    }
    return calls;
}

// The symbols `library` leaves undefined, read with `nm`; false and why in
// `failure` where nm is missing or fails.
inline bool library_undefined_symbols(const std::string& nm, const std::string& library, std::set<std::string>& symbols,
                                      std::string& failure) {
    std::string listing;
    if (!tool_output(nm, "--undefined-only --format=posix '" + library + "'",
                     "nm (binutils) was not found when the build was configured, so what the kernel.cu calls cannot "
                     "be read: install binutils and run meson setup --reconfigure",
                     "what the library calls cannot be read", listing, failure)) {
        if (!listing.empty()) failure += ": " + listing.substr(0, 400);
        return false;
    }
    symbols = undefined_symbols(listing);
    return true;
}

}  // namespace course::testing
