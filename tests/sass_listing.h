// Reading a graded kernel's machine code: its mangled name and cuobjdump's
// listing of the static library built from its kernel.cu, and the launched
// kernel's code from it (launched_kernel_code). For the grading checks that
// look for instructions or count them: basics 02 and matmul 06 (16-byte
// loads), matmul 09 (cp.async and its waits: tests/matmul/stages.h), hgemm
// 06 to 09 (TMA copies, wgmma, setmaxnreg: tests/hgemm/structure.h),
// pipeline 09 (its loop's rows: tests/pipeline/helpers.cpp), separable 02
// (constant-memory reads: tests/separable/helpers.cpp) and the own-kernels
// check (tests/own_kernels.cpp). Naming the kernel takes cudaFuncGetName,
// CUDA 12.3 or later.
#pragma once

#include "command_output.h"
#include "sass_text.h"

#include <cuda_runtime.h>

#include <string>

// The path of cuobjdump, found beside nvcc when the build was configured
// (tests/meson.build), or empty.
#ifndef COURSE_CUOBJDUMP
#define COURSE_CUOBJDUMP ""
#endif

namespace course::testing {

// The mangled name of the kernel `function`, as cuobjdump prints it after
// "Function : "; false and why in `failure` where it cannot be had.
inline bool kernel_name(const void* function, std::string& name, std::string& failure) {
#if CUDART_VERSION >= 12030
    const char* function_name = nullptr;
    if (cudaFuncGetName(&function_name, function) != cudaSuccess || function_name == nullptr) {
        failure = "cudaFuncGetName cannot name the kernel launched";
        return false;
    }
    name = function_name;
    return true;
#else
    (void)function;
    (void)name;
    failure = "this CUDA runtime (" + std::to_string(CUDART_VERSION) +
              ") has no cudaFuncGetName (12.3 has it): the kernel launched cannot be named";
    return false;
#endif
}

// `cuobjdump -sass library` into `listing`; false and why in `failure` where
// cuobjdump is missing or fails.
inline bool sass_listing(const std::string& cuobjdump, const std::string& library, std::string& listing,
                         std::string& failure) {
    if (!tool_output(cuobjdump, "-sass '" + library + "'",
                     "cuobjdump was not found beside nvcc when the build was configured, so the kernel's machine "
                     "code cannot be read: install the CUDA toolkit's cuobjdump and run meson setup --reconfigure",
                     "the machine code cannot be read", listing, failure))
        return false;
    if (listing.empty()) {
        failure = "cuobjdump -sass '" + library + "' printed nothing: the machine code cannot be read";
        return false;
    }
    return true;
}

// The machine code of the kernel `function`, a launch's kernel, in `library`
// (cuobjdump -sass), and its mangled name in `name`; false and why in
// `failure` where the kernel cannot be named, the listing cannot be read, or
// the kernel has no code in it.
inline bool launched_kernel_code(const void* function, const std::string& cuobjdump, const std::string& library,
                                 std::string& name, KernelCode& code, std::string& failure) {
    std::string listing;
    if (!kernel_name(function, name, failure) || !sass_listing(cuobjdump, library, listing, failure)) return false;
    code = kernel_code(listing, name);
    if (!code.found)
        failure = "the kernel launched, " + name + ", has no machine code in " + library +
                  ", whose kernels are: " + (code.functions.empty() ? "none" : code.functions);
    return code.found;
}

}  // namespace course::testing
