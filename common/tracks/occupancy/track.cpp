#include "tracks/occupancy/track.h"

#include "course/check.h"
#include "course/options.h"
#include "course/parallel.h"
#include "course/random.h"
#include "tracks/occupancy/device.cuh"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

namespace occupancy {

namespace {

std::vector<unsigned> random_words(std::size_t n, std::uint64_t seed) {
    course::Rng rng(seed);
    std::vector<unsigned> values(n);
    for (auto& v : values) v = static_cast<unsigned>(rng.next() >> 32);
    return values;
}

int attribute(cudaDeviceAttr what, int ordinal) {
    int value = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&value, what, ordinal));
    return value;
}

std::string kib(std::size_t bytes) {
    return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KiB" : std::to_string(bytes) + " B";
}

std::string cases_label(int cases) { return std::to_string(cases); }

const char* const kPredicted = "predicted occupancy";

// The predicted and achieved occupancy series every stream sweep has; the
// second is filled in by --profile (course/profile.h).
std::vector<course::Series> occupancy_series() {
    return {{kPredicted, course::SeriesKind::fraction}, {course::kAchievedOccupancy, course::SeriesKind::fraction}};
}

}  // namespace

const char* limiter_name(Limiter limiter) {
    switch (limiter) {
    case Limiter::warps: return "warps";
    case Limiter::registers: return "registers";
    case Limiter::shared_memory: return "shared memory";
    case Limiter::blocks: return "blocks";
    case Limiter::none: break;
    }
    return "none";
}

unsigned int stream_blocks(std::size_t n, int threads, int per_thread) {
    if (threads < 1 || threads > 1024)
        throw course::Error("stream: " + std::to_string(threads) + " threads per block; a block has 1 to 1024");
    if (per_thread < 1) throw course::Error("stream: at least one element per thread");
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    const std::size_t fill = static_cast<std::size_t>(attribute(cudaDevAttrMultiProcessorCount, device)) *
                             static_cast<std::size_t>(attribute(cudaDevAttrMaxBlocksPerMultiprocessor, device));
    const std::size_t per_block = static_cast<std::size_t>(threads) * static_cast<std::size_t>(per_thread);
    const std::size_t needed = (n + per_block - 1) / per_block;
    return static_cast<unsigned int>(std::max<std::size_t>(1, std::min(fill, needed)));
}

void check_variant(int variant, int variants, const char* what) {
    if (variant < 0 || variant >= variants)
        throw course::Error(std::string(what) + ": variant " + std::to_string(variant) + " out of 0.." +
                            std::to_string(variants - 1));
}

// --- Step 01 ----------------------------------------------------------------

// The references run on every core: each sweep point checks three input
// sets, each of up to 2^22 elements times the rounds.
std::vector<unsigned> divergence_reference(const std::vector<unsigned>& in, int cases, int rounds) {
    std::vector<unsigned> out(in.size());
    course::parallel_for(in.size(), [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i)
            out[i] = mix_case_cpu(in[i], static_cast<int>(i % static_cast<std::size_t>(cases)), rounds);
    });
    return out;
}

std::vector<unsigned> short_cases_reference(const std::vector<unsigned>& in, int cases, int rounds) {
    std::vector<unsigned> out(in.size());
    course::parallel_for(in.size(), [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i) {
            unsigned v = in[i];
            for (int r = 0; r < rounds; ++r)
                v = short_case_cpu(v, static_cast<int>(i % static_cast<std::size_t>(cases)));
            out[i] = v;
        }
    });
    return out;
}

DivergenceProblem::DivergenceProblem(std::size_t n, std::uint64_t seed) : n_(n), seed_(seed), in_(n), out_(n) {
    if (n == 0) throw course::Error("divergence: n must be at least 1");
    use_inputs(0, nullptr);
}

const std::vector<unsigned>& DivergenceProblem::input(int set) {
    auto found = inputs_.find(set);
    if (found == inputs_.end())
        found = inputs_.emplace(set, random_words(n_, course::input_set_seed(seed_, set))).first;
    return found->second;
}

void DivergenceProblem::use_inputs(int set, cudaStream_t) {
    const std::vector<unsigned>& values = input(set);
    in_.upload(values);
    current_ = set;
}

