// The separable track's transfers ladder: the whole job, host memory to host
// memory, as a program runs it (lesson 08).
//
// Every row is timed end to end on the host's clock (std::chrono::steady_clock),
// from the first call to the last stream's synchronize: what a user of the
// program waits for. The serial rows also time each stage on its own (each
// ends in a synchronize), which gives the transfers' GB/s. Pageable memory is
// a std::vector: the driver copies it through a pinned staging buffer of its
// own. Pinned memory comes from cudaMallocHost: the copy engines read and
// write it directly.
//
// Each row is checked as the kernel ladder checks a kernel (course/runner.h):
// input set 1 written into the host input images, the host and device
// outputs poisoned with 0xFF bytes, one run, every pixel compared with set
// 1's CPU reference; set 2 written into the same host images, the outputs
// poisoned with 0xA5, nothing else reset, one run, compared with set 2's;
// the warm-up and timed runs, compared again; set 0 (the problem's own image)
// written, one more run, compared with its reference. The device input is
// never written between runs: the job uploads it, so a chunk left out reads
// the image of the run before.
#include "course/check.h"
#include "course/device.h"
#include "course/image_options.h"
#include "course/options.h"
#include "tracks/separable/track.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace separable {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

// Phase times of one serial run, in ms.
struct Phases {
    double up = 0, filter = 0, down = 0;
};

std::string gbps_of_peak(double bytes, double ms, double peak_gbps) {
    const double gbps = bytes / (ms * 1e6);
    std::string text = course::format_fixed(gbps, 1);
    if (peak_gbps > 0) text += " (" + course::format_fixed(100.0 * gbps / peak_gbps, 0) + "%)";
    return text;
}

double median(std::vector<double> values) {
    return values.empty() ? 0.0 : course::summarize(std::move(values)).median_ms;
}

class TransferBench {
public:
    TransferBench(Problem& problem, const Settings& settings, course::Harness& harness)
        : problem_(problem), harness_(harness), bytes_(problem.pixels() * sizeof(float)), pinned_in_(problem.pixels()),
          pinned_out_(problem.pixels()), pageable_in_(problem.input()), pageable_out_(problem.pixels()),
          chunks_(std::min(settings.chunks, problem.height())), event_store_(static_cast<std::size_t>(4 * chunks_)) {
        std::copy(problem.input().begin(), problem.input().end(), pinned_in_.begin());
        for (int s = 0; s < settings.streams; ++s) streams_.push_back(std::make_unique<course::Stream>());
        for (const auto& stream : streams_) stream_handles_.push_back(stream->get());
        for (int c = 0; c < chunks_; ++c) {
            ChunkEvents events;
            events.start = event_store_[4 * c].get();
            events.uploaded = event_store_[4 * c + 1].get();
            events.filtered = event_store_[4 * c + 2].get();
            events.downloaded = event_store_[4 * c + 3].get();
            chunk_events_.push_back(events);
        }
    }

    double image_bytes() const { return static_cast<double>(bytes_); }
    int chunks() const { return chunks_; }
    int streams() const { return static_cast<int>(streams_.size()); }

    // Upload, filter and download in turn on the harness's stream, each
    // stage timed on its own when `phases` is given.
    course::Rung serial(course::Rung rung, Launcher filter, bool pinned, std::vector<Phases>* phases) {
        const float* host_in = pinned ? pinned_in_.data() : pageable_in_.data();
        float* host_out = pinned ? pinned_out_.data() : pageable_out_.data();
        const cudaStream_t stream = harness_.stream.get();
        return measure(std::move(rung), host_out, [&, host_in, host_out](bool timed) {
            const Clock::time_point t0 = Clock::now();
            CUDA_CHECK(cudaMemcpyAsync(problem_.writable_in(), host_in, bytes_, cudaMemcpyHostToDevice, stream));
            CUDA_CHECK(cudaStreamSynchronize(stream));
            const Clock::time_point t1 = Clock::now();
            filter(problem_.params(), stream);
            CUDA_CHECK(cudaStreamSynchronize(stream));
            const Clock::time_point t2 = Clock::now();
            CUDA_CHECK(cudaMemcpyAsync(host_out, problem_.out(), bytes_, cudaMemcpyDeviceToHost, stream));
            CUDA_CHECK(cudaStreamSynchronize(stream));
            const Clock::time_point t3 = Clock::now();
            if (timed && phases != nullptr)
                phases->push_back({ms_between(t0, t1), ms_between(t1, t2), ms_between(t2, t3)});
        });
    }

