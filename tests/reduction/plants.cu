#include "plants.h"

#include "course/check.h"
#include "tracks/reduction/kernels.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace reduction::plants {

namespace {

// A total remembered on the device, copied into *sum on a replay.
long long* remembered_total() {
    static long long* total = nullptr;
    if (total == nullptr) CUDA_CHECK(cudaMalloc(&total, sizeof(long long)));
    return total;
}

void sum_and_remember(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream) {
    step08_warp_shuffles(in, n, sum, scratch, stream);
    CUDA_CHECK(cudaMemcpyAsync(remembered_total(), sum, sizeof(long long), cudaMemcpyDeviceToDevice, stream));
}

void replay(long long* sum, cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyAsync(sum, remembered_total(), sizeof(long long), cudaMemcpyDeviceToDevice, stream));
}

}  // namespace

void replays_by_pointer(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream) {
    static const int* last_in = nullptr;
    static std::size_t last_n = 0;
    if (in == last_in && n == last_n) return replay(sum, stream);
    sum_and_remember(in, n, sum, scratch, stream);
    last_in = in;
    last_n = n;
}

void replays_by_content(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream) {
    static std::vector<int> last_head;
    static std::size_t last_n = 0;
    std::vector<int> head(std::min<std::size_t>(n, 64));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaMemcpy(head.data(), in, head.size() * sizeof(int), cudaMemcpyDeviceToHost));
    if (n == last_n && head == last_head) return replay(sum, stream);
    sum_and_remember(in, n, sum, scratch, stream);
    last_head = head;
    last_n = n;
}

void leaves_its_counter(const int* in, std::size_t n, long long* sum, long long* scratch, cudaStream_t stream) {
    step09_vector_single_pass(in, n, sum, scratch, stream);
    // Step 09 keeps its counter in the scratch's first word and must leave it
    // at zero; this leaves the count of the last launch's blocks there instead.
    CUDA_CHECK(cudaMemsetAsync(scratch, 0x01, sizeof(unsigned int), stream));
}

}  // namespace reduction::plants
