// Grading test of separable step 08 (the whole job, host to host, in chunks on
// streams). Built twice: against lessons/separable/08_overlapped_transfers/kernel.cu
// (suite "grade") and against the reference solution (suite "solutions").
#include "separable/helpers.h"

using namespace separable::testing;

COURSE_SOLUTION_LAUNCHER(separable, step08_overlapped_transfers)

TEST_CASE("step 08 brings back every grading shape, filtered, in any number of chunks and streams") {
    check_every_shape(separable::step08_overlapped_transfers);
}

// The order of the job's work, by its dependencies rather than by how the
// streams happened to run (tests/separable/helpers.h): small images, halos
// that span several chunks (63 taps on chunks of 3 to 5 rows), 1 to 5
// streams.
TEST_CASE("step 08 orders its job by dependencies: every order its graph allows gives the same, right image") {
    struct Case {
        int width, height, taps, chunks, streams;
    };
    for (const Case c : {Case{37, 24, 7, 4, 2}, Case{130, 40, 31, 8, 3}, Case{64, 30, 63, 7, 3}, Case{33, 16, 3, 5, 5},
                         Case{40, 9, 7, 3, 1}}) {
        CAPTURE(c.width);
        CAPTURE(c.height);
        CAPTURE(c.taps);
        CAPTURE(c.chunks);
        CAPTURE(c.streams);
        const OrderCheck check = check_transfer_order(separable::step08_overlapped_transfers, c.width, c.height, c.taps,
                                                      c.chunks, c.streams);
        CHECK_MESSAGE(check.ok, check.what);
    }
}

TEST_CASE("step 08 is right with its first stream held back: no dependency is left to luck") {
    for (const int streams : {2, 3, 4}) {
        CAPTURE(streams);
        const course::CheckResult result =
            check_first_stream_delayed(separable::step08_overlapped_transfers, 257, 64, 31, 8, streams);
        CHECK_MESSAGE(result.ok, result.summary());
    }
}

TEST_CASE("step 08 records each chunk's four events, in the order of its stages") {
    for (const int streams : {1, 3}) {
        CAPTURE(streams);
        const auto times = transfer_times(separable::step08_overlapped_transfers, 512, 8, streams);
        for (std::size_t c = 0; c < times.size(); ++c) {
            CAPTURE(c);
            CHECK(times[c].start <= times[c].uploaded);
            CHECK(times[c].uploaded <= times[c].filtered);
            CHECK(times[c].filtered <= times[c].downloaded);
        }
    }
}

TEST_CASE("step 08 overlaps its chunks: chunk c+1 starts before chunk c is back, given 3 streams") {
    // Done in turn, each chunk would start after the one before came back.
    // On streams of their own, the next chunk's upload is under way (or
    // done) while this one is filtered or downloaded: true on any GPU, as it
    // is the order the work was enqueued in, not a speed.
    const auto times = transfer_times(separable::step08_overlapped_transfers, 2048, 8, 3);
    int overlapped = 0;
    for (std::size_t c = 0; c + 1 < times.size(); ++c)
        if (times[c + 1].start < times[c].downloaded) ++overlapped;
    CHECK_MESSAGE(overlapped == static_cast<int>(times.size()) - 1,
                  "chunks that started before the one before them came back: "
                      << overlapped << " of " << times.size() - 1
                      << "; put chunk c on stream c % stream_count, and record its events on that stream");
}

TEST_CASE("step 08 runs the whole job at least 0.85x as fast as the reference solution of step 08") {
    if (!course::testing::timing_is_meaningful()) return;
    // The course's speed rule (tests/speed_rule.h); what the untouched starter
    // measures in it is in lessons/separable/README.md's starters table.
    check_transfer_speed(separable::solution::step08_overlapped_transfers, separable::step08_overlapped_transfers,
                         separable::step07_fused_passes,
                         "the chunks: each on stream c % stream_count, its upload, kernel and download there, and "
                         "a wait for the earlier uploads that hold its upper halo; the timeline under the ladder "
                         "shows whether the upload, filter and download lines overlap");
}