    // The step's launcher on the pinned images, then every stream waited for.
    // The chunks' times of its last timed run are kept for timeline().
    course::Rung overlapped(course::Rung rung, TransferLauncher launch) {
        timed_times_.clear();
        timed_times_error_.clear();
        const auto keep_times = [&]() {
            try {
                timed_times_ = chunk_times(chunk_events_.data(), chunks_);
            } catch (const course::Error& error) {
                timed_times_error_ = error.what();
            }
        };
        return measure(
            std::move(rung), pinned_out_.data(), [&](bool) { run(launch); }, nullptr, true, keep_times);
    }

    // One run of the step, its output poisoned first, and its check.
    course::CheckResult check_once(TransferLauncher launch) {
        poison(pinned_out_.data(), course::kFirstPoison);
        run(launch);
        return problem_.check_output(pinned_out_.data());
    }

    const ChunkEvents* events() const { return chunk_events_.data(); }

    // No filter: the pinned image up (into tmp) and the input image down,
    // at once on two streams. The least time any version of the job can take.
    // One input set, the problem's own, on the GPU and in host memory.
    course::Rung link(course::Rung rung) {
        const cudaStream_t up = stream_handles_[0];
        course::Stream extra;
        const cudaStream_t down = streams() > 1 ? stream_handles_[1] : extra.get();
        use_inputs(course::kFreshInputs);
        problem_.use_inputs(course::kFreshInputs, harness_.stream.get());
        return measure(
            std::move(rung), pinned_out_.data(),
            [&](bool) {
                CUDA_CHECK(cudaMemcpyAsync(problem_.tmp(), pinned_in_.data(), bytes_, cudaMemcpyHostToDevice, up));
                CUDA_CHECK(cudaMemcpyAsync(pinned_out_.data(), problem_.in(), bytes_, cudaMemcpyDeviceToHost, down));
                CUDA_CHECK(cudaStreamSynchronize(up));
                CUDA_CHECK(cudaStreamSynchronize(down));
            },
            [&]() {
                return course::compare_close(pinned_out_.data(), problem_.input().data(), problem_.pixels(),
                                             course::Tolerance{});
            },
            false);
    }

    // The timeline of the last run of a step, as lines under the table.
    std::vector<std::string> timeline(const std::string& label) const;

private:
    using Job = std::function<void(bool timed)>;

    void run(TransferLauncher launch) {
        TransferJob job;
        job.host_in = pinned_in_.data();
        job.host_out = pinned_out_.data();
        job.device_in = problem_.writable_in();
        job.device = problem_.params();
        job.streams = stream_handles_.data();
        job.stream_count = streams();
        job.chunks = chunks_;
        job.events = chunk_events_.data();
        launch(job);
        for (const cudaStream_t stream : stream_handles_) CUDA_CHECK(cudaStreamSynchronize(stream));
    }

    // Input set `set` written into the host input images (pinned and
    // pageable: the same buffers, new values) and the problem's reference
    // switched to it. The device input is left as it is: the job uploads it.
    void use_inputs(int set) {
        problem_.select_inputs(set);
        const std::vector<float>& input = problem_.input();
        std::copy(input.begin(), input.end(), pinned_in_.begin());
        std::copy(input.begin(), input.end(), pageable_in_.begin());
    }

    // Every byte of the host output and of the device output set to `pattern`.
    void poison(float* host_out, std::uint8_t pattern) {
        std::memset(host_out, pattern, bytes_);
        problem_.poison(pattern, harness_.stream.get());
        harness_.stream.synchronize();
    }