course::KernelRun DivergenceProblem::run(DivergenceLauncher launch, int cases, int rounds, bool short_cases) {
    check_cases(cases, rounds);
    // This run's references, one per input set, made when a set is first checked.
    auto expected = std::make_shared<std::map<int, std::vector<unsigned>>>();
    return course::KernelRun{
        [this, launch, cases, rounds](cudaStream_t stream) {
            launch(in_.data(), out_.data(), n_, cases, rounds, stream);
        },
        [this](std::uint8_t pattern, cudaStream_t stream) { out_.fill_bytes(pattern, stream); },
        [this, expected, cases, rounds, short_cases]() {
            auto found = expected->find(current_);
            if (found == expected->end()) {
                const std::vector<unsigned>& in = input(current_);
                found = expected
                            ->emplace(current_, short_cases ? short_cases_reference(in, cases, rounds)
                                                            : divergence_reference(in, cases, rounds))
                            .first;
            }
            const std::vector<unsigned> got = out_.download();
            return course::compare_exact(got.data(), found->second.data(), n_);
        },
        [this](int set, cudaStream_t stream) { use_inputs(set, stream); },
    };
}

// --- Step 02 ----------------------------------------------------------------

SmLimits limits_of(int ordinal) {
    SmLimits sm;
    sm.warp_size = attribute(cudaDevAttrWarpSize, ordinal);
    sm.max_threads_per_block = attribute(cudaDevAttrMaxThreadsPerBlock, ordinal);
    sm.max_warps_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, ordinal) / sm.warp_size;
    sm.max_blocks_per_sm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor, ordinal);
    sm.registers_per_sm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor, ordinal);
    sm.registers_per_block = attribute(cudaDevAttrMaxRegistersPerBlock, ordinal);
    sm.shared_per_sm = static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, ordinal));
    sm.shared_per_block = static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlock, ordinal));
    sm.shared_per_block_optin = static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, ordinal));
    sm.reserved_shared_per_block =
        static_cast<std::size_t>(attribute(cudaDevAttrReservedSharedMemoryPerBlock, ordinal));
    // What no attribute reports, from NVIDIA's occupancy rules for Volta and
    // later: registers go to warps in units of 256, from four partitions of
    // the register file (one per warp scheduler), and shared memory is
    // allocated in units of 128 bytes from sm_80 on, 256 before (the CUDA
    // toolkit's cuda_occupancy.h); a thread addresses at most 255 registers
    // (the CUDA C++ Programming Guide's table of technical specifications).
    const int major = attribute(cudaDevAttrComputeCapabilityMajor, ordinal);
    sm.max_registers_per_thread = 255;
    sm.register_allocation_unit = 256;
    sm.register_partitions = 4;
    sm.shared_allocation_unit = major >= 8 ? 128 : 256;
    return sm;
}

std::string describe(const SmLimits& sm) {
    return "limits per SM: " + std::to_string(sm.max_warps_per_sm) + " warps, " + std::to_string(sm.max_blocks_per_sm) +
           " blocks, " + std::to_string(sm.registers_per_sm) + " registers (" + std::to_string(sm.registers_per_block) +
           " per block, " + std::to_string(sm.max_registers_per_thread) +
           " per thread, allocated per warp in units of " + std::to_string(sm.register_allocation_unit) + " from " +
           std::to_string(sm.register_partitions) + " partitions), " + kib(sm.shared_per_sm) +
           " shared memory (per block " + kib(sm.shared_per_block) + ", " + kib(sm.shared_per_block_optin) +
           " opted in, plus a reserve of " + kib(sm.reserved_shared_per_block) + "; allocated in units of " +
           std::to_string(sm.shared_allocation_unit) + " B)";
}

BlockResources resources_of(const course::KernelLaunch& launch) {
    BlockResources block;
    block.threads = static_cast<int>(launch.threads_per_block());
    block.registers_per_thread = launch.attributes.numRegs;
    block.static_shared_bytes = launch.attributes.sharedSizeBytes;
    block.dynamic_shared_bytes = launch.dynamic_shared_bytes;
    block.max_dynamic_shared_bytes = static_cast<std::size_t>(launch.attributes.maxDynamicSharedSizeBytes);
    return block;
}

int api_active_blocks(const void* kernel, int threads, std::size_t dynamic_shared_bytes) {
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, dynamic_shared_bytes));
    return blocks;
}

Occupancy predict(Calculator calculator, const SmLimits& limits, const std::function<void(cudaStream_t)>& launch) {
    if (calculator == nullptr) throw course::Error("occupancy: this program has no calculator (step 02)");
    const course::LaunchRecord record = course::record_launches(launch);
    if (record.kernels.size() != 1)
        throw course::Error("occupancy: a stream step launches one kernel, this one launched " +
                            std::to_string(record.kernels.size()));
    return calculator(limits, resources_of(record.kernels.front()));
}

