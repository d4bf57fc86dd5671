#include "course/gemm_check.h"

#include "course/check.h"
#include "course/parallel.h"
#include "course/random.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace course::gemm {

namespace {
constexpr std::uint64_t kInt32Limit = std::uint64_t{1} << 31;
}  // namespace

std::string describe_flops(double flops) {
    char text[48];
    if (flops >= 1e9)
        std::snprintf(text, sizeof text, "%.1f GFLOP", flops / 1e9);
    else if (flops >= 1e6)
        std::snprintf(text, sizeof text, "%.1f MFLOP", flops / 1e6);
    else
        std::snprintf(text, sizeof text, "%.0f FLOP", flops);
    return text;
}

std::string Shape::describe() const {
    return std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K);
}

Shape make_shape(std::uint64_t M, std::uint64_t N, std::uint64_t K, const std::string& what) {
    if (M == 0 || N == 0 || K == 0) throw UsageError(what + ": every size must be at least 1");
    const auto check = [&](std::uint64_t rows, std::uint64_t cols, const char* name) {
        if (rows >= kInt32Limit || cols >= kInt32Limit || rows * cols >= kInt32Limit)
            throw UsageError(what + ": " + name + " would be " + std::to_string(rows) + " x " + std::to_string(cols) +
                             "; the kernels index with 32-bit ints, so each matrix "
                             "must have fewer than 2^31 elements");
    };
    check(M, K, "A (M x K)");
    check(K, N, "B (K x N)");
    check(M, N, "C (M x N)");
    return Shape{static_cast<int>(M), static_cast<int>(N), static_cast<int>(K)};
}

bool checks_every_element(Shape shape) {
    const std::uint64_t outputs = static_cast<std::uint64_t>(shape.M) * static_cast<std::uint64_t>(shape.N);
    return outputs <= (std::uint64_t{1} << 20) &&
           outputs * static_cast<std::uint64_t>(shape.K) <= (std::uint64_t{1} << 30);
}

std::vector<std::size_t> sample_indices(Shape shape, std::size_t samples, std::uint64_t seed) {
    const std::size_t M = static_cast<std::size_t>(shape.M), N = static_cast<std::size_t>(shape.N);
    std::vector<std::size_t> indices;
    indices.reserve(samples + M + N);
    for (std::size_t col = 0; col < N; ++col) indices.push_back((M - 1) * N + col);  // the last row
    for (std::size_t row = 0; row < M; ++row) indices.push_back(row * N + N - 1);    // the last column
    Rng rng(seed);
    for (std::size_t s = 0; s < samples; ++s)
        indices.push_back(static_cast<std::size_t>(rng.integer(0, static_cast<std::int64_t>(M * N) - 1)));
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    return indices;
}

Reference reference_at(const std::vector<float>& a, const std::vector<float>& b, Shape shape,
                       std::vector<std::size_t> indices) {
    const std::size_t N = static_cast<std::size_t>(shape.N), K = static_cast<std::size_t>(shape.K);
    if (a.size() != static_cast<std::size_t>(shape.M) * K || b.size() != K * N)
        throw Error("reference_at: the inputs do not match the shape " + shape.describe());
    // B transposed, so that each dot product reads both inputs contiguously.
    std::vector<float> bt(K * N);
    parallel_for(N, [&](std::size_t begin, std::size_t end) {
        for (std::size_t col = begin; col < end; ++col)
            for (std::size_t k = 0; k < K; ++k) bt[col * K + k] = b[k * N + col];
    });
    Reference reference;
    reference.shape = shape;
    reference.want.resize(indices.size());
    reference.scale.resize(indices.size());
    parallel_for(indices.size(), [&](std::size_t begin, std::size_t end) {
        for (std::size_t s = begin; s < end; ++s) {
            const float* row = &a[indices[s] / N * K];
            const float* col = &bt[indices[s] % N * K];
            double sum = 0, scale = 0;
            for (std::size_t k = 0; k < K; ++k) {
                const double term = static_cast<double>(row[k]) * static_cast<double>(col[k]);
                sum += term;
                scale += std::fabs(term);
            }
            reference.want[s] = sum;
            reference.scale[s] = scale;
        }
    });
    reference.indices = std::move(indices);
    return reference;
}

Reference reference_all(const std::vector<float>& a, const std::vector<float>& b, Shape shape) {
    const std::size_t M = static_cast<std::size_t>(shape.M), N = static_cast<std::size_t>(shape.N),
                      K = static_cast<std::size_t>(shape.K);
    if (a.size() != M * K || b.size() != K * N)
        throw Error("reference_all: the inputs do not match the shape " + shape.describe());
    Reference reference;
    reference.shape = shape;
    reference.every_element = true;
    reference.want.assign(M * N, 0.0);
    reference.scale.assign(M * N, 0.0);
    // Row by row, k outside j: the innermost loop walks a row of B and a row
    // of the result, both contiguous, so the compiler vectorizes it.
    parallel_for(M, [&](std::size_t begin, std::size_t end) {
        for (std::size_t row = begin; row < end; ++row) {
            double* want = &reference.want[row * N];
            double* scale = &reference.scale[row * N];
            for (std::size_t k = 0; k < K; ++k) {
                const double x = a[row * K + k];
                const double abs_x = std::fabs(x);
                const float* b_row = &b[k * N];
                for (std::size_t col = 0; col < N; ++col) {
                    want[col] += x * static_cast<double>(b_row[col]);
                    scale[col] += abs_x * std::fabs(static_cast<double>(b_row[col]));
                }
            }
        }
    });
    return reference;
}

Reference reference_for(const std::vector<float>& a, const std::vector<float>& b, Shape shape, std::size_t samples,
                        std::uint64_t seed) {
    return checks_every_element(shape) ? reference_all(a, b, shape)
                                       : reference_at(a, b, shape, sample_indices(shape, samples, seed));
}

std::string describe_check(const Reference& reference, std::size_t samples) {
    if (reference.every_element) return "every element checked";
    return std::to_string(reference.indices.size()) + " elements checked (" + std::to_string(samples) +
           " random, the last row and the last column)";
}

CheckResult compare_with_reference(const float* c, const Reference& reference, double rel) {
    CheckResult result;
    if (reference.every_element) {
        result = compare_scaled(c, reference.want.data(), reference.scale.data(), reference.want.size(), rel);
    } else {
        std::vector<float> got(reference.indices.size());
        for (std::size_t s = 0; s < got.size(); ++s) got[s] = c[reference.indices[s]];
        result = compare_scaled(got.data(), reference.want.data(), reference.scale.data(), got.size(), rel);
        if (!result.ok) result.first_bad = reference.indices[result.first_bad];
    }
    if (!result.ok) {
        const std::size_t N = static_cast<std::size_t>(reference.shape.N);
        result.first_detail +=
            " (row " + std::to_string(result.first_bad / N) + ", col " + std::to_string(result.first_bad % N) + ")";
    }
    return result;
}

dim3 grid_for(int x_extent, int x_tile, int y_extent, int y_tile) {
    const long long x_blocks = (static_cast<long long>(x_extent) + x_tile - 1) / x_tile;
    const long long y_blocks = (static_cast<long long>(y_extent) + y_tile - 1) / y_tile;
    if (y_blocks > 65535)
        throw Error("the grid would need " + std::to_string(y_blocks) +
                    " blocks in y, more than CUDA allows (65535): choose a smaller size");
    return dim3(static_cast<unsigned int>(x_blocks), static_cast<unsigned int>(y_blocks));
}

}  // namespace course::gemm