    // The runs of the head of this file: with `input_sets`, sets 1, 2 and
    // then 0 written into the host inputs; without, the problem's current
    // set throughout. `after_timed` runs straight after the timed runs.
    course::Rung measure(course::Rung rung, float* host_out, const Job& job,
                         const std::function<course::CheckResult()>& check = nullptr, bool input_sets = true,
                         const std::function<void()>& after_timed = nullptr) {
        const auto compare = [&]() { return check ? check() : problem_.check_output(host_out); };
        const auto call = [&](int set, std::uint8_t pattern, const std::string& when) {
            if (input_sets) use_inputs(set);
            poison(host_out, pattern);
            job(false);
            course::CheckResult result = compare();
            if (!result.ok && !when.empty()) result.first_detail += " (" + when + ")";
            return result;
        };
        try {
            rung.check = call(course::kFirstCallInputs, course::kFirstPoison, "");
            const course::CheckResult second =
                call(course::kSecondCallInputs, course::kSecondPoison,
                     "second call with new inputs in the same buffers, nothing reset in between");
            poison(host_out, course::kFirstPoison);
            for (int i = 0; i < harness_.timing.warmup; ++i) job(false);
            std::vector<double> samples;
            for (int i = 0; i < harness_.timing.runs; ++i) {
                const Clock::time_point t0 = Clock::now();
                job(true);
                samples.push_back(ms_between(t0, Clock::now()));
            }
            rung.time = course::summarize(samples);
            if (after_timed) after_timed();
            course::CheckResult timed = compare();
            if (!timed.ok) timed.first_detail += " (after the timed runs only)";
            const course::CheckResult fresh = call(course::kFreshInputs, course::kSecondPoison,
                                                   "fresh inputs in the same buffers after the timed runs");
            // The first failure in the order the runs ran is the one reported.
            const course::CheckResult* const later_checks[] = {&second, &timed, &fresh};
            for (const course::CheckResult* later : later_checks) {
                if (!rung.check.ok) break;
                if (!later->ok) rung.check = *later;
            }
        } catch (const course::Error& error) {
            rung.check = course::failed_check(error.what());
            CUDA_CHECK(cudaDeviceSynchronize());
        }
        return rung;
    }

    Problem& problem_;
    course::Harness& harness_;
    std::size_t bytes_;
    course::PinnedBuffer<float> pinned_in_, pinned_out_;
    std::vector<float> pageable_in_, pageable_out_;
    int chunks_;
    std::vector<course::Event> event_store_;  // 4 per chunk
    std::vector<std::unique_ptr<course::Stream>> streams_;
    std::vector<cudaStream_t> stream_handles_;
    std::vector<ChunkEvents> chunk_events_;
    // The chunks' times of the last overlapped row's last timed run, or why
    // they could not be read.
    std::vector<ChunkTimes> timed_times_;
    std::string timed_times_error_;
};

