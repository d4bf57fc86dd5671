// Launchers that are wrong on purpose, each in a way a student's reduction
// could be and that the grading must catch (tests/reduction/test_plants.cpp):
// if a later change to the harness loses one of its checks, a plant passes and
// that test fails.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace reduction::plants {

// Remembers the last input pointer and n; called again with the same ones, it
// copies the total it computed last time instead of summing.
void replays_by_pointer(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);

// Remembers the first ints of the last input it summed; when the input starts
// the same way again, it copies the total it computed last time. Right on
// every fresh input, impossibly fast when timed on the same input.
void replays_by_content(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);

// Step 09's solution, but its blocks-done counter is left at a value other
// than zero after each call, as a kernel that forgot to reset it would leave
// it.
void leaves_its_counter(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream);

}  // namespace reduction::plants