// --- Steps 03 to 06 -----------------------------------------------------------

StreamProblem::StreamProblem(std::size_t n, std::uint64_t seed, std::size_t offset)
    : n_(n), offset_(offset), seed_(seed), in_(n + offset), out_(n + offset) {
    if (n == 0) throw course::Error("stream: n must be at least 1");
    use_inputs(0, nullptr);
}

const StreamProblem::InputSet& StreamProblem::input_set(int set) {
    auto found = sets_.find(set);
    if (found == sets_.end()) {
        InputSet inputs;
        inputs.input = random_words(n_ + offset_, course::input_set_seed(seed_, set));
        inputs.expected.resize(n_);
        for (std::size_t i = 0; i < n_; ++i) inputs.expected[i] = stream_transform(inputs.input[i + offset_]);
        found = sets_.emplace(set, std::move(inputs)).first;
    }
    return found->second;
}

void StreamProblem::use_inputs(int set, cudaStream_t) {
    const InputSet& inputs = input_set(set);
    in_.upload(inputs.input);
    current_ = set;
}

course::KernelRun StreamProblem::run(StreamLauncher launch, const StreamShape& shape) {
    return course::KernelRun{
        [this, launch, shape](cudaStream_t stream) { launch(in(), out(), n_, shape, stream); },
        [this](std::uint8_t pattern, cudaStream_t stream) { out_.fill_bytes(pattern, stream); },
        [this]() { return check(); },
        [this](int set, cudaStream_t stream) { use_inputs(set, stream); },
    };
}

course::CheckResult StreamProblem::check() const {
    const std::vector<unsigned> got = out_.download();
    return course::compare_exact(got.data() + offset_, sets_.at(current_).expected.data(), n_);
}

std::size_t shared_bytes_for_blocks(const SmLimits& sm, int blocks) {
    if (blocks < 1) throw course::Error("occupancy: at least one block per SM");
    // The largest allocation of which `blocks` fit: the SM's shared memory
    // split `blocks` ways, rounded down to the allocation unit, less the
    // system's reserve; no more than one block may have.
    std::size_t allocation = sm.shared_per_sm / static_cast<std::size_t>(blocks);
    allocation -= allocation % sm.shared_allocation_unit;
    std::size_t bytes = allocation > sm.reserved_shared_per_block ? allocation - sm.reserved_shared_per_block : 0;
    return std::min(bytes, sm.shared_per_block_optin);
}

const std::vector<int>& divergence_cases() {
    static const std::vector<int> cases = {1, 2, 4, 8, 16, 32};
    return cases;
}

const std::vector<std::size_t>& shared_sweep_bytes() {
    static const std::vector<std::size_t> bytes = [] {
        std::vector<std::size_t> b;
        for (int k : {0, 2, 4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224})
            b.push_back(static_cast<std::size_t>(k) * 1024);
        return b;
    }();
    return bytes;
}

const std::vector<int>& block_sweep_threads() {
    static const std::vector<int> threads = {32, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024};
    return threads;
}

std::vector<StreamPoint> stream_points(int step, const SmLimits& sm) {
    std::vector<StreamPoint> points;
    switch (step) {
    case 3:
        for (int v = 0; v < kHeldVariants; ++v) points.push_back({StreamShape{256, 0, v}, 0});
        break;
    case 4:
        for (std::size_t bytes : shared_sweep_bytes())
            if (bytes <= sm.shared_per_block_optin) points.push_back({StreamShape{256, bytes, 0}, 0});
        break;
    case 5:
        for (int threads : block_sweep_threads())
            if (threads <= sm.max_threads_per_block) points.push_back({StreamShape{threads, 0, 0}, 0});
        break;
    case 6: {
        const std::size_t low = shared_bytes_for_blocks(sm, kIlpLowBlocks);
        for (int v = 0; v < kLoadsVariants; ++v) points.push_back({StreamShape{kIlpThreads, low, v}, 0});
        for (int v = 0; v < kLoadsVariants; ++v) points.push_back({StreamShape{kIlpThreads, 0, v}, 1});
        break;
    }
    default: throw course::Error("occupancy: step " + std::to_string(step) + " is not a stream step");
    }
    return points;
}

// --- Sweeps -------------------------------------------------------------------

