// Shared by the convolution grading tests: the shapes every step is checked
// at, and the ladder at 2048x2048 that the speed requirements read.
#pragma once

#include "tracks/convolution.h"

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

// Runs `step` once at every grading shape, on a test picture, and checks
// every pixel (and that nothing outside the image was written).
void check_every_shape(const Step& step);

// Runs a texture step with Params::in pointing at a different picture of
// the same size: its output must still be the filtered texture's, since a
// texture step reads the input only through the texture.
void check_reads_through_texture(const Step& step);

// The ladder of `steps` at 2048x2048 (the talk's size; no copy, no NPP),
// the last step marked as the student's. Prints the table.
Measured ladder_2048(const std::vector<Step>& steps);

// Which times a speed requirement compares: the full kernels', or their
// memory-only variants'.
enum class Variant { full, memory_only };

// Time of row - 1 over time of row, for `variant`. The ladder must have
// passed its checks.
double speedup(const Measured& measured, std::size_t row, Variant variant = Variant::full);

// Runs `previous` and `step` at 2048x2048 in one ladder and checks that
// `step` is at least `minimum` times as fast as `previous` (or, with
// Variant::memory_only, its memory-only variant as fast as previous's).
void check_speedup(const Step& previous, const Step& step, double minimum, Variant variant = Variant::full);

}  // namespace convolution::testing
