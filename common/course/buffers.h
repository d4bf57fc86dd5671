// Owning buffers: device memory and pinned (page-locked) host memory.
//
// They free what they allocate, cannot be copied by accident (only moved), and
// check their sizes on every copy, so a lesson never pairs cudaMalloc/cudaFree
// by hand.
#pragma once

#include "course/check.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace course {

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        if (count_ > 0) CUDA_CHECK(cudaMalloc(&data_, bytes()));
    }
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
    ~DeviceBuffer() { release(); }

    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept { *this = std::move(other); }
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            release();
            data_ = std::exchange(other.data_, nullptr);
            count_ = std::exchange(other.count_, 0);
        }
        return *this;
    }

    T* data() { return data_; }
    const T* data() const { return data_; }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

    void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }
    void upload(const T* host, std::size_t count) {
        require_size(count, "upload");
        if (count > 0) CUDA_CHECK(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice));
    }
    std::vector<T> download() const {
        std::vector<T> host(count_);
        download(host.data(), count_);
        return host;
    }
    void download(T* host, std::size_t count) const {
        require_size(count, "download");
        if (count > 0) CUDA_CHECK(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost));
    }
    // Fills every byte with `pattern`: the harness poisons outputs this way
    // before a kernel runs, so an element the kernel forgot to write is caught.
    void fill_bytes(std::uint8_t pattern, cudaStream_t stream = nullptr) {
        if (count_ > 0) CUDA_CHECK(cudaMemsetAsync(data_, pattern, bytes(), stream));
    }

private:
    void require_size(std::size_t count, const char* what) const {
        if (count != count_) throw Error(std::string("DeviceBuffer::") + what + ": size mismatch");
    }
    void release() noexcept {
        if (data_ != nullptr) {
            // A destructor must not throw; a failure here means the context is
            // already broken, and the error that broke it was reported first.
            const cudaError_t status = cudaFree(data_);
            if (status != cudaSuccess && status != cudaErrorCudartUnloading)
                std::fprintf(stderr, "warning: cudaFree failed: %s\n", cudaGetErrorString(status));
        }
        data_ = nullptr;
        count_ = 0;
    }

    T* data_ = nullptr;
    std::size_t count_ = 0;
};

// Page-locked host memory: the GPU's copy engines can read and write it
// directly, so transfers run at full PCIe/NVLink speed and can be asynchronous.
template <typename T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    explicit PinnedBuffer(std::size_t count) : count_(count) {
        if (count_ > 0) CUDA_CHECK(cudaMallocHost(&data_, count_ * sizeof(T)));
    }
    ~PinnedBuffer() { release(); }

    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    PinnedBuffer(PinnedBuffer&& other) noexcept { *this = std::move(other); }
    PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
        if (this != &other) {
            release();
            data_ = std::exchange(other.data_, nullptr);
            count_ = std::exchange(other.count_, 0);
        }
        return *this;
    }

    T* data() { return data_; }
    const T* data() const { return data_; }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    T* begin() { return data_; }
    T* end() { return data_ + count_; }

private:
    void release() noexcept {
        if (data_ != nullptr) {
            const cudaError_t status = cudaFreeHost(data_);
            if (status != cudaSuccess && status != cudaErrorCudartUnloading)
                std::fprintf(stderr, "warning: cudaFreeHost failed: %s\n", cudaGetErrorString(status));
        }
        data_ = nullptr;
        count_ = 0;
    }

    T* data_ = nullptr;
    std::size_t count_ = 0;
};

// A CUDA stream that destroys itself.
class Stream {
public:
    Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~Stream() {
        if (stream_ != nullptr) cudaStreamDestroy(stream_);
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return stream_; }
    void synchronize() const { CUDA_CHECK(cudaStreamSynchronize(stream_)); }

private:
    cudaStream_t stream_ = nullptr;
};

}  // namespace course