course::Sweep divergence_sweep(DivergenceLauncher launch, bool short_cases, int step, bool student,
                               const course::TrackRun& run, DivergenceProblem& problem, int rounds) {
    course::Sweep sweep;
    sweep.track = "occupancy";
    sweep.lesson = "01_divergence";
    sweep.title = short_cases ? "short cases (one instruction each), switch (threadIdx.x % N)"
                              : "divergence, switch (threadIdx.x % N)";
    sweep.problem = std::to_string(rounds) +
                    " rounds per element of case threadIdx.x % N, n = " + course::describe_count(problem.size()) +
                    " unsigned ints, blocks of " + std::to_string(kDivergenceThreads);
    sweep.parameter = "N";
    sweep.student = student && !short_cases;
    sweep.unit = course::Unit::bandwidth;
    sweep.peak = run.harness.device.peak_dram_gbps;
    sweep.series = {{"time vs N = 1", course::SeriesKind::ratio}};
    for (int cases : divergence_cases()) {
        course::SweepPoint point = course::sweep_point(cases, cases_label(cases), problem.bytes_moved());
        point = course::measure_point(run.harness, point, problem.run(launch, cases, rounds, short_cases),
                                      "step " + course::step_label(step) + ", N = " + cases_label(cases));
        course::enforce_peak(sweep, point);
        sweep.points.push_back(point);
    }
    const double first = sweep.points.front().time.median_ms;
    for (auto& point : sweep.points) {
        point.values = {std::nullopt};
        if (first > 0 && point.time.median_ms > 0 && point.check.ok) point.values[0] = point.time.median_ms / first;
    }
    sweep.notes.push_back(
        "N threads in a row take N different cases: a warp runs its N paths one after the other, so with enough "
        "work per case the time grows with N (J. Seo, \"CUDA Performance Consideration\")");
    if (short_cases)
        sweep.notes.push_back("one instruction per case: the compiler may predicate the switch instead of "
                              "branching; lessons/occupancy/01_divergence/README.md shows how to tell");
    return sweep;
}

