// The matmul ladder as built into one program. Meson compiles this file once
// per program with COURSE_LAST_STEP = the last step whose kernel.cu the
// program links (a lesson program: the student's step; the course program
// and course-targets: all of them). Which row is the student's is not
// decided here: a lesson program's main() (common/lesson_main.cpp, compiled
// with COURSE_STUDENT_STEP) passes it in as TrackRun::student_step; the
// course program and course-targets pass 0 (none).
#include "tracks/matmul.h"

namespace matmul {

course::Track track() {
    static const std::vector<Step> steps = {
        {1, "naive, uncoalesced (threadIdx.x walks rows)", step01_naive, step01_naive_attributes},
#if COURSE_LAST_STEP >= 2
        {2, "naive, coalesced (threadIdx.x walks columns)", step02_coalesced, step02_coalesced_attributes},
#endif
#if COURSE_LAST_STEP >= 3
        {3, "shared-memory tiles, 16 x 16", step03_shared_tiles, step03_shared_tiles_attributes},
#endif
#if COURSE_LAST_STEP >= 4
        {4, "1D register blocking, 8 outputs per thread", step04_1d_blocking, step04_1d_blocking_attributes},
#endif
#if COURSE_LAST_STEP >= 5
        {5, "2D register blocking, 8 x 8 per thread", step05_2d_blocking, step05_2d_blocking_attributes},
#endif
#if COURSE_LAST_STEP >= 6
        {6, "16-byte loads, A transposed in shared memory", step06_vector_loads, step06_vector_loads_attributes},
#endif
#if COURSE_LAST_STEP >= 7
        {7, "no shared-memory bank conflicts", step07_bank_conflicts, step07_bank_conflicts_attributes},
#endif
#if COURSE_LAST_STEP >= 8
        {8, "warp tiling, double-buffered", step08_warp_tiling, step08_warp_tiling_attributes},
#endif
    };
    course::Track track;
    track.name = "matmul";
    track.title = "Matrix multiply: C = A * B in FP32, from one thread per output to warp tiling, against cuBLAS.";
    track.size_help = "matrix sizes: N for N x N times N x N, or MxNxK for an M x K times K x N product (default 4096)";
    track.validate = [](const course::Options& options) { shape_from(options); };
    track.run = [](const course::TrackRun& run) { return run_ladder(steps, run); };
    return track;
}

}  // namespace matmul
