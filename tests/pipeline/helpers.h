// Shared by the image pipeline grading tests: the shapes every step is
// checked at, the launches a step is graded on, and the race that the speed
// rule reads.
#pragma once

#include "tracks/pipeline/track.h"

#include "course/launches.h"
#include "own_kernels.h"
#include "speed_rule.h"

#include <string>
#include <vector>

namespace pipeline::testing {

// An image size and the two pitches (0: the default, rows on 128-byte
// boundaries).
struct Shape {
    int width;
    int height;
    int rgb_pitch = 0;
    int pitch = 0;
    std::string describe() const;
};

// Every shape a step must be exact at: smaller than the blur (1x1 .. 7x7),
// odd sizes, long and flat, tall and thin, the edges of a warp's span in
// steps 06 to 09 (120, 124, 128 and 129 wide), past a power of two; and odd pitches
// (a word stored across a row's end lands in the padding and is caught; 4-byte
// words fall back to bytes).
const std::vector<Shape>& grading_shapes();

// Checks `step` at every grading shape (course::check_once: a call, then one on
// new inputs), on a test picture with black and white specks in every channel,
// and checks every pixel (and that nothing outside the image was written). Its kernels must be its own (tests/own_kernels.h).
void check_every_shape(const Step& step);

// The kernels `step` launches for a 2048x2048 image, in order.
course::LaunchRecord launches_of(const Step& step);

// What steps 06 to 09 keep, checked without a clock on a 2048x2048 image: one kernel, no shared
// memory, no local memory, no more threads than `reference` launches (several pixels per
// thread). `shared`, `local` and `threads` end the messages of the three checks: why each must
// hold in this step (`threads` after the reference's count, e.g. " (4 columns and 16 rows
// each)").
void check_register_kernel(const Step& step, const Step& reference, const std::string& shared, const std::string& local,
                           const std::string& threads);

// What a check without a clock saw, and whether it holds.
struct StructureCheck {
    bool ok = false;
    std::string what;  // what was seen, and what was expected
};

// Step 08's one loop per case, where it shows without a clock: the rows'
// alignment is the same for the whole image, so images whose rows allow
// 4-byte words launch a kernel of their own (fused_v8<true> in the reference
// solution), and images whose rows do not (pitches one byte past) another.
// Step 07's kernel takes the alignment as an argument and branches on it
// row by row: one kernel for both.
StructureCheck check_kernel_per_alignment(Launcher graded);

// Step 09's fewer instructions, where they show without a clock: in the
// machine code (cuobjdump -sass, found at `cuobjdump`) of the kernel that
// `step` launches for a 2048x2048 image (whole words), read from
// `graded_library`, the cheapest loop that loads words (sass_rows.h: the walk
// of a strip inside the image) runs at most 1.05x the instructions a row of
// the same loop of `reference`'s kernel, read from `reference_library`. Step
// 08's walk runs about 1.17x as many (its 4-row turn copies the windows, and
// it works each row's addresses out from the row number).
StructureCheck check_fewer_instructions(const Step& step, const Step& reference, const std::string& graded_library,
                                        const std::string& reference_library, const std::string& cuobjdump);

// The speed rule (tests/speed_rule.h) at `size` x `size` (the course's race
// size, 4096, unless a step's idea pays only on larger images): `steps` are
// the step before's solution (left out for step 01), the reference solution
// of the step, and the kernel graded, last.
void check_speed(std::vector<Step> steps, const std::string& advice, const std::string& size = "4096");

}  // namespace pipeline::testing
