#include "course/check.h"

#include <sstream>

namespace course {

std::string describe_cuda_failure(cudaError_t code, const char* expression, const char* file, int line) {
    std::ostringstream out;
    out << file << ':' << line << ": " << expression << " failed: " << cudaGetErrorName(code) << " ("
        << cudaGetErrorString(code) << ')';
    return out.str();
}

void throw_cuda_error(cudaError_t code, const char* expression, const char* file, int line) {
    // Reset the runtime's "last error" too, so that the next launch check does
    // not report this failure a second time. (Errors from inside a kernel are
    // sticky: they stay until the program ends, whatever is reset here.)
    cudaGetLastError();
    throw CudaError(code, describe_cuda_failure(code, expression, file, line));
}

}  // namespace course
