#include "course/random.h"

namespace course {

std::vector<float> random_floats(std::size_t count, float lo, float hi, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<float> values(count);
    for (auto& v : values) v = lo + static_cast<float>(rng.uniform()) * (hi - lo);
    return values;
}

std::vector<int> random_ints(std::size_t count, int lo, int hi, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<int> values(count);
    for (auto& v : values) v = static_cast<int>(rng.integer(lo, hi));
    return values;
}

}  // namespace course
