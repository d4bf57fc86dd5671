// The hgemm steps' ideas seen without a clock, from the launch a launcher
// records (course/launches.h): for the grading tests, and for the grading's
// self-test (tests/hgemm/test_structure_plants.cpp), which shows each check
// failing the untouched starter of its step (the previous step's solution)
// and passing the step's solution.
#pragma once

#include "course/launches.h"
#include "gpu_test.h"
#include "tracks/hgemm/track.h"

#include "hgemm/sass.h"
#include "sass_listing.h"

#include <cuda.h>  // CUtensorMap (the type alone: nothing here calls the driver)
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace hgemm::testing {

struct StructureCheck {
    bool ok = false;
    std::string what;  // what was seen, and what was expected
};

// What `launch` enqueues at `shape`, without running it: its kernels, their
// launch shapes and resources.
inline course::LaunchRecord launches_at(Launcher launch, Shape shape) {
    Problem problem(shape, 1);
    return course::record_launches(
        [&](cudaStream_t stream) { launch(problem.a(), problem.b(), problem.c(), shape.M, shape.N, shape.K, stream); });
}

// The warps a launch starts: blocks times warps per block (a partial warp
// counts as one).
inline std::size_t warps_launched(const course::KernelLaunch& kernel) {
    return kernel.blocks() * ((kernel.threads_per_block() + 31) / 32);
}

inline std::string launch_shape(const course::KernelLaunch& kernel) {
    return std::to_string(kernel.blocks()) + " blocks of " + std::to_string(kernel.threads_per_block()) + " threads, " +
           std::to_string(kernel.shared_bytes()) + " bytes of shared memory per block";
}

// Step 01: one kernel, whole warps, one warp per 16 x 16 tile of C. 256 x 128
// outputs are 16 x 8 tiles, a multiple of any block of 1, 2, 4 or 8 warps in
// either direction: one warp each, none spare.
inline StructureCheck check_one_warp_per_tile(Launcher launch) {
    const Shape shape{256, 128, 64};
    const course::LaunchRecord record = launches_at(launch, shape);
    if (record.kernels.size() != 1)
        return {false, "the launcher enqueues " + std::to_string(record.kernels.size()) + " kernels, not one"};
    const course::KernelLaunch& kernel = record.kernels[0];
    const std::size_t tiles = (256 / 16) * (128 / 16), warps = warps_launched(kernel);
    return {kernel.threads_per_block() % 32 == 0 && warps == tiles,
            launch_shape(kernel) + ": " + std::to_string(warps) + " warps for the " + std::to_string(tiles) +
                " tiles of 16 x 16 at " + shape.describe() + " (whole warps, one per tile)"};
}

// Step 02: several warps per block (at least 4), and a warp tile of at least
// 4 fragments per warp: at 1024 x 1024 outputs (4096 tiles of 16 x 16) at
// most 1024 warps.
inline StructureCheck check_warp_tiles(Launcher launch) {
    const Shape shape{1024, 1024, 256};
    const course::LaunchRecord record = launches_at(launch, shape);
    if (record.kernels.size() != 1)
        return {false, "the launcher enqueues " + std::to_string(record.kernels.size()) + " kernels, not one"};
    const course::KernelLaunch& kernel = record.kernels[0];
    const std::size_t tiles = (1024 / 16) * (1024 / 16), warps = warps_launched(kernel);
    return {kernel.threads_per_block() >= 4 * 32 && warps * 4 <= tiles,
            launch_shape(kernel) + ": " + std::to_string(warps) + " warps for " + std::to_string(tiles) +
                " tiles of 16 x 16 (at least 4 warps per block, at least 4 tiles per warp)"};
}

// Step 02: shared memory for the block's tiles of A and B. A block that
// computes R x S outputs needs, per 16 terms, an R x 16 tile of A and a
// 16 x S tile of B: (R + S) * 16 halves, at least 2 * sqrt(R * S) * 16 of them
// whatever the block's shape.
inline StructureCheck check_shared_tiles(Launcher launch) {
    const Shape shape{1024, 1024, 256};
    const course::LaunchRecord record = launches_at(launch, shape);
    if (record.kernels.size() != 1)
        return {false, "the launcher enqueues " + std::to_string(record.kernels.size()) + " kernels, not one"};
    const course::KernelLaunch& kernel = record.kernels[0];
    const double outputs_per_block = 1024.0 * 1024.0 / static_cast<double>(kernel.blocks());
    const double minimum = 2.0 * std::sqrt(outputs_per_block) * 16 * sizeof(__half);
    return {static_cast<double>(kernel.shared_bytes()) >= minimum,
            launch_shape(kernel) + "; one 16-term step of tiles for a block of " +
                std::to_string(static_cast<long long>(outputs_per_block)) + " outputs needs at least " +
                std::to_string(static_cast<long long>(minimum)) + " bytes"};
}

// Step 03: step 02's tiling (8 x 8 blocks of 256 threads at 1024 x 1024), and
// shared memory for the padded 128 x 32 tile of A and 32 x 128 tile of B
// alone: the accumulators go to C from registers, with no staging area.
inline StructureCheck check_no_staging(Launcher launch) {
    const Shape shape{1024, 1024, 256};
    const course::LaunchRecord record = launches_at(launch, shape);
    if (record.kernels.size() != 1)
        return {false, "the launcher enqueues " + std::to_string(record.kernels.size()) + " kernels, not one"};
    const course::KernelLaunch& kernel = record.kernels[0];
    constexpr std::size_t kTileBytes = (128 * (32 + 8) + 32 * (128 + 8)) * sizeof(__half);
    return {kernel.blocks() == (1024 / 128) * (1024 / 128) && kernel.threads_per_block() == 256 &&
                kernel.shared_bytes() <= kTileBytes,
            launch_shape(kernel) +
                "; step 02's tiling is 64 blocks of 256 threads, and the padded tiles of A and B "
                "take " +
                std::to_string(kTileBytes) + " bytes"};
}

// Step 04: step 03's tiling (8 x 8 blocks of 256 threads at 1024 x 1024),
// with at least three stages of its padded tiles in shared memory (static and
// dynamic, as the launch asks for them): 3 x 18,944 bytes. Step 03 has one
// stage. A race in a pipeline of copies need not show in the results, and
// the speed rule alone would grade the stages by a clock, so the stages are
// checked by the shared memory they take, at a shape of whole tiles (the fast
// path) and at a ragged one (17 x 33 x 65: the checked copies).
inline StructureCheck check_stages(Launcher launch) {
    constexpr std::size_t kStageBytes = (128 * (32 + 8) + 32 * (128 + 8)) * sizeof(__half);
    constexpr std::size_t kMinimum = 3 * kStageBytes;
    StructureCheck check{true, ""};
    for (const Shape& shape : {Shape{1024, 1024, 256}, Shape{17, 33, 65}}) {
        const course::LaunchRecord record = launches_at(launch, shape);
        if (record.kernels.size() != 1)
            return {false, "at " + shape.describe() + " the launcher enqueues " +
                               std::to_string(record.kernels.size()) + " kernels, not one"};
        const course::KernelLaunch& kernel = record.kernels[0];
        const std::size_t blocks = static_cast<std::size_t>((shape.M + 127) / 128) * ((shape.N + 127) / 128);
        if (!check.what.empty()) check.what += "; ";
        check.what += "at " + shape.describe() + ": " + launch_shape(kernel);
        if (kernel.blocks() != blocks || kernel.threads_per_block() != 256 || kernel.shared_bytes() < kMinimum) {
            check.ok = false;
            check.what += " (step 03's tiling is " + std::to_string(blocks) +
                          " blocks of 256 threads, and three stages of its padded tiles take " +
                          std::to_string(kMinimum) + " bytes)";
        }
    }
    return check;
}

// Step 05: packed tiles and 64 x 64 warp tiles. At 1024 x 1024 x 256 (whole
// tiles) the grid gives the block tile, BM x BN = 1024 / grid.y x 1024 /
// grid.x; each warp computes at least 64 x 64 outputs (step 04: 64 x 32), and
// the shared memory is a whole number of packed 16-term slabs of the block's
// tiles, (BM + BN) x 16 halves each, at least four of them (two stages of 32
// terms), with at most kAlignmentSlack bytes over: room for a kernel that
// rounds its dynamic shared memory up to a 128- or 1024-byte boundary, as
// swizzled layouts often do. Padded rows, as in step 04, leave 16 bytes or
// more per row of a tile (7,680 bytes over with step 04's tiles); padding
// that happens to come within the slack (16 bytes on each of 64 rows of B
// alone: 1,024) or to add a whole slab passes this check, and is left to the
// race.
inline StructureCheck check_packed_warp_tiles(Launcher launch) {
    const Shape shape{1024, 1024, 256};
    const course::LaunchRecord record = launches_at(launch, shape);
    if (record.kernels.size() != 1)
        return {false, "the launcher enqueues " + std::to_string(record.kernels.size()) + " kernels, not one"};
    const course::KernelLaunch& kernel = record.kernels[0];
    const dim3 grid = kernel.grid;
    if (grid.z != 1 || 1024 % grid.x != 0 || 1024 % grid.y != 0)
        return {false, launch_shape(kernel) + ": a grid of " + std::to_string(grid.x) + " x " + std::to_string(grid.y) +
                           " x " + std::to_string(grid.z) + " blocks does not tile 1024 x 1024 outputs evenly"};
    const std::size_t bm = 1024 / grid.y, bn = 1024 / grid.x, warps = (kernel.threads_per_block() + 31) / 32;
    const std::size_t per_warp = bm * bn / warps;
    const std::size_t slab = (bm + bn) * 16 * sizeof(__half), bytes = kernel.shared_bytes();
    constexpr std::size_t kAlignmentSlack = 1024;
    const bool ok = per_warp >= 64 * 64 && bytes % slab <= kAlignmentSlack && bytes / slab >= 4;
    return {ok, launch_shape(kernel) + ": block tiles of " + std::to_string(bm) + " x " + std::to_string(bn) + ", " +
                    std::to_string(per_warp) + " outputs per warp (at least 64 x 64 = 4096), and " +
                    std::to_string(bytes / slab) + " packed 16-term slabs of " + std::to_string(slab) + " bytes with " +
                    std::to_string(bytes % slab) + " bytes over (a whole number, at least 4, with at most " +
                    std::to_string(kAlignmentSlack) + " bytes over, room to align the tiles)"};
}

// The machine code of `kernel`, launched at `shape`, from `library`
// (cuobjdump -sass, read by course::testing::launched_kernel_code): false and
// why in `failure` where it cannot be read; `name` is set to its mangled name.
inline bool sass_of_kernel(const course::KernelLaunch& kernel, Shape shape, const std::string& library,
                           const std::string& cuobjdump, SassCounts& counts, std::string& name,
                           StructureCheck& failure) {
    course::testing::KernelCode code;
    std::string why;
    if (!course::testing::launched_kernel_code(kernel.function, cuobjdump, library, name, code, why)) {
        failure = {false, "at " + shape.describe() + ": " + why};
        return false;
    }
    counts = count_tensor_instructions(code);
    return true;
}

// The same for the one kernel `launch` enqueues at `shape`; `kernel` is set
// to its launch.
inline bool sass_of_launch(Launcher launch, Shape shape, const std::string& library, const std::string& cuobjdump,
                           SassCounts& counts, course::KernelLaunch& kernel, std::string& name,
                           StructureCheck& failure) {
    const course::LaunchRecord record = launches_at(launch, shape);
    if (record.kernels.size() != 1) {
        failure = {false, "the launcher enqueues " + std::to_string(record.kernels.size()) + " kernels, not one"};
        return false;
    }
    kernel = record.kernels[0];
    return sass_of_kernel(kernel, shape, library, cuobjdump, counts, name, failure);
}

// Step 06: the tiles come through the TMA. A kernel that copies with the TMA
// takes a tensor map per matrix it reads, a CUtensorMap of 128 bytes passed
// as a kernel parameter (__grid_constant__), where a kernel that copies with
// cp.async, like step 05's, takes pointers and ints. At 1024 x 1024 x 256 (K
// and N multiples of 8, A and B 16-byte aligned: the tensor maps' rule holds,
// so the launcher takes its TMA path) the one kernel launched must take at
// least two parameters of sizeof(CUtensorMap) bytes, one for A and one for B.
// The parameters' sizes come from cudaFuncGetParamInfo, asked index by index
// until it answers that there is no such parameter; that answer is an error
// of a CUDA call, which compute-sanitizer reports, so the check is left out
// under a sanitizer (`skipped` says so). And the maps must be used: the
// kernel's machine code (cuobjdump -sass of `library`, the static library
// built from the graded kernel.cu) holds a UTMALDG, the instruction
// cp.async.bulk.tensor compiles to; a kernel that only takes two maps and
// copies some other way fails (tests/hgemm/plant_maps_unused.cu).
inline StructureCheck check_tensor_maps(Launcher launch, const std::string& library, bool* skipped = nullptr,
                                        const std::string& cuobjdump = COURSE_CUOBJDUMP) {
    if (skipped != nullptr) *skipped = false;
    const Shape shape{1024, 1024, 256};
    const course::LaunchRecord record = launches_at(launch, shape);
    if (record.kernels.size() != 1)
        return {false, "the launcher enqueues " + std::to_string(record.kernels.size()) + " kernels, not one"};
#if CUDART_VERSION >= 12080
    if (course::testing::under_sanitizer()) {
        if (skipped != nullptr) *skipped = true;
        return {true, "not checked under compute-sanitizer (the parameters are counted by a call that fails past "
                      "the last one)"};
    }
    std::size_t parameters = 0, maps = 0, offset = 0, size = 0;
    while (cudaFuncGetParamInfo(record.kernels[0].function, parameters, &offset, &size) == cudaSuccess) {
        ++parameters;
        if (size == sizeof(CUtensorMap)) ++maps;
    }
    (void)cudaGetLastError();  // the answer past the last parameter, not an error of the test
    const std::string taken = "at " + shape.describe() + " the kernel takes " + std::to_string(parameters) +
                              " parameters, " + std::to_string(maps) + " of them of " +
                              std::to_string(sizeof(CUtensorMap)) + " bytes (a CUtensorMap)";
    if (maps < 2) return {false, taken + ": the TMA reads A and B through a tensor map each"};
    // The launch recorded above: its machine code.
    SassCounts counts;
    std::string name;
    StructureCheck failure;
    if (!sass_of_kernel(record.kernels[0], shape, library, cuobjdump, counts, name, failure)) return failure;
    return {counts.utmaldg > 0, taken + ", and its machine code (" + name + ", from " + library + ") holds " +
                                    std::to_string(counts.utmaldg) +
                                    " UTMALDG (cp.async.bulk.tensor) instructions: the TMA reads A and B through "
                                    "a tensor map each, and the kernel issues its copies"};
#else
    return {false, "this CUDA runtime (" + std::to_string(CUDART_VERSION) +
                       ") has no cudaFuncGetParamInfo (12.8 has it): the kernel's parameters cannot be read"};
#endif
}

// Step 07: the math is the warpgroup MMA's. wgmma.mma_async leaves no trace
// a launch can show (step 06's kernel has the same 256 threads, the same
// tensor maps and the same shared memory), but it compiles to its own
// machine instruction, HGMMA, where mma.sync compiles to HMMA. So the check
// reads the machine code (SASS) of the kernel that the launcher enqueues at
// 1024 x 1024 x 256 (the TMA path), as cuobjdump prints it from `library`,
// the static library built from the graded kernel.cu: that kernel's code
// must hold at least one HGMMA. The kernel's name comes from cudaFuncGetName
// (the mangled name, as cuobjdump prints it). Without cuobjdump (it ships in
// the CUDA toolkit, beside nvcc) the check cannot look, and fails saying so.
inline StructureCheck check_wgmma_instructions(Launcher launch, const std::string& library,
                                               const std::string& cuobjdump = COURSE_CUOBJDUMP) {
    const Shape shape{1024, 1024, 256};
    SassCounts counts;
    course::KernelLaunch kernel;
    std::string name;
    StructureCheck failure;
    if (!sass_of_launch(launch, shape, library, cuobjdump, counts, kernel, name, failure)) return failure;
    return {counts.hgmma > 0, "at " + shape.describe() + " the kernel launched, " + name + ", has " +
                                  std::to_string(counts.hgmma) + " HGMMA (wgmma.mma_async) and " +
                                  std::to_string(counts.hmma) +
                                  " HMMA (mma.sync) instructions in its machine code, from " + library +
                                  ": the warpgroup MMA must do the math"};
}

// Step 08: warp specialisation. The warpgroups take roles: one (or more)
// copies, the others multiply, and the copying warpgroup gives registers to
// the multiplying ones with setmaxnreg, which compiles to USETMAXREG. So at
// 1024 x 1024 x 256 (the TMA path) the one kernel launched must have blocks
// of whole warpgroups, at least 3 (a producer and two consumers), and its
// machine code both HGMMA (the consumers' wgmma) and USETMAXREG. Step 07's
// kernel has two warpgroups that all copy and multiply, and no USETMAXREG.
inline StructureCheck check_warp_specialised(Launcher launch, const std::string& library,
                                             const std::string& cuobjdump = COURSE_CUOBJDUMP) {
    const Shape shape{1024, 1024, 256};
    SassCounts counts;
    course::KernelLaunch kernel;
    std::string name;
    StructureCheck failure;
    if (!sass_of_launch(launch, shape, library, cuobjdump, counts, kernel, name, failure)) return failure;
    const std::size_t threads = kernel.threads_per_block();
    const bool ok = threads % 128 == 0 && threads / 128 >= 3 && counts.hgmma > 0 && counts.setmaxnreg > 0;
    return {ok, "at " + shape.describe() + " the kernel launched, " + name + ", has blocks of " +
                    std::to_string(threads) + " threads (" + std::to_string(threads / 128) + " warpgroups and " +
                    std::to_string(threads % 128) + " threads over), " + std::to_string(counts.hgmma) +
                    " HGMMA (wgmma.mma_async) and " + std::to_string(counts.setmaxnreg) +
                    " USETMAXREG (setmaxnreg) instructions in its machine code, from " + library +
                    ": a producer warpgroup and at least two consumer warpgroups, the consumers doing the math "
                    "with wgmma and taking the producer's registers with setmaxnreg"};
}

// Step 09: every shape on the TMA path. The kernel the launcher runs where
// the tensor maps' rule holds (1024 x 1024 x 256: K and N multiples of 8, A
// and B 16-byte aligned) must be launched too where it does not: at
// 1000 x 1000 x 1001 (rows of A of 1001 halves, 2002 bytes) and at
// 1000 x 1001 x 1000 (rows of B of 1001 halves), after whatever copies the
// launcher enqueues first. Step 08's launcher runs step 05's kernel there,
// another kernel. Only launches are recorded (a graph capture): nothing runs
// and no clock is read.
inline StructureCheck check_any_shape_on_tma(Launcher launch) {
    const Shape aligned{1024, 1024, 256};
    const course::LaunchRecord fast = launches_at(launch, aligned);
    if (fast.kernels.empty()) return {false, "the launcher enqueues no kernel at " + aligned.describe()};
    const void* const main_kernel = fast.kernels.back().function;
    StructureCheck check{true, ""};
    for (const Shape& shape : {Shape{1000, 1000, 1001}, Shape{1000, 1001, 1000}}) {
        const course::LaunchRecord record = launches_at(launch, shape);
        bool found = false;
        for (const course::KernelLaunch& kernel : record.kernels) found = found || kernel.function == main_kernel;
        if (!check.what.empty()) check.what += "; ";
        check.what += "at " + shape.describe() + ": " + std::to_string(record.kernels.size()) + " kernels, " +
                      (found ? "the TMA path's kernel among them" : "none of them the TMA path's kernel");
        check.ok = check.ok && found;
    }
    check.what += " (the TMA path's kernel is the last one launched at " + aligned.describe() +
                  "; where a row of A or B is not a multiple of 16 bytes it must run too, on padded copies)";
    return check;
}

}  // namespace hgemm::testing
