// Shared by the Sobel grading tests: the shapes every step is checked at,
// the launch properties a step is graded on, and the race that the speed
// rule reads.
#pragma once

#include "tracks/sobel/track.h"

#include "course/launches.h"
#include "own_kernels.h"
#include "speed_rule.h"

#include <string>
#include <vector>

namespace sobel::testing {

// An image size and a pitch (0: the default, rows on 128-byte boundaries).
struct Shape {
    int width;
    int height;
    int pitch = 0;
    std::string describe() const;
};

// Every shape a step must be exact at: the frame alone (1x1, 2x2, 3x3), odd
// sizes (5x7, 31x33), long and flat (1001x7), tall and thin (3x1031), the
// edges of a 16-byte strip (16, 17 and 528 wide), past a power of two
// (2053x1031); odd pitches (with and without padding after the row) and a
// pitch that is a multiple of 4 but not of 16.
const std::vector<Shape>& grading_shapes();

// Checks `step` at every grading shape (course::check_once: a call, then one on
// new inputs), on a test picture, and checks every pixel (and that nothing
// outside the image was written). Its kernels must be its own (tests/own_kernels.h).
void check_every_shape(const Step& step);

// Runs a texture step with Params::in pointing at a different picture of
// the same size: its output must still be that of the texture's picture.
void check_reads_through_texture(const Step& step);

// The one kernel `step` launches for a 2048x2048 image.
course::KernelLaunch launch_of(const Step& step);

// The speed rule (tests/speed_rule.h) at 4096x4096, the L2 cache flushed
// before each timed run as in every ladder: `steps` are the step before's
// solution (left out for step 01), the reference solution of the step, and
// the kernel graded, last.
void check_speed(std::vector<Step> steps, const std::string& advice);

}  // namespace sobel::testing
