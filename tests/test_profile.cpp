// --profile without a GPU: reading ncu's CSV, splitting it by the markers, the
// talk's four cases, the weighted averages, the columns and notes, ncu's
// failures, the command line and the search of $PATH.
#include "doctest_include.h"

#include "course/check.h"
#include "course/ladder.h"
#include "course/profile.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using course::KernelProfile;
using course::Limiter;

namespace {

// What `ncu --csv --page raw --print-units base --metrics ... --log-file F` writes
// to F (as ncu 2025.3 did on an H100, its ~300 columns cut down to some): ncu's
// messages, the header (ncu adds launch__*, device__* and the .max, .min and
// .sum of each metric asked for), the units, one row per kernel. Rung 0 is one
// kernel, rung 1 launched none that ncu sees (a cudaMemcpy), rung 2 two (CUB).
const char* const kSample =
    R"csv(==PROF== Connected to process 4242 (build/lessons/reduction-05)
==WARNING== Backing up device memory in system memory. Kernel replay might be slow. Consider using "--replay-mode application" to avoid memory save-and-restore.
==PROF== Disconnected from process 4242
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","c2clink__present","dram__throughput.avg.pct_of_peak_sustained_elapsed","dram__throughput.max.pct_of_peak_sustained_elapsed","gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed","gpu__time_duration.avg","gpu__time_duration.sum","l1tex__throughput.avg.pct_of_peak_sustained_active","launch__grid_size","lts__throughput.avg.pct_of_peak_sustained_elapsed","sm__throughput.avg.pct_of_peak_sustained_elapsed","sm__throughput.max.pct_of_peak_sustained_elapsed","sm__warps_active.avg.pct_of_peak_sustained_active"
"","","","","","","","","","","","","%","%","%","ns","ns","%","","%","%","%","%"
"0","4242","reduction-05","127.0.0.1","course_profile_marker()","1","13","(1, 1, 1)","(1, 1, 1)","0","9.0","0","0.02","99.99","0.51","1,184","1,184","0.08","1","0.21","0.01","99.99","1.56"
"1","4242","reduction-05","127.0.0.1","void <unnamed>::reduce_interleaved_divergent<int>(const T1 *, long long *, unsigned long)","1","13","(256, 1, 1)","(16384, 1, 1)","0","9.0","0","71.35","99.99","74.10","31,520.5","31,520.5","40.22","16,384","52.87","44.90","99.99","88.31"
"2","4242","reduction-05","127.0.0.1","course_profile_marker()","1","13","(1, 1, 1)","(2, 1, 1)","0","9.0","0","0.02","99.99","0.51","1,120","1,120","0.08","2","0.21","0.01","99.99","1.56"
"3","4242","reduction-05","127.0.0.1","course_profile_marker()","1","13","(1, 1, 1)","(3, 1, 1)","0","9.0","0","0.02","99.99","0.51","1,152","1,152","0.08","3","0.21","0.01","99.99","1.56"
"4","4242","reduction-05","127.0.0.1","void cub::DeviceReduceKernel<cub::policy_hub<long long, unsigned long long, cuda::plus<void>>::Policy1000, const int *, unsigned long long, cuda::plus<void>, long long, cuda::std::identity>(T2, T4 *, T3, cub::GridEvenShare<T3>, T5, T6)","1","13","(256, 1, 1)","(264, 1, 1)","0","9.0","0","90.00","99.99","92.00","9,000","9,000","30.00","264","60.00","20.00","99.99","95.00"
"5","4242","reduction-05","127.0.0.1","void cub::DeviceReduceSingleTileKernel<cub::policy_hub<long long, unsigned long long, cuda::plus<void>>::Policy1000, long long *, long long *, int, cuda::plus<void>, long long, long long, cuda::std::identity>(T2, T3, T4, T5, T6)","1","13","(256, 1, 1)","(1, 1, 1)","0","9.0","0","0.00","99.99","10.00","1,000","1,000","10.00","1","5.00","2.00","99.99","12.50"
)csv";

KernelProfile kernel(double ms, double memory, double sm, double dram = 0, double occupancy = 0) {
    KernelProfile k;
    k.name = "k(int)";
    k.grid = "(4, 1, 1)";
    k.ms = ms;
    k.memory = memory;
    k.sm = sm;
    k.dram = dram;
    k.occupancy = occupancy;
    return k;
}

