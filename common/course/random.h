// Seeded random inputs. Never zeros: all-zero inputs hide unwritten outputs and
// wrong indexing, and can even run faster than real data.
#pragma once

#include <cstdint>
#include <vector>

namespace course {

// SplitMix64: tiny, fast, and the same sequence on every platform (unlike
// std::uniform_*_distribution, whose output is implementation-defined).
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    // Uniform integer in [lo, hi], both inclusive.
    std::int64_t integer(std::int64_t lo, std::int64_t hi) {
        const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
        return lo + static_cast<std::int64_t>(span == 0 ? next() : next() % span);
    }

private:
    std::uint64_t state_;
};

// `count` floats uniform in [lo, hi] (hi only by rounding).
std::vector<float> random_floats(std::size_t count, float lo, float hi, std::uint64_t seed);
// `count` ints uniform in [lo, hi].
std::vector<int> random_ints(std::size_t count, int lo, int hi, std::uint64_t seed);

// The seed of a problem's input set `set` (course/runner.h, KernelRun::
// use_inputs): set 0 is the problem's own seed, the others are far from it.
inline std::uint64_t input_set_seed(std::uint64_t seed, int set) {
    return set == 0 ? seed : Rng(seed ^ (0xd1b54a32d192ed03ull * static_cast<std::uint64_t>(set))).next();
}

}  // namespace course
