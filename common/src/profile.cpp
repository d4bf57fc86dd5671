#include "course/profile.h"

#include "course/check.h"
#include "course/sweep.h"

#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

extern char** environ;

namespace course {

namespace {

const char* const kNoNcu =
    "--profile: Nsight Compute's ncu is not on the PATH (it comes with the CUDA toolkit, in <cuda>/bin, or as the "
    "nsight-compute package)";
const char* const kNoPermission = "--profile: ncu may not read this GPU's performance counters (ERR_NVGPUCTRPERM); see "
                                  "https://developer.nvidia.com/ERR_NVGPUCTRPERM";

// The metrics in the order of KernelProfile's numbers.
const char* const kTime = "gpu__time_duration.sum";
const char* const kDram = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
const char* const kSm = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
const char* const kMemory = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
const char* const kL2 = "lts__throughput.avg.pct_of_peak_sustained_elapsed";
const char* const kL1 = "l1tex__throughput.avg.pct_of_peak_sustained_active";
const char* const kOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
    }
    return lines;
}

// One CSV record: fields separated by commas, optionally in double quotes
// (inside which a comma is text and "" is a quote).
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

// "1,234.5" -> 1234.5; "n/a" and anything else that is not a number -> 0.
double number(std::string text) {
    text.erase(std::remove(text.begin(), text.end(), ','), text.end());
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    return end != text.c_str() && *end == '\0' ? value : 0.0;
}

// Milliseconds per unit of ncu's time column ("nsecond" under --print-units base).
double ms_per(const std::string& unit) {
    if (unit.rfind("us", 0) == 0) return 1e-3;  // "usecond"
    if (unit.rfind("ms", 0) == 0) return 1.0;   // "msecond"
    if (unit == "s" || unit == "second") return 1e3;
    return 1e-6;
}

bool is_marker(const KernelProfile& kernel) { return kernel.name.find(kProfileMarkerKernel) != std::string::npos; }

// The grid's x size: "(12, 1, 1)" -> 12; 0 if unreadable.
long grid_x(const std::string& grid) {
    std::size_t i = 0;
    while (i < grid.size() && (grid[i] == '(' || grid[i] == ' ')) ++i;
    char* end = nullptr;
    const long x = std::strtol(grid.c_str() + i, &end, 10);
    return end != grid.c_str() + i ? x : 0;
}

std::string first_line_starting(const std::string& text, const std::string& prefix) {
    for (const auto& line : lines_of(text))
        if (line.rfind(prefix, 0) == 0) return line;
    return "";
}

