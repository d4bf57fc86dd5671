// Shared by the convolution grading tests: the shapes every step is checked
// at, and the race at 2048x2048 that the speed rule reads.
#pragma once

#include "own_kernels.h"
#include "speed_rule.h"
#include "tracks/convolution/track.h"

#include <cstddef>
#include <string>
#include <vector>

namespace convolution::testing {

// An image size, a pitch (0: the default) and a block shape.
struct Shape {
    int width;
    int height;
    int pitch = 0;
    dim3 block{16, 16};
    std::string describe() const;
};

// Every shape a step must be exact at: smaller than the filter (1x1, 3x5,
// 4x4), just its size (5x5), odd sizes around a warp and a block (31x33,
// 127x65), long and flat (1023x17), past a power of two (2053x1031); odd
// pitches (with and without padding after the row) and a pitch that is a
// multiple of 4 but not of 16; and the talk's block shapes 16x8, 16x20 and
// 19x13, plus 1x1 and 64x16 at the extremes of what --block accepts.
const std::vector<Shape>& grading_shapes();

// Checks `step` at every grading shape (course::check_once: a call, then one on
// new inputs), on a test picture, and checks every pixel (and that nothing
// outside the image was written). Its kernels must be its own (tests/own_kernels.h).
void check_every_shape(const Step& step);

// Runs a texture step with Params::in pointing at a different picture of
// the same size: its output must still be the filtered texture's, since a
// texture step reads the input only through the texture.
void check_reads_through_texture(const Step& step);

// What the step changes in its launch, next to the reference solution of the
// same step at 2048x2048 with 16x16 blocks: no more blocks than the reference
// launches (as many pixels per thread or more), and with `shared_layout`, at
// least the shared memory per block that the reference's tile layout takes
// (its apron, padding or staging area). No timing: this holds on any GPU.
void check_launch_like_reference(const Step& graded, const Step& reference, bool shared_layout);

// The speed rule (tests/speed_rule.h) at 2048x2048 (the talk's size; no copy,
// no NPP): `steps` are the step before's solution (left out for step 01), the
// reference solution of the step, and the kernel graded, last. The graded
// kernel must run at least 0.85x as fast as the reference; with
// `memory_only_too`, its memory-only variant too (for the steps that change
// only how the tile is loaded).
void check_speed(std::vector<Step> steps, bool memory_only_too, const std::string& advice);

}  // namespace convolution::testing
