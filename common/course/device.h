// What the GPU at hand can do, read from the device itself.
//
// "% of peak" in every ladder divides by these numbers, so they come from the
// driver (clock rates, bus width, multiprocessor count), never from a table
// of marketing figures: the same program is honest on a laptop and on an H100.
#pragma once

#include <cstddef>
#include <string>

namespace course {

struct DeviceInfo {
    int ordinal = 0;
    std::string name;
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    int sm_clock_khz = 0;      // peak (boost) clock of the multiprocessors
    int memory_clock_khz = 0;  // peak memory clock
    int memory_bus_bits = 0;   // width of the memory interface
    std::size_t l2_bytes = 0;
    std::size_t global_memory_bytes = 0;
    std::size_t shared_memory_per_block_optin = 0;
    int fp32_lanes_per_sm = 0;
    double peak_dram_gbps = 0;    // theoretical DRAM bandwidth, GB/s (10^9 bytes)
    double peak_fp32_gflops = 0;  // theoretical FP32 rate, GFLOP/s (an FMA counts 2)

    std::string arch() const { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }
    // One line for the head of a ladder.
    std::string summary() const;
};

// --- Peak formulas: pure functions, unit-tested on known devices. ---------

// DRAM moves data on both clock edges: 2 transfers per memory clock, each as
// wide as the bus. (H100 SXM: 2619 MHz x 5120 bits -> 3352 GB/s.)
double peak_dram_gbps(int memory_clock_khz, int memory_bus_bits);

// FP32 lanes (the "CUDA cores") per multiprocessor, by compute capability.
// Returns 0 for a capability the course does not know.
int fp32_lanes_per_sm(int cc_major, int cc_minor);

// Each lane retires one fused multiply-add (2 FLOP) per clock.
double peak_fp32_gflops(int sm_count, int lanes_per_sm, int sm_clock_khz);

// Steps that need a later GPU's instructions (the hgemm track's Hopper steps:
// TMA and wgmma, compute capability 9.0). `needed` is a compute capability as
// major * 10 + minor (90 for 9.0; 0: any GPU). Returns "" when a GPU of
// compute capability cc_major.cc_minor has it or a later one, else the line a
// ladder prints in place of the step's row and a grading test skips with:
// "<what> needs compute capability 9.0 (Hopper) or later; this GPU is 8.6:
// left out".
std::string capability_missing(int cc_major, int cc_minor, int needed, const std::string& what);

// --- The device itself. ---------------------------------------------------

// True if a usable CUDA GPU is present; otherwise `why` says what is missing
// (no driver, no device, ...). Never throws.
bool gpu_available(std::string* why = nullptr);

// Makes `ordinal` the current device and reads its properties. Throws
// course::Error with a one-line reason if there is no GPU or no such device.
DeviceInfo open_device(int ordinal);

// Throws course::Error, naming `what`, when `bytes` more device memory would
// not fit in what the GPU has free: a clear message instead of a failed
// cudaMalloc half-way through a ladder.
void require_device_memory(std::size_t bytes, const std::string& what);

// "1.50 GiB", "768 MiB", "12 KiB", "17 B"
std::string format_bytes(double bytes);

}  // namespace course
