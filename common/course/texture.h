// A texture object that destroys itself.
//
// A texture object is a handle the GPU's texture units read through: which
// memory (a cudaArray, or linear memory with a pitch), what each element is,
// and how a read behaves (clamping at the edges, filtering, integers or
// normalized floats). Creating one is a host call of a few microseconds, so a
// program creates it once and hands the handle to every launch.
#pragma once

#include "course/check.h"

#include <cuda_runtime.h>

#include <utility>

namespace course {

class TextureObject {
public:
    TextureObject() = default;
    TextureObject(const cudaResourceDesc& resource, const cudaTextureDesc& texture) {
        CUDA_CHECK(cudaCreateTextureObject(&object_, &resource, &texture, nullptr));
    }
    ~TextureObject() {
        if (object_ != 0) cudaDestroyTextureObject(object_);
    }
    TextureObject(const TextureObject&) = delete;
    TextureObject& operator=(const TextureObject&) = delete;
    TextureObject(TextureObject&& other) noexcept : object_(std::exchange(other.object_, 0)) {}
    TextureObject& operator=(TextureObject&& other) noexcept {
        if (this != &other) {
            if (object_ != 0) cudaDestroyTextureObject(object_);
            object_ = std::exchange(other.object_, 0);
        }
        return *this;
    }

    cudaTextureObject_t get() const { return object_; }

private:
    cudaTextureObject_t object_ = 0;
};

}  // namespace course
