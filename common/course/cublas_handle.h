// cuBLAS for the library rungs of the tracks that multiply matrices: its
// errors reported as the runtime's are (course/check.h), and one handle per
// program. Header only: libcourse does not link cuBLAS; the tracks that
// include this do.
#pragma once

#include "course/check.h"

#include <cublas_v2.h>

#include <string>

// A cuBLAS call that did not return CUBLAS_STATUS_SUCCESS: the same one-line
// report as CUDA_CHECK gives for the runtime.
#define CUBLAS_CHECK(expression)                                                                              \
    do {                                                                                                      \
        const cublasStatus_t course_cublas_status_ = (expression);                                            \
        if (course_cublas_status_ != CUBLAS_STATUS_SUCCESS)                                                   \
            throw course::Error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " + #expression + \
                                " failed: " + cublasGetStatusName(course_cublas_status_) + " (" +             \
                                cublasGetStatusString(course_cublas_status_) + ")");                          \
    } while (0)

namespace course {

// A cuBLAS handle in the given math mode, for a function-local static: one
// per program, created on first use. Its destructor runs at exit before the
// CUDA runtime's own clean-up (it was registered after the runtime started),
// so compute-sanitizer's leak check sees nothing left.
class CublasHandle {
public:
    explicit CublasHandle(cublasMath_t math) {
        CUBLAS_CHECK(cublasCreate(&handle_));
        CUBLAS_CHECK(cublasSetMathMode(handle_, math));
    }
    ~CublasHandle() {
        if (handle_ != nullptr) cublasDestroy(handle_);
    }
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;
    cublasHandle_t get() const { return handle_; }

private:
    cublasHandle_t handle_ = nullptr;
};

}  // namespace course
