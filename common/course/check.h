// Error handling for the whole course.
//
// Every CUDA runtime call goes through CUDA_CHECK, and every kernel launch is
// followed by CUDA_CHECK_LAUNCH(). A failure throws course::CudaError whose
// message names the file, the line and the failing expression, so a lesson
// program stops with one clear line instead of printing a table of garbage.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace course {

// Any error the course reports to the user: bad input, a failed check, ...
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A command-line mistake: the program prints the message and a hint to --help.
struct UsageError : Error {
    using Error::Error;
};

// No GPU to run on (no driver, or no device): a program prints why and exits
// 77, the status Meson counts as skipped, so that `meson test --benchmark`
// on a machine without a GPU skips the ladders as the GPU tests skip.
struct NoGpuError : Error {
    using Error::Error;
};

// A CUDA runtime call that did not return cudaSuccess.
struct CudaError : Error {
    CudaError(cudaError_t code, const std::string& message) : Error(message), code(code) {}
    cudaError_t code;
};

// "file.cu:42: cudaMalloc(&p, bytes) failed: cudaErrorMemoryAllocation (out of memory)"
std::string describe_cuda_failure(cudaError_t code, const char* expression, const char* file, int line);

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* expression, const char* file, int line);

}  // namespace course

#define CUDA_CHECK(expression)                                                           \
    do {                                                                                 \
        const cudaError_t course_status_ = (expression);                                 \
        if (course_status_ != cudaSuccess)                                               \
            ::course::throw_cuda_error(course_status_, #expression, __FILE__, __LINE__); \
    } while (0)

// After a <<<...>>> launch: catches bad launch configurations (too many
// threads, too much shared memory) at once. Errors inside the kernel show up at
// the next synchronising call, which the harness checks too.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
