#include "course/timing.h"

#include <algorithm>
#include <cmath>

namespace course {

namespace {

double quantile(const std::vector<double>& sorted, double q) {
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const auto above = std::min(below + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(below);
    return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

}  // namespace

TimingStats summarize(std::vector<double> samples_ms) {
    if (samples_ms.empty()) throw Error("summarize: no timing samples");
    std::sort(samples_ms.begin(), samples_ms.end());
    TimingStats stats;
    stats.runs = static_cast<int>(samples_ms.size());
    stats.min_ms = samples_ms.front();
    stats.max_ms = samples_ms.back();
    stats.median_ms = quantile(samples_ms, 0.5);
    stats.q1_ms = quantile(samples_ms, 0.25);
    stats.q3_ms = quantile(samples_ms, 0.75);
    return stats;
}

TimingStats time_launches(const std::function<void(cudaStream_t)>& launch, const TimingConfig& config,
                          L2Flusher* flusher, cudaStream_t stream) {
    if (config.runs < 1) throw Error("time_launches: at least one timed run is needed");
    for (int i = 0; i < config.warmup; ++i) launch(stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));

    Event start, stop;
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(config.runs));
    for (int i = 0; i < config.runs; ++i) {
        if (config.flush_l2 && flusher != nullptr) flusher->flush(stream);
        CUDA_CHECK(cudaEventRecord(start.get(), stream));
        launch(stream);
        CUDA_CHECK(cudaEventRecord(stop.get(), stream));
        CUDA_CHECK(cudaEventSynchronize(stop.get()));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
        samples.push_back(ms);
    }
    return summarize(std::move(samples));
}

}  // namespace course