// One character per chunk on the timeline: 0-9, then a-z, then A-Z, then #.
char chunk_mark(int c) {
    static const char marks[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    return c < static_cast<int>(sizeof(marks)) - 1 ? marks[c] : '#';
}

std::vector<std::string> TransferBench::timeline(const std::string& label) const {
    if (!timed_times_error_.empty()) throw course::Error(timed_times_error_);
    const std::vector<ChunkTimes>& times = timed_times_;
    if (times.size() != static_cast<std::size_t>(chunks_)) throw course::Error("no timed run to draw a timeline of");
    double end = 0;
    for (const ChunkTimes& t : times) end = std::max(end, t.downloaded);
    constexpr int kColumns = 72;
    const double per_column = std::max(end, 1e-3) / kColumns;
    // A stage starts when the stage before it in its chunk ended, or when the
    // same line's previous stage ended, whichever is later: an event marks
    // when its stream reached it, not when a busy copy engine got to the copy.
    // (Exact when the copies of each direction are chained in chunk order, as
    // the reference solution does; a stage that ran beside an earlier one on
    // its line shows only the part after it.) Empty stages are not drawn.
    std::string up(kColumns, ' '), filter(kColumns, ' '), down(kColumns, ' ');
    double up_free = 0, filter_free = 0, down_free = 0;
    const auto draw = [&](std::string& line, double from, double to, int c) {
        const int first = std::clamp(static_cast<int>(from / per_column), 0, kColumns - 1);
        const int last = std::clamp(static_cast<int>(to / per_column - 1e-9), first, kColumns - 1);
        for (int i = first; i <= last; ++i) line[static_cast<std::size_t>(i)] = chunk_mark(c);
    };
    for (int c = 0; c < chunks_; ++c) {
        const ChunkTimes& t = times[static_cast<std::size_t>(c)];
        const double up_from = std::max(t.start, up_free);
        if (t.uploaded > up_from) draw(up, up_from, t.uploaded, c);
        up_free = std::max(up_free, t.uploaded);
        const double filter_from = std::max(t.uploaded, filter_free);
        if (t.filtered > filter_from) draw(filter, filter_from, t.filtered, c);
        filter_free = std::max(filter_free, t.filtered);
        const double down_from = std::max(t.filtered, down_free);
        if (t.downloaded > down_from) draw(down, down_from, t.downloaded, c);
        down_free = std::max(down_free, t.downloaded);
    }
    return {"timeline of step " + label + ", its last timed run, from its chunks' events (" + std::to_string(chunks_) +
                " chunks on " + std::to_string(streams()) + " streams; 0 to " + course::format_milliseconds(end) +
                " ms, " + course::format_milliseconds(per_column) + " ms a column; each mark is a chunk, 0 first):",
            "  upload   |" + up + "|", "  filter   |" + filter + "|", "  download |" + down + "|"};
}

}  // namespace

std::vector<ChunkTimes> chunk_times(const ChunkEvents* events, int chunks) {
    std::vector<ChunkTimes> times;
    const auto since_start = [&](cudaEvent_t event, int c, const char* name) {
        float ms = 0;
        const cudaError_t status = cudaEventElapsedTime(&ms, events[0].start, event);
        if (status != cudaSuccess) {
            (void)cudaGetLastError();  // not sticky: clear it
            throw course::Error("chunk " + std::to_string(c) + ": its `" + name +
                                "` event (or chunk 0's `start`) was not recorded on a stream (" +
                                cudaGetErrorString(status) + "); the timeline needs all four events of every chunk");
        }
        return static_cast<double>(ms);
    };
    for (int c = 0; c < chunks; ++c) {
        const ChunkEvents& e = events[c];
        times.push_back({since_start(e.start, c, "start"), since_start(e.uploaded, c, "uploaded"),
                         since_start(e.filtered, c, "filtered"), since_start(e.downloaded, c, "downloaded")});
    }
    return times;
}

course::CheckResult check_transfers(Problem& problem, TransferLauncher launch, int chunks, int streams,
                                    course::Harness& harness, std::vector<ChunkTimes>* times) {
    Settings settings;
    settings.chunks = chunks;
    settings.streams = streams;
    TransferBench bench(problem, settings, harness);
    const course::CheckResult result = bench.check_once(launch);
    if (times != nullptr) *times = chunk_times(bench.events(), bench.chunks());
    return result;
}

