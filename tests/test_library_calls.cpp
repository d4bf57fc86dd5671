// tests/library_calls.h: the reading of nm's listing and the rules on made-up
// symbols, then nm on the course's own libraries (tests/meson.build names
// them): every starter calls nothing its step's solution does not, and each
// own-kernels plant calls the reference solution or cuBLAS (through the
// track's library rung), where the check must find it (the one that asks
// whether it is captured, that too). Without nm the second part fails, saying so.
#include "doctest_include.h"

#include "library_calls.h"
#include "sanitizer_run.h"

#include <sstream>
#include <utility>

namespace {

using course::testing::environment;
using course::testing::forbidden_call;
using course::testing::forbidden_calls;
using course::testing::ForbiddenCall;
using course::testing::undefined_symbols;

// "library=solution:library=solution" as tests/meson.build writes it.
std::vector<std::pair<std::string, std::string>> pairs_of(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> pairs;
    std::istringstream items(text);
    for (std::string item; std::getline(items, item, ':');) {
        const std::size_t equals = item.find('=');
        if (equals != std::string::npos) pairs.emplace_back(item.substr(0, equals), item.substr(equals + 1));
    }
    return pairs;
}

std::vector<ForbiddenCall> calls_of(const std::string& library, const std::string& solution) {
    const std::string nm = environment("COURSE_NM");
    std::set<std::string> graded, allowed;
    std::string failure;
    const bool read = course::testing::library_undefined_symbols(nm, library, graded, failure) &&
                      course::testing::library_undefined_symbols(nm, solution, allowed, failure);
    REQUIRE_MESSAGE(read, failure);
    return forbidden_calls(graded, allowed);
}

}  // namespace

TEST_CASE("nm's listing: the undefined symbols of every object, each once") {
    const std::string listing = "/build/libx.a[/build/x.o]:\n"
                                "_Z3fooi U\n"
                                "cublasSgemm_v2 U         \n"
                                "_ZN6course16throw_cuda_errorE9cudaErrorPKcS2_i U\n"
                                "weak_one w\n"
                                "\n"
                                "/build/libx.a[/build/y.o]:\n"
                                "cublasSgemm_v2 U\n";
    const std::set<std::string> symbols = undefined_symbols(listing);
    CHECK(symbols == std::set<std::string>{"_Z3fooi", "cublasSgemm_v2",
                                           "_ZN6course16throw_cuda_errorE9cudaErrorPKcS2_i", "weak_one"});
}

TEST_CASE("the calls a lesson's launcher may not make") {
    CHECK(forbidden_call("cublasSgemm_v2") == "cuBLAS's API");
    CHECK(forbidden_call("cublasLtMatmul") == "cuBLAS's API");
    CHECK(forbidden_call("nppiFilterGaussBorder_8u_C1R_Ctx") == "NPP's API");
    CHECK(forbidden_call("cuModuleLoadData") == "the driver's modules: code loaded at run time");
    CHECK(forbidden_call("cuLaunchKernel") == "the driver's launches");
    CHECK(forbidden_call("dlsym") == "functions looked up by name at run time");
    CHECK(forbidden_call("cudaGetDriverEntryPointByVersion") == "the driver's functions, looked up by name");
    // reduction::solution::step03_sequential(int const*, unsigned long, long long*, long long*, CUstream_st*)
    CHECK(forbidden_call("_ZN9reduction8solution17step03_sequentialEPKimPxS3_P11CUstream_st") ==
          "the reference solution, which the grading test links to race it");
    // matmul::cublas_sgemm(float const*, float const*, float*, int, int, int, CUstream_st*)
    CHECK(forbidden_call("_ZN6matmul12cublas_sgemmEPKfS1_PfiiiP11CUstream_st") == "the track's library rung");
    CHECK(forbidden_call("cudaStreamIsCapturing") == "the question whether its stream is being captured");
    CHECK(forbidden_call("cudaStreamGetCaptureInfo_v3") == "the question whether its stream is being captured");
    CHECK(forbidden_call("dl_iterate_phdr") == "the loaded libraries' symbol tables, walked at run time");
    // course::testing::register_graded_libraries(char const*, char const*, char const*, char const*)
    CHECK(forbidden_call("_ZN6course7testing25register_graded_librariesEPKcS2_S2_S2_") ==
          "the grading program's own functions");
    // What every launcher calls: the runtime's launches, the harness, the C++ library.
    for (const char* allowed :
         {"cudaGetLastError", "cudaFuncSetAttribute", "__cudaLaunchKernel",
          "_ZN6course16throw_cuda_errorE9cudaErrorPKcS2_i", "cudaMemcpyToSymbolAsync", "memcpy", "__cxa_guard_acquire",
          // matmul::kernels::step09_async_copies(...): an earlier step's solution
          "_ZN6matmul7kernels19step09_async_copiesEPKfS2_PfiiiP11CUstream_st"})
        CHECK_MESSAGE(forbidden_call(allowed).empty(), std::string(allowed));
}

TEST_CASE("a call of a kind the step's solution makes is allowed") {
    const std::set<std::string> graded{"cudaGetDriverEntryPointByVersion", "cublasSgemm_v2", "memcpy",
                                       "cudaStreamGetCaptureInfo_v3"};
    const std::vector<ForbiddenCall> calls =
        forbidden_calls(graded, {"cudaGetDriverEntryPoint", "memcpy", "cudaStreamIsCapturing"});
    REQUIRE(calls.size() == 1);
    CHECK(calls[0].name == "cublasSgemm_v2");
    CHECK(calls[0].what == "cuBLAS's API");
    CHECK(forbidden_calls(graded, graded).empty());
    CHECK(forbidden_calls(graded, {}).size() == 3);
}

TEST_CASE("every starter calls only what its step's solution calls") {
    const auto pairs = pairs_of(environment("COURSE_STARTER_PAIRS"));
    REQUIRE_MESSAGE(!pairs.empty(), "COURSE_STARTER_PAIRS is not set (tests/meson.build sets it)");
    for (const auto& [starter, solution] : pairs) {
        CAPTURE(starter);
        const std::vector<ForbiddenCall> calls = calls_of(starter, solution);
        for (const ForbiddenCall& call : calls) FAIL_CHECK(call.name << ": " << call.what);
    }
}

TEST_CASE("each own-kernels plant calls the reference solution or a library rung, and the check finds it") {
    const auto pairs = pairs_of(environment("COURSE_PLANT_PAIRS"));
    REQUIRE_MESSAGE(pairs.size() == 4, "COURSE_PLANT_PAIRS names the four plants (tests/meson.build sets it)");
    for (const auto& [plant, solution] : pairs) {
        CAPTURE(plant);
        const std::vector<ForbiddenCall> calls = calls_of(plant, solution);
        CHECK(!calls.empty());
        for (const ForbiddenCall& call : calls)
            CHECK_MESSAGE((call.what == "the reference solution, which the grading test links to race it" ||
                           call.what == "the track's library rung" ||
                           call.what == "the question whether its stream is being captured"),
                          call.name);
    }
}
