// Measured ceilings: what the GPU at hand really reaches, as opposed to the
// theoretical peaks in device.h. A kernel that reads n bytes once can be no
// faster than reading n bytes with nothing else to do.
#pragma once

#include "course/runner.h"

#include <cstddef>

namespace course {

// GB/s of a read-only sweep over `bytes` bytes (16-byte loads, a grid that
// fills the GPU, several loads in flight per thread), timed like every ladder
// row: warm-up, L2 flushed, median of the harness's runs.
TimingStats measure_read_sweep(Harness& harness, std::size_t bytes);

}  // namespace course
