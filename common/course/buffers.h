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

namespace detail {

// Owns `count` elements of T allocated by Memory::allocate; frees them with
// Memory::release. Move-only.
template <typename T, typename Memory>
class OwnedArray {
public:
    OwnedArray() = default;
    explicit OwnedArray(std::size_t count) : count_(count) {
        if (count_ > 0) data_ = static_cast<T*>(Memory::allocate(count_ * sizeof(T)));
    }
    ~OwnedArray() { release(); }

    OwnedArray(const OwnedArray&) = delete;
    OwnedArray& operator=(const OwnedArray&) = delete;
    OwnedArray(OwnedArray&& other) noexcept { *this = std::move(other); }
    OwnedArray& operator=(OwnedArray&& other) noexcept {
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

private:
    void release() noexcept {
        if (data_ != nullptr) {
            // A destructor must not throw; a failure here means the context is
            // already broken, and the error that broke it was reported first.
            const cudaError_t status = Memory::release(data_);
            if (status != cudaSuccess && status != cudaErrorCudartUnloading)
                std::fprintf(stderr, "warning: freeing %s memory failed: %s\n", Memory::kind,
                             cudaGetErrorString(status));
        }
        data_ = nullptr;
        count_ = 0;
    }

    T* data_ = nullptr;
    std::size_t count_ = 0;
};

struct DeviceMemory {
    static constexpr const char* kind = "device";
    static void* allocate(std::size_t bytes) {
        void* p = nullptr;
        CUDA_CHECK(cudaMalloc(&p, bytes));
        return p;
    }
    static cudaError_t release(void* p) { return cudaFree(p); }
};

struct PinnedMemory {
    static constexpr const char* kind = "pinned host";
    static void* allocate(std::size_t bytes) {
        void* p = nullptr;
        CUDA_CHECK(cudaMallocHost(&p, bytes));
        return p;
    }
    static cudaError_t release(void* p) { return cudaFreeHost(p); }
};

}  // namespace detail

// GPU memory (cudaMalloc), with checked copies to and from the host.
template <typename T>
class DeviceBuffer : public detail::OwnedArray<T, detail::DeviceMemory> {
    using Base = detail::OwnedArray<T, detail::DeviceMemory>;

public:
    using Base::Base;
    using Base::bytes;
    using Base::data;
    using Base::size;
    explicit DeviceBuffer(const std::vector<T>& host) : Base(host.size()) { upload(host); }

    void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }
    // Replaces the buffer's contents, in order with all other work: the copy
    // runs on the default stream, which non-blocking streams (the harness's)
    // do not wait for, and from pageable memory cudaMemcpy may return before
    // the data has reached the device. So the upload waits for the device
    // before (no kernel may still read the old values) and after (it is done
    // when it returns). Uploads are set-up work, never timed.
    void upload(const T* host, std::size_t count) {
        require_size(count, "upload");
        if (count == 0) return;
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(data(), host, count * sizeof(T), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    std::vector<T> download() const {
        std::vector<T> host(size());
        download(host.data(), size());
        return host;
    }
    void download(T* host, std::size_t count) const {
        require_size(count, "download");
        if (count > 0) CUDA_CHECK(cudaMemcpy(host, data(), count * sizeof(T), cudaMemcpyDeviceToHost));
    }
    // Fills every byte with `pattern`: the harness poisons outputs this way
    // before a kernel runs, so an element the kernel forgot to write is caught.
    void fill_bytes(std::uint8_t pattern, cudaStream_t stream = nullptr) {
        if (size() > 0) CUDA_CHECK(cudaMemsetAsync(data(), pattern, bytes(), stream));
    }

private:
    void require_size(std::size_t count, const char* what) const {
        if (count != size()) throw Error(std::string("DeviceBuffer::") + what + ": size mismatch");
    }
};

// Page-locked host memory (cudaMallocHost): the GPU's copy engines can read
// and write it directly, so transfers run at full speed and can be
// asynchronous.
template <typename T>
class PinnedBuffer : public detail::OwnedArray<T, detail::PinnedMemory> {
    using Base = detail::OwnedArray<T, detail::PinnedMemory>;

public:
    using Base::Base;
    using Base::data;
    using Base::size;
    T& operator[](std::size_t i) { return data()[i]; }
    const T& operator[](std::size_t i) const { return data()[i]; }
    T* begin() { return data(); }
    T* end() { return data() + size(); }
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

// A CUDA event (timing on) that destroys itself.
class Event {
public:
    Event() { CUDA_CHECK(cudaEventCreate(&event_)); }
    ~Event() {
        if (event_ != nullptr) cudaEventDestroy(event_);
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return event_; }

private:
    cudaEvent_t event_ = nullptr;
};

}  // namespace course
