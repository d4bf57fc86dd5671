// Running a CPU reference on every core. The references of the larger
// problems (a 1000^3 matrix product, an 8192x8192 image filtered with 63
// taps) take seconds on one core; split into slices they take a fraction of
// that, which the tests, run over many sizes, feel most.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace course {

// Calls body(begin, end) for [0, count) cut into equal slices, one per CPU
// core, each at least 64 items long (a smaller count runs on this thread).
// Slices never overlap, so a body that writes only its own items needs no
// locking.
template <typename Body>
void parallel_for(std::size_t count, Body body) {
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers = std::min(cores, std::max<std::size_t>(1, count / 64));
    if (workers <= 1) {
        body(std::size_t{0}, count);
        return;
    }
    std::vector<std::thread> threads;
    for (std::size_t w = 0; w < workers; ++w)
        threads.emplace_back(body, count * w / workers, count * (w + 1) / workers);
    for (auto& thread : threads) thread.join();
}

}  // namespace course
