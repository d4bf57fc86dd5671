// --profile's marker kernel (course/profile.h). It lives in the global
// namespace so that ncu names it plainly, and its grid size carries the
// rung's number: nothing else about it matters.
#include "course/check.h"
#include "course/profile.h"

__global__ void course_profile_marker() {}

namespace course {

void launch_profile_marker(int run_index, cudaStream_t stream) {
    course_profile_marker<<<run_index + 1, 1, 0, stream>>>();
    CUDA_CHECK_LAUNCH();
}

}  // namespace course