std::vector<course::Sweep> calculator_sweeps(Calculator calculator, int step, bool student,
                                             const course::TrackRun& run) {
    if (calculator == nullptr) throw course::Error("occupancy: this program has no calculator (step 02)");
    const SmLimits sm = limits_of(run.harness.device.ordinal);
    const std::vector<Probe> all = probes();
    auto find = [&](const std::string& name) -> const Probe& {
        for (const auto& p : all)
            if (p.name == name) return p;
        throw course::Error("occupancy: no probe kernel \"" + name + "\"");
    };
    auto sweep_of = [&](const std::string& title, const std::string& parameter, const std::string& problem) {
        course::Sweep sweep;
        sweep.track = "occupancy";
        sweep.lesson = "02_calculator";
        sweep.title = title;
        sweep.problem = problem;
        sweep.parameter = parameter;
        sweep.student = student;
        sweep.series = {{"active blocks", course::SeriesKind::count},
                        {"active warps", course::SeriesKind::count},
                        {kPredicted, course::SeriesKind::fraction},
                        {"CUDA runtime's occupancy", course::SeriesKind::fraction}};
        return sweep;
    };
    // One point: the calculator's answer beside the runtime's; the check is
    // their agreement. Nothing runs: the times stay empty.
    std::string limiters;
    auto point_of = [&](const Probe& probe, double x, const std::string& label, int threads, std::size_t dynamic) {
        BlockResources block;
        block.threads = threads;
        block.registers_per_thread = probe.attributes.numRegs;
        block.static_shared_bytes = probe.attributes.sharedSizeBytes;
        block.dynamic_shared_bytes = dynamic;
        block.max_dynamic_shared_bytes = static_cast<std::size_t>(probe.attributes.maxDynamicSharedSizeBytes);
        const Occupancy mine = calculator(sm, block);
        const int api = api_active_blocks(probe.kernel, threads, dynamic);
        const int warps_per_block = (threads + sm.warp_size - 1) / sm.warp_size;
        course::SweepPoint point = course::sweep_point(x, label, 0);
        point.timed = false;
        point.values = {double(mine.active_blocks), double(mine.active_warps), mine.occupancy,
                        double(api * warps_per_block) / sm.max_warps_per_sm};
        point.check.checked = 1;
        if (mine.active_blocks != api)
            point.check = course::failed_check("the calculator says " + std::to_string(mine.active_blocks) +
                                               " blocks, the CUDA runtime " + std::to_string(api));
        limiters += (limiters.empty() ? "" : ", ") + label + ": " + limiter_name(mine.limiter);
        return point;
    };
    auto finish = [&](course::Sweep& sweep) {
        sweep.notes.push_back("limiter per point (the calculator's): " + limiters);
        sweep.notes.push_back(describe(sm));
        sweep.notes.push_back("computed, not run: the check compares the calculator's active blocks with "
                              "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        limiters.clear();
    };

    std::vector<course::Sweep> sweeps;
    {
        const Probe& probe = find("held 32");
        course::Sweep sweep = sweep_of("occupancy vs threads per block", "threads per block",
                                       "probe kernel with " + std::to_string(probe.attributes.numRegs) +
                                           " registers per thread, no shared memory");
        for (int threads : {32, 64, 96, 128, 160, 192, 224, 256, 320, 384, 448, 512, 640, 768, 896, 1024})
            if (threads <= probe.attributes.maxThreadsPerBlock)
                sweep.points.push_back(point_of(probe, threads, std::to_string(threads), threads, 0));
        finish(sweep);
        sweeps.push_back(sweep);
    }
    {
        course::Sweep sweep = sweep_of("occupancy vs registers per thread", "registers per thread",
                                       "probe kernels holding 0 to 200 values, blocks of 256 threads");
        std::map<int, const Probe*> by_registers;
        for (const auto& p : all)
            if (p.name.rfind("held ", 0) == 0) by_registers.emplace(p.attributes.numRegs, &p);
        for (const auto& [registers, probe] : by_registers)
            sweep.points.push_back(point_of(*probe, registers, std::to_string(registers), 256, 0));
        finish(sweep);
        sweeps.push_back(sweep);
    }
    {
        const Probe& probe = find("held 0, opted in");
        course::Sweep sweep =
            sweep_of("occupancy vs shared memory per block", "shared memory per block",
                     "probe kernel with " + std::to_string(probe.attributes.numRegs) +
                         " registers per thread, blocks of 256 threads, dynamic shared memory (opted in)");
        for (std::size_t bytes : shared_sweep_bytes())
            if (bytes <= static_cast<std::size_t>(probe.attributes.maxDynamicSharedSizeBytes))
                sweep.points.push_back(point_of(probe, double(bytes) / 1024, kib(bytes), 256, bytes));
        finish(sweep);
        sweeps.push_back(sweep);
    }
    (void)step;
    return sweeps;
}

std::vector<course::Sweep> stream_sweeps(StreamLauncher launch, Calculator calculator, int step, bool student,
                                         const course::TrackRun& run, StreamProblem& problem) {
    const SmLimits sm = limits_of(run.harness.device.ordinal);
    auto sweep_of = [&](const std::string& lesson, const std::string& title, const std::string& parameter,
                        const std::string& setting) {
        course::Sweep sweep;
        sweep.track = "occupancy";
        sweep.lesson = lesson;
        sweep.title = title;
        sweep.problem = "out[i] = in[i] * 2654435761 + 0x9E3779B9, n = " + course::describe_count(problem.size()) +
                        " unsigned ints, " + course::format_bytes(problem.bytes_moved()) + " moved per run" + setting;
        sweep.parameter = parameter;
        sweep.student = student;
        sweep.unit = course::Unit::bandwidth;
        sweep.peak = run.harness.device.peak_dram_gbps;
        sweep.series = occupancy_series();
        return sweep;
    };
    std::vector<course::Sweep> sweeps;
    switch (step) {
    case 3:
        sweeps.push_back(sweep_of("03_registers", "registers per thread", "registers per thread", ", blocks of 256"));
        sweeps.back().series.insert(sweeps.back().series.begin(), {"values held", course::SeriesKind::count});
        break;
    case 4:
        sweeps.push_back(
            sweep_of("04_shared_memory", "shared memory per block", "shared memory per block", ", blocks of 256"));
        break;
    case 5: sweeps.push_back(sweep_of("05_block_size", "threads per block", "threads per block", "")); break;
    case 6:
        sweeps.push_back(
            sweep_of("06_ilp", "loads in flight per thread, low occupancy", "loads per thread",
                     ", blocks of 256, " + std::to_string(kIlpLowBlocks) + " blocks per SM (dynamic shared memory)"));
        sweeps.push_back(sweep_of("06_ilp", "loads in flight per thread, full occupancy", "loads per thread",
                                  ", blocks of 256, no shared memory"));
        break;
    default: throw course::Error("occupancy: step " + std::to_string(step) + " is not a stream step");
    }
    for (const StreamPoint& p : stream_points(step, sm)) {
        const course::KernelRun kernel_run = problem.run(launch, p.shape);
        const Occupancy predicted = predict(calculator, sm, kernel_run.launch);
        double x = 0;
        std::string label;
        std::optional<double> held;
        switch (step) {
        case 3: {
            const course::LaunchRecord record = course::record_launches(kernel_run.launch);
            x = record.kernels.front().attributes.numRegs;
            label = std::to_string(record.kernels.front().attributes.numRegs);
            held = kHeldValues[p.shape.variant];
            break;
        }
        case 4:
            x = double(p.shape.shared_bytes) / 1024;
            label = kib(p.shape.shared_bytes);
            break;
        case 5:
            x = p.shape.threads;
            label = std::to_string(p.shape.threads);
            break;
        default:
            x = kLoadsPerThread[p.shape.variant];
            label = std::to_string(kLoadsPerThread[p.shape.variant]);
            break;
        }
        course::Sweep& sweep = sweeps.at(static_cast<std::size_t>(p.sweep));
        course::SweepPoint point = course::sweep_point(x, label, problem.bytes_moved());
        point = course::measure_point(run.harness, point, kernel_run,
                                      "step " + course::step_label(step) + ", " + sweep.parameter + " " + label);
        course::enforce_peak(sweep, point);
        if (step == 3)
            point.values = {held, predicted.occupancy, std::nullopt};
        else
            point.values = {predicted.occupancy, std::nullopt};
        sweep.points.push_back(point);
    }
    for (auto& sweep : sweeps) {
        sweep.notes.push_back("predicted occupancy: the step 02 calculator on each point's launch (its threads, "
                              "registers and shared memory, read from the launch and cudaFuncGetAttributes); "
                              "achieved occupancy: run with --profile (Nsight Compute)");
        sweep.notes.push_back(describe(sm));
    }
    return sweeps;
}

// --- The track --------------------------------------------------------------

std::size_t divergence_size_from(const course::Options& options) {
    return options.size.empty() ? kDefaultDivergenceSize
                                : static_cast<std::size_t>(course::parse_count(options.size, "--size"));
}

std::size_t stream_size_from(const course::Options& options) {
    return options.size.empty() ? kDefaultStreamSize
                                : static_cast<std::size_t>(course::parse_count(options.size, "--size"));
}

int rounds_from(const course::Options& options) {
    const std::uint64_t rounds = course::parse_count(options.option("rounds"), "--rounds");
    if (rounds > 1u << 20) throw course::UsageError("--rounds: at most 2^20");
    return static_cast<int>(rounds);
}

std::vector<course::Sweep> run_sweeps(const Steps& steps, const course::TrackRun& run) {
    std::vector<course::Sweep> sweeps;
    const bool all = run.student_step == 0;
    auto wanted = [&](int number) { return all || number == run.student_step; };
    auto mine = [&](int number) { return number == run.student_step; };

    for (const DivergenceStep& step : steps.divergence) {
        if (!wanted(step.number)) continue;
        const std::size_t n = divergence_size_from(run.options);
        course::require_device_memory(8 * n, "n = " + course::describe_count(n) + " unsigned ints");
        DivergenceProblem problem(n, run.options.seed);
        const int rounds = rounds_from(run.options);
        sweeps.push_back(divergence_sweep(step.launch, false, step.number, mine(step.number), run, problem, rounds));
        sweeps.push_back(
            divergence_sweep(step.launch_short, true, step.number, mine(step.number), run, problem, rounds));
    }
    if (steps.calculator != nullptr && wanted(2))
        for (auto& sweep : calculator_sweeps(steps.calculator, 2, mine(2), run)) sweeps.push_back(std::move(sweep));
    bool any_stream = false;
    for (const StreamStep& step : steps.stream) any_stream = any_stream || wanted(step.number);
    if (any_stream) {
        const std::size_t n = stream_size_from(run.options);
        course::require_device_memory(8 * n, "n = " + course::describe_count(n) + " unsigned ints");
        StreamProblem problem(n, run.options.seed);
        for (const StreamStep& step : steps.stream) {
            if (!wanted(step.number)) continue;
            for (auto& sweep :
                 stream_sweeps(step.launch, steps.calculator, step.number, mine(step.number), run, problem))
                sweeps.push_back(std::move(sweep));
        }
    }
    return sweeps;
}

}  // namespace occupancy