std::string trim(const std::string& s) {
    const auto begin = s.find_first_not_of(" \t");
    if (begin == std::string::npos) return "";
    return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string percent_cell(double value) { return format_fixed(value, 1); }

// The two files of one profile run, in a directory of their own (ncu is given
// a path that does not exist yet rather than one it might refuse to overwrite).
// Removed unless kept for a failure's message.
struct ScratchDir {
    ScratchDir() {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/course-profile-XXXXXX";
        if (mkdtemp(pattern.data()) == nullptr)
            throw Error("--profile: cannot create a folder for ncu's log in " + pattern.substr(0, pattern.rfind('/')) +
                        ": " + std::strerror(errno));
        path = pattern;
    }
    ~ScratchDir() {
        if (keep) return;
        std::remove(log().c_str());
        std::remove(output().c_str());
        rmdir(path.c_str());
    }
    std::string log() const { return path + "/ncu.csv"; }
    std::string output() const { return path + "/program.txt"; }
    std::string path;
    bool keep = false;
};

// Runs `argv` with `envp`, its stdout and stderr into `output_file`, and
// returns its exit status (128 + the signal if it was killed). posix_spawn
// rather than fork: the parent is a multi-threaded CUDA process, where only
// async-signal-safe calls may follow a fork, and no shell is involved, so no
// argument needs quoting.
int spawn_and_wait(const std::vector<std::string>& argv, const std::vector<std::string>& envp,
                   const std::string& output_file) {
    std::vector<char*> args, env;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (const auto& e : envp) env.push_back(const_cast<char*>(e.c_str()));
    env.push_back(nullptr);

    const int fd = open(output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw Error("--profile: cannot create " + output_file + ": " + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fd, 1);
    posix_spawn_file_actions_adddup2(&actions, fd, 2);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    close(fd);
    if (spawned != 0) throw Error("--profile: cannot run " + argv[0] + ": " + std::strerror(spawned));

    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw Error(std::string("--profile: waiting for ncu failed: ") + std::strerror(errno));
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

}  // namespace

bool in_profile_pass() {
    const char* value = std::getenv(kProfilePassVariable);
    return value != nullptr && std::string(value) == "1";
}

const std::vector<std::string>& profile_metrics() {
    static const std::vector<std::string> metrics = {kTime, kDram, kSm, kMemory, kL2, kL1, kOccupancy};
    return metrics;
}

std::string find_on_path(const std::string& name, const char* path) {
    if (path == nullptr) return "";
    const std::string dirs = path;
    std::size_t start = 0;
    while (start <= dirs.size()) {
        auto end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        // An empty entry (the current directory, to a shell) is skipped: an
        // ncu that happens to lie where the program is started is not meant.
        const std::string candidate = dirs.substr(start, end - start) + "/" + name;
        struct stat info {};
        if (end > start && stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
            access(candidate.c_str(), X_OK) == 0)
            return candidate;
        start = end + 1;
    }
    return "";
}

void require_ncu() {
    if (find_on_path("ncu", std::getenv("PATH")).empty()) throw Error(kNoNcu);
}

std::vector<std::string> ncu_command(const std::string& ncu, const std::string& log_file, const std::string& program,
                                     const std::vector<std::string>& args) {
    std::string metrics;
    for (const auto& metric : profile_metrics()) metrics += (metrics.empty() ? "" : ",") + metric;
    // clang-format off
    std::vector<std::string> command = {ncu,
                                        "--csv", "--page", "raw", "--print-units", "base",
                                        "--profile-from-start", "off",
                                        "--metrics", metrics,
                                        "--log-file", log_file,
                                        program};
    // clang-format on
    for (const auto& arg : args)
        if (arg != "--profile") command.push_back(arg);
    return command;
}

RungProfiles run_profile_pass(const std::vector<std::string>& args) {
    const std::string ncu = find_on_path("ncu", std::getenv("PATH"));
    if (ncu.empty()) throw Error(kNoNcu);
    // This program's own file: "/proc/self/exe" itself would name ncu once ncu reads it.
    char exe[PATH_MAX];
    const ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (length <= 0) throw Error(std::string("--profile: cannot find this program's file: ") + std::strerror(errno));
    exe[length] = '\0';

    std::vector<std::string> env;
    const std::string variable = std::string(kProfilePassVariable) + "=";
    for (char** e = environ; e != nullptr && *e != nullptr; ++e)
        if (std::string(*e).rfind(variable, 0) != 0) env.push_back(*e);
    env.push_back(variable + "1");

    ScratchDir dir;
    std::cerr << "--profile: running the ladder once more under " << ncu << " ..." << std::endl;
    const int status = spawn_and_wait(ncu_command(ncu, dir.log(), exe, args), env, dir.output());
    const std::string log = read_file(dir.log()), output = read_file(dir.output());
    const std::string where = " (ncu's log: " + dir.log() + "; the program's output: " + dir.output() + ")";
    std::vector<KernelProfile> kernels;
    try {
        kernels = parse_ncu_csv(log);
    } catch (const Error& error) {
        dir.keep = true;
        throw Error(error.what() + where);
    }
    if (auto failure = profile_failure(log, output, status, kernels.size())) {
        dir.keep = true;
        throw Error(*failure + where);
    }
    return split_by_markers(kernels);
}

std::vector<KernelProfile> parse_ncu_csv(const std::string& log) {
    std::vector<KernelProfile> kernels;
    std::vector<std::string> header;
    std::map<std::string, std::size_t> column;
    double time_scale = ms_per("nsecond");
    auto field = [&](const std::vector<std::string>& row, const std::string& name) -> std::string {
        const auto it = column.find(name);
        return it != column.end() && it->second < row.size() ? row[it->second] : std::string();
    };
    for (const auto& line : lines_of(log)) {
        // ncu's own messages (==PROF==, ==WARNING==, ==ERROR==) and blank lines.
        if (line.empty() || line.rfind("==", 0) == 0) continue;
        const std::vector<std::string> row = csv_fields(line);
        if (row.front() == "ID") {
            header = row;
            column.clear();
            for (std::size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
            const char* name_column = column.count("Kernel Name") ? "Kernel Name" : "Function Name";
            for (const std::string& needed : {std::string(name_column), std::string("Grid Size")})
                if (!column.count(needed)) throw Error("--profile: ncu's CSV has no \"" + needed + "\" column");
            for (const auto& metric : profile_metrics())
                if (!column.count(metric))
                    throw Error("--profile: ncu's CSV has no column " + metric + " (this ncu may not know the metric)");
            if (!column.count("Kernel Name")) column["Kernel Name"] = column["Function Name"];
            time_scale = ms_per("nsecond");
            continue;
        }
        if (header.empty()) continue;  // text before the CSV
        // The units line: no ID, the metrics' units.
        if (trim(row.front()).empty()) {
            time_scale = ms_per(trim(field(row, kTime)));
            continue;
        }
        KernelProfile kernel;
        kernel.name = field(row, "Kernel Name");
        kernel.grid = field(row, "Grid Size");
        kernel.ms = number(field(row, kTime)) * time_scale;
        kernel.dram = number(field(row, kDram));
        kernel.sm = number(field(row, kSm));
        kernel.memory = number(field(row, kMemory));
        kernel.l2 = number(field(row, kL2));
        kernel.l1 = number(field(row, kL1));
        kernel.occupancy = number(field(row, kOccupancy));
        kernels.push_back(kernel);
    }
    return kernels;
}

RungProfiles split_by_markers(const std::vector<KernelProfile>& kernels) {
    RungProfiles rungs;
    int current = -1;
    for (const auto& kernel : kernels) {
        if (is_marker(kernel)) {
            const long blocks = grid_x(kernel.grid);
            current = blocks >= 1 ? static_cast<int>(blocks - 1) : -1;
            if (current >= 0) rungs[current];  // a rung whose launch ran no kernel still has its entry
        } else if (current >= 0) {
            rungs[current].push_back(kernel);
        }
    }
    return rungs;
}

std::optional<std::string> profile_failure(const std::string& log, const std::string& output, int exit_status,
                                           std::size_t kernels) {
    if (log.find("ERR_NVGPUCTRPERM") != std::string::npos || output.find("ERR_NVGPUCTRPERM") != std::string::npos)
        return kNoPermission;
    if (exit_status == 0 && kernels > 0) return std::nullopt;
    std::string error = first_line_starting(log, "==ERROR==");
    if (error.empty()) error = first_line_starting(output, "==ERROR==");
    if (!error.empty()) return "--profile: ncu failed: " + trim(error.substr(9));
    if (exit_status != 0) {
        std::string last;
        for (const auto& line : lines_of(output))
            if (!trim(line).empty()) last = trim(line);
        return "--profile: the run under ncu failed (exit status " + std::to_string(exit_status) + ")" +
               (last.empty() ? "" : ": " + last);
    }
    return "--profile: ncu profiled no kernel";
}

Limiter classify(double memory_percent, double sm_percent) {
    const bool memory = memory_percent >= kLimiterLine, compute = sm_percent >= kLimiterLine;
    if (memory && compute) return Limiter::compute_and_bandwidth;
    if (compute) return Limiter::compute;
    if (memory) return Limiter::bandwidth;
    return Limiter::latency;
}

std::string limiter_name(Limiter limiter) {
    switch (limiter) {
    case Limiter::compute: return "compute";
    case Limiter::bandwidth: return "bandwidth";
    case Limiter::compute_and_bandwidth: return "compute+bw";
    case Limiter::latency: break;
    }
    return "latency";
}

KernelProfile combine(const std::vector<KernelProfile>& kernels) {
    KernelProfile all;
    if (kernels.empty()) return all;
    all.name = kernels.size() == 1 ? kernels.front().name : std::to_string(kernels.size()) + " kernels";
    all.grid = kernels.size() == 1 ? kernels.front().grid : "";
    double total = 0;
    for (const auto& k : kernels) total += k.ms;
    for (const auto& k : kernels) {
        const double w = total > 0 ? k.ms / total : 1.0 / static_cast<double>(kernels.size());
        all.dram += w * k.dram;
        all.sm += w * k.sm;
        all.memory += w * k.memory;
        all.l2 += w * k.l2;
        all.l1 += w * k.l1;
        all.occupancy += w * k.occupancy;
    }
    all.ms = total;
    return all;
}

std::string short_kernel_name(const std::string& name) {
    std::string s = name;
    // An anonymous namespace, as ncu prints it (and as c++filt does), would
    // end the name at its '<' or '('.
    for (const std::string anonymous : {"<unnamed>::", "(anonymous namespace)::"})
        for (auto at = s.find(anonymous); at != std::string::npos; at = s.find(anonymous))
            s.erase(at, anonymous.size());
    s = trim(s.substr(0, s.find_first_of("(<")));
    if (const auto space = s.rfind(' '); space != std::string::npos) s = s.substr(space + 1);  // "void "
    if (const auto scope = s.rfind("::"); scope != std::string::npos) s = s.substr(scope + 2);
    return s.empty() ? name : s;
}

void add_profile(Report& report, const RungProfiles& profiles) {
    for (Ladder& ladder : report.ladders) {
        const bool measured =
            std::any_of(ladder.rungs.begin(), ladder.rungs.end(), [](const Rung& rung) { return rung.run_index >= 0; });
        if (!measured) continue;
        const std::size_t before = ladder.extra_columns.size();
        for (const char* column : {"DRAM %", "SM %", "occupancy", "limiter"}) ladder.extra_columns.push_back(column);
        std::vector<std::string> hotspots;
        for (Rung& rung : ladder.rungs) {
            rung.extra_values.resize(before);
            const auto found = profiles.find(rung.run_index);
            if (rung.run_index < 0 || found == profiles.end() || found->second.empty()) {
                rung.extra_values.insert(rung.extra_values.end(), {"-", "-", "-", "-"});
                continue;
            }
            const KernelProfile all = combine(found->second);
            rung.extra_values.insert(rung.extra_values.end(),
                                     {percent_cell(all.dram), percent_cell(all.sm), format_percent(all.occupancy / 100),
                                      limiter_name(classify(all.memory, all.sm))});
            if (found->second.size() < 2) continue;
            std::string line = rung.label + ": " + std::to_string(found->second.size()) + " kernels:";
            for (const auto& k : found->second)
                line += std::string(&k == &found->second.front() ? " " : "; ") + short_kernel_name(k.name) + " " +
                        k.grid + " " + format_milliseconds(k.ms) + " ms, DRAM " + format_percent(k.dram / 100) +
                        ", SM " + format_percent(k.sm / 100) + ", occupancy " + format_percent(k.occupancy / 100) +
                        ", " + limiter_name(classify(k.memory, k.sm));
            hotspots.push_back(line);
        }
        ladder.notes.push_back(
            "DRAM %, SM %, occupancy, limiter: profiled by Nsight Compute (--profile), one run per row; ncu locks the "
            "clocks at base and flushes the caches by default, so its times differ from the ladder's. Throughputs "
            "are % of peak, occupancy the achieved share of the SM's warp slots, averaged over a row's kernels "
            "weighted by their time. limiter: the four cases of C. Angerer and J. Demouth, \"CUDA Optimization with "
            "NVIDIA Nsight Visual Studio Edition\" (NVIDIA GTC 2015), from the memory throughput (the busiest of "
            "DRAM, L2 and L1/shared) and the SM throughput against 60% of peak: compute, bandwidth, compute+bw "
            "(both), latency (neither); \"-\": no kernel ncu sees (a cudaMemcpy)");
        for (auto& line : hotspots) ladder.notes.push_back(std::move(line));
    }
    // A sweep gets its achieved occupancy per point: the series
    // kAchievedOccupancy (added if the sweep has none), as a fraction.
    for (Sweep& sweep : report.sweeps) {
        const bool measured = std::any_of(sweep.points.begin(), sweep.points.end(),
                                          [](const SweepPoint& point) { return point.run_index >= 0; });
        if (!measured) continue;
        int column = sweep.series_index(kAchievedOccupancy);
        if (column < 0) {
            sweep.series.push_back({kAchievedOccupancy, SeriesKind::fraction});
            column = static_cast<int>(sweep.series.size()) - 1;
        }
        for (SweepPoint& point : sweep.points) {
            point.values.resize(sweep.series.size());
            const auto found = profiles.find(point.run_index);
            if (point.run_index < 0 || found == profiles.end() || found->second.empty()) continue;
            point.values[static_cast<std::size_t>(column)] = combine(found->second).occupancy / 100.0;
        }
        sweep.notes.push_back(
            "achieved occupancy: profiled by Nsight Compute (--profile), one run per point: the share of the SM's "
            "warp slots in use while the kernel ran (sm__warps_active.avg.pct_of_peak_sustained_active), averaged "
            "over the run; \"-\" where ncu saw no kernel");
    }
}

}  // namespace course
