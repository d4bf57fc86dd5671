// The grading checks itself (separable 02 and 08): step 08's order checks
// (tests/separable/helpers.h) must fail a launcher that leaves out one
// cross-stream dependency, and pass the same launcher with it; step 02's
// constant-memory checks must fail a launcher that copies the filter into
// constant memory and reads params.weights, and one that copies it into a
// __device__ array and reads that. A change that weakens a check so far that
// its plant passes fails here.
#include "separable/helpers.h"
#include "separable/plants.h"

#include <cstdio>
#include <filesystem>

using namespace separable::testing;

TEST_CASE("the order check passes a correct launcher and fails one whose chunk does not wait for its halo's upload") {
    for (const int streams : {2, 3}) {
        CAPTURE(streams);
        const OrderCheck right = check_transfer_order(plant_transfers_in_order, 64, 30, 7, 6, streams);
        CHECK_MESSAGE(right.ok, right.what);
        const OrderCheck wrong = check_transfer_order(plant_transfers_missing_halo_wait, 64, 30, 7, 6, streams);
        MESSAGE("the plant: ", wrong.what);
        CHECK_FALSE(wrong.ok);
    }
}

TEST_CASE("holding back the first stream passes a correct launcher and fails one missing the halo's wait") {
    for (const int streams : {2, 3}) {
        CAPTURE(streams);
        const course::CheckResult right = check_first_stream_delayed(plant_transfers_in_order, 257, 64, 31, 8, streams);
        CHECK_MESSAGE(right.ok, right.summary());
        const course::CheckResult wrong =
            check_first_stream_delayed(plant_transfers_missing_halo_wait, 257, 64, 31, 8, streams);
        MESSAGE("the plant: ", wrong.summary());
        CHECK_FALSE(wrong.ok);
    }
}

TEST_CASE("step 02's check that the kernels read constant memory passes its solution and fails a copy left unread") {
    const course::CheckResult right = check_kernels_read_their_copy(separable::step02_constant_filter, 129, 67, 7);
    CHECK_MESSAGE(right.ok, right.summary());
    const course::CheckResult wrong = check_kernels_read_their_copy(plant_constant_copied_not_read, 129, 67, 7);
    MESSAGE("the plant: ", wrong.summary());
    CHECK_FALSE(wrong.ok);
}

TEST_CASE("step 02's machine-code check passes its solution and fails a copy read from a __device__ array") {
    // The plants are compiled into this program, the solution linked into it:
    // their machine code is in its own file (its path, not /proc/self/exe,
    // which cuobjdump would read as its own).
    const std::string program = std::filesystem::read_symlink("/proc/self/exe").string();
    std::string why;
    const auto solution =
        kernels_not_reading_constant_memory(separable::step02_constant_filter, program, COURSE_CUOBJDUMP, why);
    REQUIRE_MESSAGE(why.empty(), why);
    CHECK(solution.empty());
    const course::CheckResult copy = check_kernels_read_their_copy(plant_device_copy, 129, 67, 7);
    CHECK_MESSAGE(copy.ok, "the plant reads its own copy: ", copy.summary());
    const auto plant = kernels_not_reading_constant_memory(plant_device_copy, program, COURSE_CUOBJDUMP, why);
    REQUIRE_MESSAGE(why.empty(), why);
    REQUIRE(plant.size() == 1);
    MESSAGE("the plant's kernel without constant reads: ", plant[0]);
    CHECK(plant[0].find("band_filter") != std::string::npos);
}

TEST_CASE("step 08's solution passes both") {
    const OrderCheck order = check_transfer_order(separable::step08_overlapped_transfers, 64, 30, 63, 7, 3);
    CHECK_MESSAGE(order.ok, order.what);
    const course::CheckResult delayed =
        check_first_stream_delayed(separable::step08_overlapped_transfers, 257, 64, 31, 8, 3);
    CHECK_MESSAGE(delayed.ok, delayed.summary());
}

// Not run by default: prints the graph of step 08's job as its reference
// solution enqueues it (a 64 x 48 image, 7 taps, 6 chunks on 3 streams) as a
// Mermaid flowchart, the graph lessons/separable/NOTES.md shows (step 08's
// README links to it):
//   build/tests/separable/separable-transfer-plants --no-skip --test-case="step 08's graph*"
TEST_CASE("step 08's graph, as Mermaid" * doctest::skip()) {
    std::fputs(transfer_graph(separable::step08_overlapped_transfers, 64, 48, 7, 6, 3).c_str(), stdout);
}
