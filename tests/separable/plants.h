// Launchers with a known flaw, for the grading's self-test
// (tests/separable/test_transfer_plants.cpp). The transfer launchers each
// filter a band with a plain kernel (every output its own row and column
// sums, from the weights in device memory) and otherwise run the job as step
// 08's solution does.
#pragma once

#include "tracks/separable/kernels.h"

namespace separable::testing {

// Chunk c on stream c % stream_count: its new input rows up, its band
// filtered, its rows down; uploads and downloads chained in chunk order, as
// step 08's solution does. Correct.
void plant_transfers_in_order(const TransferJob& job);

// The same without one cross-stream dependency: chunk c's upload does not
// wait for chunk c-1's, so its kernel may read its upper halo (rows chunk c-1
// uploads) before they are on the GPU.
void plant_transfers_missing_halo_wait(const TransferJob& job);

// Step 02 done halfway: the filter copied into a __constant__ array on the
// stream, as step 02 does, but the image filtered by the plain kernel from
// the weights in device memory (params.weights). Right, and on the H100 and
// H200 within reach of step 02's speed; step 02's check that its kernels read
// the constant copy must fail it.
void plant_constant_copied_not_read(const Params& p, cudaStream_t stream);

// Step 02 with the filter copied into a __device__ array (global memory) on
// the stream and read from there: right, and its kernels filter from their
// copy when params.weights is zeroed, so only the machine-code check of step
// 02 (no read of constant memory) fails it.
void plant_device_copy(const Params& p, cudaStream_t stream);

}  // namespace separable::testing