course::Ladder transfer_ladder(const std::vector<TransferStep>& steps, Launcher filter, const course::TrackRun& run) {
    const Settings settings = settings_from(run.options);
    Problem problem = ladder_problem(settings, run);
    TransferBench bench(problem, settings, run.harness);

    course::Ladder ladder;
    ladder.track = "separable";
    ladder.problem =
        "the whole job, host to host: " + std::to_string(problem.width()) + "x" + std::to_string(problem.height()) +
        " float pixels (" + (settings.input.empty() ? std::string("synthetic image") : settings.input) + ") up, " +
        std::to_string(settings.taps) + "-tap row and column passes, back down; " +
        course::format_bytes(2 * bench.image_bytes()) + " over the link per run; times end to end, on the host's clock";
    ladder.unit = course::Unit::bandwidth;
    ladder.library_name = "link";
    ladder.extra_columns = {"up GB/s (% of peak)", "filter ms", "down GB/s (% of peak)"};
    const double link_bytes = 2 * bench.image_bytes();

    const auto row = [&](const char* label, const std::string& title) {
        course::Rung rung;
        rung.label = label;
        rung.title = title;
        rung.work = link_bytes;
        return rung;
    };
    std::vector<Phases> pageable_phases, pinned_phases;
    ladder.rungs.push_back(bench.serial(row("pageable", "pageable host memory: upload, filter, download in turn"),
                                        filter, false, &pageable_phases));
    ladder.rungs.push_back(bench.serial(row("pinned", "pinned host memory (cudaMallocHost): the same, in turn"), filter,
                                        true, &pinned_phases));
    // The link's peak in each direction: the fastest pinned transfer of the image.
    double fastest_up = 0, fastest_down = 0;
    if (ladder.rungs.back().check.ok && !pinned_phases.empty()) {
        fastest_up = std::min_element(pinned_phases.begin(), pinned_phases.end(), [](const Phases& a, const Phases& b) {
                         return a.up < b.up;
                     })->up;
        fastest_down =
            std::min_element(pinned_phases.begin(), pinned_phases.end(), [](const Phases& a, const Phases& b) {
                return a.down < b.down;
            })->down;
    }
    const double peak_up = fastest_up > 0 ? bench.image_bytes() / (fastest_up * 1e6) : 0;
    const double peak_down = fastest_down > 0 ? bench.image_bytes() / (fastest_down * 1e6) : 0;
    const auto stage_columns = [&](const std::vector<Phases>& phases) -> std::vector<std::string> {
        if (phases.empty()) return {"", "", ""};
        std::vector<double> up, filter_ms, down;
        for (const Phases& p : phases) {
            up.push_back(p.up);
            filter_ms.push_back(p.filter);
            down.push_back(p.down);
        }
        return {gbps_of_peak(bench.image_bytes(), median(up), peak_up), course::format_milliseconds(median(filter_ms)),
                gbps_of_peak(bench.image_bytes(), median(down), peak_down)};
    };
    ladder.rungs[0].extra_values = stage_columns(pageable_phases);
    ladder.rungs[1].extra_values = stage_columns(pinned_phases);

    std::vector<std::vector<std::string>> timelines;  // one per step row
    for (const TransferStep& step : steps) {
        const std::string title = std::string(step.title) + " (" + std::to_string(bench.chunks()) + " chunks, " +
                                  std::to_string(bench.streams()) + " streams)";
        course::Rung rung =
            bench.overlapped(course::step_rung(step.number, title, run.student_step, link_bytes), step.launch);
        rung.extra_values = {"", "", ""};
        timelines.emplace_back();
        if (rung.check.ok) {
            try {
                timelines.back() = bench.timeline(rung.label);
            } catch (const course::Error& error) {
                rung.check = course::failed_check(error.what());
            }
        }
        ladder.rungs.push_back(rung);
    }

    // The link alone moves the same bytes over the link as every row: the
    // ceiling no row may beat.
    course::Rung link = bench.link(course::reference_rung(
        "the link alone: the image up and down at once (pinned, 2 streams), no filter", link_bytes));
    link.extra_values = {"", "", ""};
    ladder.rungs.push_back(link);
    course::ceiling_from_row(ladder, ladder.rungs.size() - 1, "the link alone, the same bytes up and down at once");
    course::enforce_ceiling(ladder);

    if (peak_up > 0)
        ladder.notes.push_back("the link's peak, measured: " + course::format_fixed(peak_up, 1) + " GB/s up, " +
                               course::format_fixed(peak_down, 1) +
                               " GB/s down (the fastest of the pinned row's transfers of the image); "
                               "the % of peak columns compare each transfer's median with it");
    ladder.notes.push_back("GB/s: the " + course::format_bytes(link_bytes) +
                           " the job moves over the link (the image up, its output down) over the job's time; "
                           "% of link: the link row's time over the row's");
    // Step rows start after the pageable and pinned rows.
    for (std::size_t i = 0; i < timelines.size(); ++i)
        if (ladder.rungs[2 + i].check.ok)
            for (const std::string& line : timelines[i]) ladder.notes.push_back(line);
    return ladder;
}

}  // namespace separable
