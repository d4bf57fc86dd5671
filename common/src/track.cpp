#include "course/track.h"

#include "course/check.h"
#include "course/profile.h"

#include <cstdio>
#include <iostream>
#include <set>

namespace course {

namespace {

std::string program_name(char** argv) {
    std::string name = argv[0] != nullptr ? argv[0] : "course";
    const auto slash = name.find_last_of('/');
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

std::vector<std::string> arguments(int argc, char** argv) { return std::vector<std::string>(argv + 1, argv + argc); }

void reject_image_options(const Options& options, const std::string& why) {
    if (!options.input_image.empty()) throw UsageError("--input: " + why);
    if (!options.output_image.empty()) throw UsageError("--output: " + why);
}

// Whether this is --profile's run under ncu (or a run with --profile-ranges,
// which runs the same way under a student's own ncu command) is decided here,
// once. That run's output is thrown away, so timing left outside measure() (a
// ceiling, a second variant of a kernel) runs once instead of --reps times.
Harness make_harness(const Options& options) {
    const bool profile_pass = in_profile_pass() || options.profile_ranges;
    TimingConfig timing;
    timing.runs = profile_pass ? 1 : options.reps;
    return Harness(open_device(options.device), timing, profile_pass);
}

// Runs `body`, turning every failure into one line on stderr and an exit
// code: 2 for a usage mistake, 77 where there is no GPU (Meson's "skipped"),
// 1 for anything else.
template <typename Body>
int guarded(const std::string& program, Body&& body) {
    try {
        return body();
    } catch (const UsageError& error) {
        std::fprintf(stderr, "%s: %s\n", program.c_str(), error.what());
        return 2;
    } catch (const NoGpuError& error) {
        std::fprintf(stderr, "%s: error: %s\n", program.c_str(), error.what());
        return 77;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "%s: error: %s\n", program.c_str(), error.what());
        return 1;
    }
}

// --profile's second run, under ncu, and its columns added to `report`; or,
// when the run launched no kernel (the occupancy calculator is host code
// only), a note on stderr instead of a run of ncu that would find nothing.
void profile_report(const std::string& program, const Harness& harness, Report& report,
                    const std::vector<std::string>& args) {
    if (harness.runs_measured == 0) {
        std::cerr << program << ": --profile: nothing to profile, no kernel was run\n";
        return;
    }
    add_profile(report, run_profile_pass(args));
}

// The end of a run that only launched (--profile's run under ncu, or
// --profile-ranges): with --profile-ranges, one line on stderr saying what
// ran, so that no one reads the missing ladder as a failure, and that each
// range also holds the marker kernel (a bare `-c 1` would profile it).
int ranges_done(const std::string& program, const Harness& harness, const Options& options) {
    if (!options.profile_ranges) return 0;
    if (harness.runs_measured == 0)
        std::cerr << program << ": --profile-ranges: nothing to profile, no kernel was run\n";
    else
        std::cerr << program << ": --profile-ranges: " << harness.runs_measured
                  << " row(s) launched, each once to warm up, then inside a profiler range after an empty "
                  << kProfileMarkerKernel << " kernel (pick yours with ncu -k); nothing checked or timed\n";
    return 0;
}

}  // namespace

void run_track(const Track& track, const TrackRun& run, Report& report) {
    if (track.run)
        for (auto& ladder : track.run(run)) report.ladders.push_back(std::move(ladder));
    if (track.run_sweeps)
        for (auto& sweep : track.run_sweeps(run)) report.sweeps.push_back(std::move(sweep));
}

int lesson_main(int argc, char** argv, const Track& track, int student_step, const std::string& lesson_dir) {
    const std::string program = program_name(argv);
    return guarded(program, [&]() {
        const Options options = parse_options(arguments(argc, argv), track.options);
        if (options.help) {
            std::cout << usage_text(
                program,
                "Runs your kernel (" + lesson_dir +
                    "/kernel.cu) and the reference solutions of "
                    "the steps before it, checks every result against the CPU, and prints the ladder (or your "
                    "kernel's sweep).\n" +
                    track.title,
                track.size_help, track.options);
            return 0;
        }
        if (!track.uses_images) reject_image_options(options, "the " + track.name + " track uses no images");
        if (track.validate) track.validate(options);
        // The GPU first: without one, the program says so (exit 77) whatever else is missing.
        Harness harness = make_harness(options);
        if (options.profile) require_ncu();
        Report report{harness.device, {}, {}};
        run_track(track, TrackRun{options, harness, student_step}, report);
        // The run under ncu prints nothing (ncu's log is what is read back),
        // nor does one with --profile-ranges (a user's ncu reads it): the exit
        // status says only whether it ran through.
        if (harness.profile_pass) return ranges_done(program, harness, options);
        if (options.profile) profile_report(program, harness, report, arguments(argc, argv));
        std::cout << format_report(report, options.format);
        if (options.format == Format::table) {
            std::cout << "\nyou > marks your kernel: " << lesson_dir << "/kernel.cu\n";
            if (!report.all_ok()) std::cout << "A check failed: that row's result differs from the CPU reference.\n";
        }
        return report.all_ok() ? 0 : 1;
    });
}

int course_main(int argc, char** argv, const std::vector<Track>& tracks) {
    const std::string program = program_name(argv);
    return guarded(program, [&]() {
        std::vector<OptionSpec> all_options;
        std::set<std::string> seen;
        std::string names;
        for (const auto& track : tracks) {
            names += (names.empty() ? "" : ", ") + track.name;
            for (const auto& spec : track.options)
                if (seen.insert(spec.name).second) all_options.push_back(spec);
        }
        const Options options = parse_options(arguments(argc, argv), all_options, "track");
        if (options.help) {
            std::cout << usage_text(program,
                                    "Runs the reference solution of every step of every track (or of the tracks "
                                    "named: " +
                                        names + "), checks each against the CPU and prints the ladders.",
                                    "problem size, for one named track only (each track has its own default)",
                                    all_options, "track");
            return 0;
        }

        std::vector<const Track*> chosen;
        for (const auto& name : options.positional) {
            const Track* found = nullptr;
            for (const auto& track : tracks)
                if (track.name == name) found = &track;
            if (found == nullptr) throw UsageError("unknown track \"" + name + "\"; the tracks are: " + names);
            chosen.push_back(found);
        }
        if (chosen.empty())
            for (const auto& track : tracks) chosen.push_back(&track);
        if (!options.size.empty() && chosen.size() != 1)
            throw UsageError("--size: name exactly one track, since each track's size means something else");
        // A track option that none of the chosen tracks takes would be ignored
        // silently: refuse it, naming the tracks that take it.
        for (const std::string& name : options.given) {
            std::string takers;
            bool taken = false;
            for (const auto& track : tracks)
                for (const auto& spec : track.options)
                    if (spec.name == name) {
                        takers += (takers.empty() ? "" : ", ") + track.name;
                        for (const Track* chosen_track : chosen) taken = taken || chosen_track == &track;
                    }
            if (!taken)
                throw UsageError("--" + name + ": only the " + takers +
                                 (takers.find(',') == std::string::npos ? " track takes" : " tracks take") +
                                 " it; name " + (takers.find(',') == std::string::npos ? "that track" : "one of them") +
                                 " (e.g. course-ladders " + takers.substr(0, takers.find(',')) + " --" + name +
                                 " ...)");
        }
        bool any_images = false;
        for (const Track* track : chosen) any_images = any_images || track->uses_images;
        if (!any_images) reject_image_options(options, "none of the chosen tracks uses images");
        for (const Track* track : chosen)
            if (track->validate) track->validate(options);
        // The GPU first: without one, the program says so (exit 77) whatever else is missing.
        Harness harness = make_harness(options);
        if (options.profile) require_ncu();
        Report report{harness.device, {}, {}};
        for (const Track* track : chosen) run_track(*track, TrackRun{options, harness, 0}, report);
        if (harness.profile_pass) return ranges_done(program, harness, options);
        if (options.profile) profile_report(program, harness, report, arguments(argc, argv));
        std::cout << format_report(report, options.format);
        return report.all_ok() ? 0 : 1;
    });
}

}  // namespace course
