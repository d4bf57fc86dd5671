#include "course/device.h"

#include "course/check.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <sstream>

namespace course {

double peak_dram_gbps(int memory_clock_khz, int memory_bus_bits) {
    const double transfers_per_second = 2.0 * memory_clock_khz * 1e3;
    return transfers_per_second * (memory_bus_bits / 8.0) / 1e9;
}

std::string capability_missing(int cc_major, int cc_minor, int needed, const std::string& what) {
    if (cc_major * 10 + cc_minor >= needed) return "";
    const int major = needed / 10, minor = needed % 10;
    // The names of the architectures a step may need.
    const char* name = "";
    if (needed == 80) name = " (Ampere)";
    if (needed == 89) name = " (Ada)";
    if (major == 9) name = " (Hopper)";
    if (major == 10) name = " (Blackwell)";
    return what + " needs compute capability " + std::to_string(major) + "." + std::to_string(minor) + name +
           " or later; this GPU is " + std::to_string(cc_major) + "." + std::to_string(cc_minor) + ": left out";
}

int fp32_lanes_per_sm(int cc_major, int cc_minor) {
    switch (cc_major) {
    case 5: return 128;                       // Maxwell
    case 6: return cc_minor == 0 ? 64 : 128;  // Pascal: GP100 has 64
    case 7: return 64;                        // Volta, Turing
    case 8: return cc_minor == 0 ? 64 : 128;  // Ampere A100 64; GA10x, Ada 128
    case 9: return 128;                       // Hopper
    case 10:
    case 11:
    case 12: return 128;  // Blackwell
    default: return 0;
    }
}

double peak_fp32_gflops(int sm_count, int lanes_per_sm, int sm_clock_khz) {
    return 2.0 * sm_count * lanes_per_sm * (sm_clock_khz * 1e3) / 1e9;
}

std::string format_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (bytes >= 1024.0 && unit < 4) {
        bytes /= 1024.0;
        ++unit;
    }
    char text[32];
    if (unit == 0 || bytes >= 100.0 || bytes == static_cast<long long>(bytes))
        std::snprintf(text, sizeof text, "%.0f %s", bytes, units[unit]);
    else
        std::snprintf(text, sizeof text, "%.2f %s", bytes, units[unit]);
    return text;
}

std::string DeviceInfo::summary() const {
    std::ostringstream out;
    out << name << " (" << arch() << ", " << sm_count << " SMs at " << sm_clock_khz / 1000 << " MHz, "
        << format_bytes(static_cast<double>(global_memory_bytes)) << ", L2 "
        << format_bytes(static_cast<double>(l2_bytes)) << "); peaks: ";
    char peaks[96];
    std::snprintf(peaks, sizeof peaks, "%.0f GB/s DRAM, %.1f TFLOP/s FP32", peak_dram_gbps, peak_fp32_gflops / 1000.0);
    out << peaks;
    return out.str();
}

bool gpu_available(std::string* why) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaSuccess && count > 0) return true;
    cudaGetLastError();  // so the failed query does not linger as the "last error"
    // With no driver at all, the runtime reports "driver version is
    // insufficient", which would send a newcomer to upgrade a driver they do
    // not have: cudaDriverGetVersion tells the two apart (0: no driver).
    int driver = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
    cudaGetLastError();
    int runtime = 0;
    cudaRuntimeGetVersion(&runtime);
    const auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
    std::string reason;
    if (status == cudaSuccess || status == cudaErrorNoDevice) {
        reason = "no CUDA GPU in this machine";
    } else if (driver == 0) {
        reason = "no NVIDIA driver or GPU found (the CUDA runtime found no driver to talk to)";
    } else if (status == cudaErrorInsufficientDriver) {
        reason = "the NVIDIA driver supports CUDA " + version(driver) + ", older than this program's CUDA runtime " +
                 version(runtime) + ": update the driver, or build with an older CUDA toolkit";
    } else {
        reason = std::string("no usable CUDA GPU: cudaGetDeviceCount returned ") + cudaGetErrorName(status) + " (" +
                 cudaGetErrorString(status) + ")";
    }
    if (why != nullptr) *why = reason;
    return false;
}

DeviceInfo open_device(int ordinal) {
    std::string why;
    if (!gpu_available(&why)) throw NoGpuError(why);
    int count = 0;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    if (ordinal < 0 || ordinal >= count)
        throw UsageError("--device " + std::to_string(ordinal) + ": this machine has " + std::to_string(count) +
                         " GPU(s), numbered 0 to " + std::to_string(count - 1));
    CUDA_CHECK(cudaSetDevice(ordinal));

    DeviceInfo info;
    info.ordinal = ordinal;
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
    info.name = prop.name;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.sm_count = prop.multiProcessorCount;
    info.global_memory_bytes = prop.totalGlobalMem;
    info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
    info.shared_memory_per_block_optin = prop.sharedMemPerBlockOptin;
    // Clock rates left cudaDeviceProp in CUDA 13; the attributes remain.
    CUDA_CHECK(cudaDeviceGetAttribute(&info.sm_clock_khz, cudaDevAttrClockRate, ordinal));
    CUDA_CHECK(cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
    CUDA_CHECK(cudaDeviceGetAttribute(&info.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal));

    // Stream-ordered allocations (cudaMallocAsync: hgemm step 09's scratch)
    // come from the device's default memory pool. At its default release
    // threshold (0) the pool hands its free memory back at every
    // synchronisation, and the next allocation maps it again: the ladder
    // synchronises after each timed run, so a launcher that allocates per
    // call would be timed with that mapping in every run, and unsteadily.
    // An application that calls a kernel repeatedly keeps such memory (a
    // caching allocator, or this threshold); so do the course's programs.
    int pools = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, ordinal));
    if (pools != 0) {
        cudaMemPool_t pool = nullptr;
        CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, ordinal));
        std::uint64_t keep = UINT64_MAX;
        CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    }

    info.fp32_lanes_per_sm = fp32_lanes_per_sm(info.cc_major, info.cc_minor);
    if (info.fp32_lanes_per_sm == 0) {
        std::fprintf(stderr, "warning: compute capability %d.%d is new to the course; assuming 128 FP32 lanes per SM\n",
                     info.cc_major, info.cc_minor);
        info.fp32_lanes_per_sm = 128;
    }
    info.peak_dram_gbps = peak_dram_gbps(info.memory_clock_khz, info.memory_bus_bits);
    info.peak_fp32_gflops = peak_fp32_gflops(info.sm_count, info.fp32_lanes_per_sm, info.sm_clock_khz);
    return info;
}

void require_device_memory(std::size_t bytes, const std::string& what) {
    std::size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    // Leave a little room for the CUDA context's own allocations (CUB's
    // temporary storage, the L2 flush buffer, library handles).
    const std::size_t headroom = std::size_t{64} << 20;
    if (free_bytes < headroom || bytes > free_bytes - headroom)
        throw UsageError(what + " needs " + format_bytes(static_cast<double>(bytes)) +
                         " of GPU memory, but the GPU has " + format_bytes(static_cast<double>(free_bytes)) +
                         " free; choose a smaller --size");
}

}  // namespace course
