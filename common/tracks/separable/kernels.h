// The separable track, after a blog post on generic separable convolution in
// CUDA (GTX 1060 figures; it follows J. Cheng, M. Grossman and T. McKercher,
// "Professional CUDA C Programming", Wrox, 2014) and the 7x7 Gaussian of C.
// Angerer and J. Demouth, "CUDA Optimization with NVIDIA Nsight Visual Studio
// Edition" (GTC 2015). Full citations: the References section of README.md.
//
// A 32-bit float grey image of any width and height, filtered by a row pass
// and then a column pass with the same odd-length filter w (1 to 63 taps,
// r = taps / 2):
//
//   tmp(x, y) = sum over k in 0..taps-1 of w[k] * in(clamp(x + k - r), y)
//   out(x, y) = sum over k in 0..taps-1 of w[k] * tmp(x, clamp(y + k - r))
//
// where clamp keeps a coordinate inside the image (edges repeat the nearest
// pixel), so out has the input's size. Weight k multiplies the pixel k - r to
// the right of (below) the centre: correlation, as written. Two passes of
// `taps` multiply-adds each do the work of taps^2 for a full 2-D filter.
//
// This header is what a step's kernel.cu sees: the launcher every step
// defines and the helpers the launchers share. The image on the GPU, the CPU
// reference, the tolerance, the copy and NPP rungs and the ladder:
// tracks/separable/track.h.
#pragma once

#include "course/kernel_copy.h"

#include <cuda_runtime.h>

namespace separable {

inline constexpr int kMaxTaps = 63;
inline constexpr int kMaxRadius = kMaxTaps / 2;

// Everything a step's launcher gets. Images are width x height floats, row by
// row with no padding (row y starts at y * width).
struct Params {
    const float* in = nullptr;  // the input image
    float* out = nullptr;       // the output image, the same size
    float* tmp = nullptr;       // room for one more image: the row pass's output, for steps that store it
    int width = 0;
    int height = 0;
    const float* weights = nullptr;  // the filter, `taps` floats in device memory
    int taps = 0;                    // odd, 1 to kMaxTaps
    int radius() const { return taps / 2; }
};

// Every step's launcher: enqueues the step's kernels on `stream` for
// `params`, and checks each launch (CUDA_CHECK_LAUNCH). It must write every
// pixel of out and nothing outside it, for any width, height and taps the
// track allows.
//
// The harness calls it many times on the same buffers (course/runner.h): a
// checked call on one input image, straight after it a checked call on
// another, the warm-up and timed launches, and a checked call on a third.
// Before each checked call it writes that image into `in` and fills every
// byte of out with a poison pattern; before the warm-up it poisons out once
// more. It resets nothing else: tmp holds what the previous call left in it.
using Launcher = void (*)(const Params& params, cudaStream_t stream);

// --- The whole job, host to host (step 08) ---------------------------------------
//
// Step 08 is not a faster kernel but the job as a program runs it: the image
// in host memory goes up to the GPU, is filtered, and comes back down. Its
// launcher gets a TransferJob and enqueues all of it, cut into `chunks` bands
// of rows, on the job's streams, so that one band's upload, another's filter
// and a third's download run at once.

// Four events per chunk, which the launcher records on the chunk's stream:
// `start` before its upload, `uploaded`, `filtered` and `downloaded` after
// each stage. The track reads them to draw the timeline under the ladder.
struct ChunkEvents {
    cudaEvent_t start = nullptr;
    cudaEvent_t uploaded = nullptr;
    cudaEvent_t filtered = nullptr;
    cudaEvent_t downloaded = nullptr;
};

struct TransferJob {
    const float* host_in = nullptr;  // the input image in pinned host memory
    float* host_out = nullptr;       // where its output goes, pinned host memory
    float* device_in = nullptr;      // device.in, writable: where the uploads go
    Params device;                   // the images on the GPU (in, out, tmp), the filter, the size
    const cudaStream_t* streams = nullptr;
    int stream_count = 0;                 // 1 or more; all idle when the launcher is called
    int chunks = 0;                       // 1 .. device.height: bands of rows, see chunk_rows
    const ChunkEvents* events = nullptr;  // `chunks` of them, created with timing on
};

// Rows [first, last) of the image: a band of rows.
struct RowRange {
    int first = 0;
    int last = 0;
};

// The output rows of chunk c (0 .. job.chunks - 1): the image's rows cut into
// job.chunks bands as even as can be, in order, none empty.
inline RowRange chunk_rows(const TransferJob& job, int c) {
    const long long height = job.device.height;
    return RowRange{static_cast<int>(height * c / job.chunks), static_cast<int>(height * (c + 1) / job.chunks)};
}

// Step 08's launcher: enqueues the whole job and returns; the track waits for
// every stream and then reads host_out.
//
// The track runs each job many times on the same buffers, as the kernel
// ladder runs a kernel: a checked run on one input image, straight after it
// a checked run on another, the warm-up and timed runs, and a checked run on
// a third. Before each checked run it writes that image into host_in and
// fills every byte of host_out and of device.out with a poison pattern.
// Between runs it never writes device_in or tmp: the job's uploads are the
// only way an image reaches the GPU, so a band left out is read from the run
// before.
using TransferLauncher = void (*)(const TransferJob& job);

// The launchers, one per step: step<NN>_<folder name>, e.g. step03_shared_tiles
// for lessons/separable/03_shared_tiles. The steps are listed once, in
// lessons/separable/meson.build; Meson writes the list out as
// separable_steps.h, one COURSE_STEP(number, launcher, title) line per kernel
// step and COURSE_TRANSFERS_STEP(...) for the transfers step, 08. (The inline
// namespace: see course/kernel_copy.h.)
inline namespace COURSE_KERNEL_COPY {
#define COURSE_STEP(number, launcher, title) void launcher(const Params& params, cudaStream_t stream);
#define COURSE_TRANSFERS_STEP(number, launcher, title) void launcher(const TransferJob& job);
#include "separable_steps.h"
#undef COURSE_STEP
#undef COURSE_TRANSFERS_STEP
}  // namespace COURSE_KERNEL_COPY

// Coordinate i moved inside 0 .. n-1: the edge pixel repeats outside the image.
__host__ __device__ inline int clamp_index(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

// ceil(a / b) for positive ints.
__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

// The grid that covers the image when each block covers tile_width x
// tile_height pixels, or course::Error past CUDA's limit of 65535 blocks in y.
dim3 grid_for(const Params& params, int tile_width, int tile_height);

}  // namespace separable
