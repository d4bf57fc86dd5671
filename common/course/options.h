// The command line shared by every lesson program and the course program.
//
//   --size S      problem size; the track says what S means (see --help)
//   --reps R      timed runs per kernel (the median is reported)
//   --input F     image to read (PNG, PGM, ...), for the image tracks
//   --output F    where to save the result image (.png or .pgm)
//   --device D    which GPU (0 = first)
//   --format X    table (default), csv or json
//   --seed N      seed of the random inputs
//   --profile     the ladder's kernels once more under Nsight Compute (ncu),
//                 as columns of the ladder (course/profile.h)
//   --profile-ranges  for an ncu command of your own: checks and times
//                 nothing; each rung's kernels run once to warm up, then once
//                 inside a profiler range (as in --profile's run under ncu),
//                 so that `ncu --profile-from-start off` sees each kernel as
//                 the ladder runs it, without a launcher's first-call work
//
// Sizes accept powers of two, as the course writes them: 4096, 2^22, 2^22+3.
// Every mistake gets a one-line message and exit code 2, never a crash.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace course {

enum class Format { table, csv, json };

// An option a track adds, e.g. {"block", "WxH", "thread block shape", "16x16"}.
struct OptionSpec {
    std::string name;        // without the leading "--"
    std::string value_name;  // shown in --help
    std::string help;
    std::string default_value;
};

struct Options {
    std::string size;  // as typed; empty means the track's default
    int reps = 20;
    std::string input_image;
    std::string output_image;
    int device = 0;
    Format format = Format::table;
    std::uint64_t seed = 20240521;
    bool help = false;
    bool profile = false;
    bool profile_ranges = false;
    std::vector<std::string> positional;       // e.g. track names for the course program
    std::map<std::string, std::string> extra;  // track options, defaults filled in
    std::vector<std::string> given;            // the track options typed on the command line, in order

    // The value of a track option (its default if not given).
    const std::string& option(const std::string& name) const;
};

// Each option's name and its default value: a track's options as a command
// line that gives none of them.
std::map<std::string, std::string> option_defaults(const std::vector<OptionSpec>& specs);

// Parses argv[1..]. `extras` are the track's own options. Positional
// arguments are accepted only if `positional_name` is not empty.
// Throws UsageError on anything it does not understand.
Options parse_options(const std::vector<std::string>& args, const std::vector<OptionSpec>& extras = {},
                      const std::string& positional_name = "");

std::string usage_text(const std::string& program, const std::string& about, const std::string& size_help,
                       const std::vector<OptionSpec>& extras, const std::string& positional_help = "");

// "4096", "2^22", "2^22+3", "2^26-1": a whole number from 1 to 2^40.
// `what` names the option in the error message.
std::uint64_t parse_count(const std::string& text, const std::string& what);

// "2048" (every dimension 2048), "1920x1080", "4096x4096x512": `dims` numbers,
// each parsed like parse_count.
std::vector<std::uint64_t> parse_dims(const std::string& text, int dims, const std::string& what);

// "2^22" for powers of two and "2^22+3" near them; plain digits otherwise.
std::string describe_count(std::uint64_t n);

}  // namespace course
