// A kernel that only waits, for the transfers lesson's test: enqueued first
// on a job's first stream, it holds back everything that stream does.
#pragma once

#include <cuda_runtime.h>

namespace separable::testing {

// Enqueues one thread that spins on the GPU's global timer for `ms`
// milliseconds.
void enqueue_spin(cudaStream_t stream, double ms);

}  // namespace separable::testing