course::Rung rung(const std::string& label, int run_index) {
    course::Rung r;
    r.label = label;
    r.title = "kernel " + label;
    r.run_index = run_index;
    return r;
}

std::string error_of(const std::string& log) {
    try {
        course::parse_ncu_csv(log);
    } catch (const course::Error& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("ncu's raw CSV: every kernel row, columns found by name") {
    const auto kernels = course::parse_ncu_csv(kSample);
    REQUIRE(kernels.size() == 6);
    CHECK(kernels[0].name == "course_profile_marker()");
    CHECK(kernels[0].grid == "(1, 1, 1)");
    const KernelProfile& k = kernels[1];
    CHECK(k.name == "void <unnamed>::reduce_interleaved_divergent<int>(const T1 *, long long *, unsigned long)");
    CHECK(k.grid == "(16384, 1, 1)");
    CHECK(k.ms == doctest::Approx(0.0315205));  // "31,520.5" nanoseconds
    CHECK(k.dram == doctest::Approx(71.35));
    CHECK(k.memory == doctest::Approx(74.10));
    CHECK(k.sm == doctest::Approx(44.90));
    CHECK(k.l2 == doctest::Approx(52.87));
    CHECK(k.l1 == doctest::Approx(40.22));
    CHECK(k.occupancy == doctest::Approx(88.31));
    CHECK(kernels[4].ms == doctest::Approx(0.009));
}

TEST_CASE("ncu's raw CSV: another column order, other units, CRLF, n/a") {
    const std::string log =
        "\"ID\",\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"gpu__time_duration.sum\",\"Grid Size\","
        "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"Kernel Name\","
        "\"dram__throughput.avg.pct_of_peak_sustained_elapsed\","
        "\"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed\","
        "\"lts__throughput.avg.pct_of_peak_sustained_elapsed\",\"l1tex__throughput.avg.pct_of_peak_sustained_"
        "active\"\r\n"
        "\"\",\"%\",\"us\",\"\",\"%\",\"\",\"%\",\"%\",\"%\",\"%\"\r\n"
        "\"0\",\"50\",\"1,500\",\"(2, 1, 1)\",\"65\",\"k(float, int)\",\"n/a\",\"30\",\"20\",\"10\"\r\n";
    const auto kernels = course::parse_ncu_csv(log);
    REQUIRE(kernels.size() == 1);
    CHECK(kernels[0].name == "k(float, int)");
    CHECK(kernels[0].grid == "(2, 1, 1)");
    CHECK(kernels[0].ms == doctest::Approx(1.5));  // 1,500 microseconds
    CHECK(kernels[0].sm == doctest::Approx(65));
    CHECK(kernels[0].dram == 0);
    CHECK(kernels[0].occupancy == doctest::Approx(50));
}

TEST_CASE("ncu's raw CSV: no rows, or a metric missing") {
    CHECK(course::parse_ncu_csv("").empty());
    CHECK(course::parse_ncu_csv("==PROF== Connected to process 1\n==ERROR== something\n").empty());
    std::string renamed = kSample;
    const std::string metric = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
    renamed.replace(renamed.find(metric), metric.size(), "sm__throughput.avg.pct_of_peak_sustained_active");
    CHECK(error_of(renamed).find(metric) != std::string::npos);
    CHECK(error_of(kSample).empty());
}

TEST_CASE("kernels split by the markers: rung k follows the marker of k + 1 blocks") {
    std::vector<KernelProfile> kernels = course::parse_ncu_csv(kSample);
    // A kernel before any marker belongs to no rung.
    kernels.insert(kernels.begin(), kernel(1, 1, 1));
    const course::RungProfiles rungs = course::split_by_markers(kernels);
    REQUIRE(rungs.size() == 3);
    REQUIRE(rungs.at(0).size() == 1);
    CHECK(course::short_kernel_name(rungs.at(0)[0].name) == "reduce_interleaved_divergent");
    CHECK(rungs.at(1).empty());  // a cudaMemcpy: no kernel
    REQUIRE(rungs.at(2).size() == 2);
    CHECK(course::short_kernel_name(rungs.at(2)[0].name) == "DeviceReduceKernel");
    CHECK(course::short_kernel_name(rungs.at(2)[1].name) == "DeviceReduceSingleTileKernel");
}

TEST_CASE("the talk's four cases, against the 60% line") {
    CHECK(course::classify(30, 75) == Limiter::compute);
    CHECK(course::classify(85, 20) == Limiter::bandwidth);
    CHECK(course::classify(70, 65) == Limiter::compute_and_bandwidth);
    CHECK(course::classify(40, 30) == Limiter::latency);
    CHECK(course::classify(60, 59.9) == Limiter::bandwidth);
    CHECK(course::classify(59.9, 60) == Limiter::compute);
    CHECK(course::limiter_name(Limiter::compute) == "compute");
    CHECK(course::limiter_name(Limiter::bandwidth) == "bandwidth");
    CHECK(course::limiter_name(Limiter::compute_and_bandwidth) == "compute+bw");
    CHECK(course::limiter_name(Limiter::latency) == "latency");
}

TEST_CASE("several kernels: averages weighted by each kernel's time") {
    const KernelProfile all = course::combine({kernel(3, 80, 20, 80, 90), kernel(1, 40, 60, 0, 50)});
    CHECK(all.ms == doctest::Approx(4));
    CHECK(all.memory == doctest::Approx(70));  // (3 * 80 + 1 * 40) / 4
    CHECK(all.sm == doctest::Approx(30));
    CHECK(all.dram == doctest::Approx(60));
    CHECK(all.occupancy == doctest::Approx(80));
    CHECK(course::combine({kernel(0, 10, 20), kernel(0, 30, 40)}).memory == doctest::Approx(20));
    CHECK(course::combine({}).ms == 0);
}

TEST_CASE("kernel names without their template and argument lists") {
    CHECK(course::short_kernel_name("vector_add(const float *, const float *, float *, int)") == "vector_add");
    CHECK(course::short_kernel_name("void matmul_tiled<32>(const float *, const float *, float *, int)") ==
          "matmul_tiled");
    CHECK(course::short_kernel_name("basics::(anonymous namespace)::add_kernel(int)") == "add_kernel");
    CHECK(course::short_kernel_name("void <unnamed>::reduce_sequential<long long>(const T1 *, long long *, unsigned "
                                    "long)") == "reduce_sequential");
    CHECK(course::short_kernel_name("plain") == "plain");
}

TEST_CASE("the profile columns and notes") {
    course::Ladder ladder;
    ladder.track = "demo";
    ladder.extra_columns = {"G80 ms"};
    ladder.rungs = {rung("01", 0), rung("02", 1), rung("ref", 2), rung("x", -1)};
    ladder.rungs[0].extra_values = {"8.0"};  // the others carry none: padded to the column
    course::Ladder untouched;
    untouched.track = "transfers";
    untouched.rungs = {rung("a", -1)};
    course::Report report;
    report.ladders = {ladder, untouched};

    const course::RungProfiles profiles = {
        {0, {kernel(2, 85, 20, 80.04, 72.46)}},
        {1, {}},
        {2, {kernel(3, 80, 20, 80, 90), kernel(1, 40, 90, 0, 50)}},
    };
    course::add_profile(report, profiles);
    const course::Ladder& got = report.ladders[0];
    CHECK(got.extra_columns == std::vector<std::string>{"G80 ms", "DRAM %", "SM %", "occupancy", "limiter"});
    CHECK(got.rungs[0].extra_values == std::vector<std::string>{"8.0", "80.0", "20.0", "72.5%", "bandwidth"});
    CHECK(got.rungs[1].extra_values == std::vector<std::string>{"", "-", "-", "-", "-"});
    // memory (3 * 80 + 40) / 4 = 70, SM (3 * 20 + 90) / 4 = 37.5
    CHECK(got.rungs[2].extra_values == std::vector<std::string>{"", "60.0", "37.5", "80.0%", "bandwidth"});
    CHECK(got.rungs[3].extra_values == std::vector<std::string>{"", "-", "-", "-", "-"});
    REQUIRE(got.notes.size() == 2);
    CHECK(got.notes[0].find("Angerer") != std::string::npos);
    CHECK(got.notes[0].find("60%") != std::string::npos);
    CHECK(got.notes[1] ==
          "ref: 2 kernels: k (4, 1, 1) 3.000 ms, DRAM 80.0%, SM 20.0%, occupancy 90.0%, bandwidth; k (4, 1, 1) 1.000 "
          "ms, DRAM 0.0%, SM 90.0%, occupancy 50.0%, compute");
    CHECK(report.ladders[1].extra_columns.empty());
    CHECK(report.ladders[1].notes.empty());

    // The table and the JSON carry the columns like any track's own.
    const std::string table = course::format_table(report);
    CHECK(table.find("limiter") != std::string::npos);
    CHECK(table.find("bandwidth") != std::string::npos);
    CHECK(course::format_json(report).find("\"limiter\": \"bandwidth\"") != std::string::npos);
}

TEST_CASE("ncu's failures, each as one line") {
    const std::string permission =
        "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on "
        "the target device 0.\n";
    const auto in_log = course::profile_failure("==PROF== Connected\n" + permission, "", 0, 0);
    REQUIRE(in_log);
    CHECK(*in_log == "--profile: ncu may not read this GPU's performance counters (ERR_NVGPUCTRPERM); see "
                     "https://developer.nvidia.com/ERR_NVGPUCTRPERM");
    CHECK(course::profile_failure("", permission, 0, 5) == in_log);

    const auto error = course::profile_failure("==PROF== Connected\n==ERROR== The application returned an error "
                                               "code (1).\n==ERROR== later\n",
                                               "", 1, 0);
    REQUIRE(error);
    CHECK(*error == "--profile: ncu failed: The application returned an error code (1).");
    const auto crashed = course::profile_failure("", "table\nreduction-03: error: step 02 failed\n\n", 1, 3);
    REQUIRE(crashed);
    CHECK(*crashed == "--profile: the run under ncu failed (exit status 1): reduction-03: error: step 02 failed");
    CHECK(course::profile_failure("==PROF== Disconnected\n", "", 0, 0) == "--profile: ncu profiled no kernel");
    // A warning, or an error about one kernel, when the rest was profiled.
    CHECK_FALSE(course::profile_failure("==WARNING== clocks\n==ERROR== one kernel\n", "", 0, 4));
    for (const auto& failure : {*in_log, *error, *crashed}) CHECK(failure.find('\n') == std::string::npos);
}

TEST_CASE("the ncu command line") {
    const auto command = course::ncu_command("/usr/local/cuda/bin/ncu", "/tmp/p/ncu.csv", "/build/lessons/basics-02",
                                             {"--size", "2^22", "--profile", "--format", "json"});
    const std::vector<std::string> want = {
        "/usr/local/cuda/bin/ncu",
        "--csv",
        "--page",
        "raw",
        "--print-units",
        "base",
        "--profile-from-start",
        "off",
        "--metrics",
        "gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,"
        "sm__throughput.avg.pct_of_peak_sustained_elapsed,"
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,"
        "lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,"
        "sm__warps_active.avg.pct_of_peak_sustained_active",
        "--log-file",
        "/tmp/p/ncu.csv",
        "/build/lessons/basics-02",
        "--size",
        "2^22",
        "--format",
        "json"};
    CHECK(command == want);
}

TEST_CASE("ncu found on a PATH only where it is an executable file") {
    char pattern[] = "/tmp/course-test-path-XXXXXX";
    REQUIRE(mkdtemp(pattern) != nullptr);
    const std::string root = pattern;
    const std::string plain = root + "/plain", bin = root + "/bin", folder = root + "/folder";
    REQUIRE(mkdir(plain.c_str(), 0700) == 0);
    REQUIRE(mkdir(bin.c_str(), 0700) == 0);
    REQUIRE(mkdir(folder.c_str(), 0700) == 0);
    REQUIRE(mkdir((folder + "/ncu").c_str(), 0700) == 0);  // a folder named ncu
    std::ofstream(plain + "/ncu") << "not executable\n";
    std::ofstream(bin + "/ncu") << "#!/bin/sh\n";
    REQUIRE(chmod((bin + "/ncu").c_str(), 0700) == 0);

    const std::string path = folder + ":" + plain + ":" + bin;
    CHECK(course::find_on_path("ncu", path.c_str()) == bin + "/ncu");
    CHECK(course::find_on_path("ncu", (folder + ":" + plain).c_str()).empty());
    CHECK(course::find_on_path("ncu", nullptr).empty());
    CHECK(course::find_on_path("ncu", ("::" + plain + ":").c_str()).empty());

    std::remove((plain + "/ncu").c_str());
    std::remove((bin + "/ncu").c_str());
    for (const auto& dir : {folder + "/ncu", folder, plain, bin, root}) rmdir(dir.c_str());
}
