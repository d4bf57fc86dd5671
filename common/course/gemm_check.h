// Checking a matrix product C = A * B (row-major, M x K times K x N) against
// the CPU in double precision: the shape, the elements checked, the reference
// and the comparison. Shared by the tracks that multiply matrices (matmul,
// hgemm); each sets its own tolerance (course/compare.h: compare_scaled).
#pragma once

#include "course/compare.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace course::gemm {

struct Shape {
    int M = 0, N = 0, K = 0;
    double flops() const { return 2.0 * M * static_cast<double>(N) * K; }
    std::string describe() const;  // "4096 x 4096 x 4096"
};

// A count of FLOP as the ladders' titles give it: "137.4 GFLOP", "4.2 MFLOP".
std::string describe_flops(double flops);

// A shape from three sizes, or course::UsageError naming `what`: each must be
// at least 1, and each matrix must have fewer than 2^31 elements (the kernels
// index with int).
Shape make_shape(std::uint64_t M, std::uint64_t N, std::uint64_t K, const std::string& what = "--size");

// True when every element of C is checked (M * N <= 2^20, M * N * K <= 2^30).
bool checks_every_element(Shape shape);

// What a result is compared with: the elements of C to check, and for each its
// double-precision value and its scale (sum_k |a_ik * b_kj|).
struct Reference {
    Shape shape;
    bool every_element = false;        // all of C, in order (indices is then empty)
    std::vector<std::size_t> indices;  // otherwise the elements checked: row * N + col
    std::vector<double> want;
    std::vector<double> scale;
};

// The elements a sampled check looks at, sorted and without repeats: the last
// row, the last column, and `samples` seeded random ones.
std::vector<std::size_t> sample_indices(Shape shape, std::size_t samples, std::uint64_t seed);

// The reference at `indices` of A * B (host arrays, row-major, a.size() ==
// M * K, b.size() == K * N), in double precision, using every CPU core.
Reference reference_at(const std::vector<float>& a, const std::vector<float>& b, Shape shape,
                       std::vector<std::size_t> indices);
// The reference of every element (the full product).
Reference reference_all(const std::vector<float>& a, const std::vector<float>& b, Shape shape);

// What a problem checks against: every element where
// checks_every_element(shape), otherwise `samples` elements at random (from
// `seed`) plus the last row and the last column.
Reference reference_for(const std::vector<float>& a, const std::vector<float>& b, Shape shape, std::size_t samples,
                        std::uint64_t seed);
// "every element checked" or "12287 elements checked (4096 random, the last
// row and the last column)", for a reference from reference_for.
std::string describe_check(const Reference& reference, std::size_t samples);

// Compares C (host copy, M * N floats) with `reference`: |got - want| <=
// relative_tolerance * scale; a mismatch is reported with its row and column.
CheckResult compare_with_reference(const float* c, const Reference& reference, double relative_tolerance);

// A grid of ceil(x_extent / x_tile) by ceil(y_extent / y_tile) blocks, or
// course::Error if the y count passes CUDA's limit of 65535.
dim3 grid_for(int x_extent, int x_tile, int y_extent, int y_tile);

}  // namespace course::gemm
