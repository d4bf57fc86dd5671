#include "course/options.h"

#include "course/check.h"

#include <cctype>
#include <limits>
#include <sstream>

namespace course {

namespace {

constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 40;

// Digits only: no sign, no spaces, no suffix. Throws on anything else.
std::uint64_t parse_digits(const std::string& text, const std::string& what, const std::string& whole) {
    if (text.empty()) throw UsageError(what + ": \"" + whole + "\" is not a number");
    if (text[0] == '-' && text.size() > 1 && std::isdigit(static_cast<unsigned char>(text[1])))
        throw UsageError(what + ": \"" + whole + "\" is negative; it must be at least 1");
    std::uint64_t value = 0;
    for (char c : text) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            throw UsageError(what + ": \"" + whole + "\" is not a number");
        if (value > (std::numeric_limits<std::uint64_t>::max() - 9) / 10)
            throw UsageError(what + ": \"" + whole + "\" is too large (at most 2^40)");
        value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return value;
}

// One term: "4096" or "2^22".
std::uint64_t parse_term(const std::string& term, const std::string& what, const std::string& whole) {
    const auto caret = term.find('^');
    if (caret == std::string::npos) return parse_digits(term, what, whole);
    const std::uint64_t base = parse_digits(term.substr(0, caret), what, whole);
    const std::uint64_t exponent = parse_digits(term.substr(caret + 1), what, whole);
    std::uint64_t value = 1;
    for (std::uint64_t i = 0; i < exponent; ++i) {
        if (base != 0 && value > kMaxCount / base)
            throw UsageError(what + ": \"" + whole + "\" is too large (at most 2^40)");
        value *= base;
    }
    return value;
}

int parse_int(const std::string& text, const std::string& what, int lo, int hi) {
    if (!text.empty() && text[0] == '-')
        throw UsageError(what + ": \"" + text + "\" must be between " + std::to_string(lo) + " and " +
                         std::to_string(hi));
    const std::uint64_t value = parse_digits(text, what, text);
    if (value < static_cast<std::uint64_t>(lo) || value > static_cast<std::uint64_t>(hi))
        throw UsageError(what + ": \"" + text + "\" must be between " + std::to_string(lo) + " and " +
                         std::to_string(hi));
    return static_cast<int>(value);
}

Format parse_format(const std::string& text) {
    if (text == "table") return Format::table;
    if (text == "csv") return Format::csv;
    if (text == "json") return Format::json;
    throw UsageError("--format: \"" + text + "\" is not one of table, csv, json");
}

}  // namespace

std::uint64_t parse_count(const std::string& text, const std::string& what) {
    if (text.empty()) throw UsageError(what + ": a number is missing");
    // Split into terms joined by + or - (a leading '-' is a negative number).
    std::int64_t total = 0;
    std::size_t start = 0;
    int sign = +1;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const bool at_end = i == text.size();
        if (!at_end && !((text[i] == '+' || text[i] == '-') && i > 0)) continue;
        const std::string term = text.substr(start, i - start);
        const std::uint64_t value = parse_term(term, what, text);
        if (value > kMaxCount) throw UsageError(what + ": \"" + text + "\" is too large (at most 2^40)");
        total += sign * static_cast<std::int64_t>(value);
        if (!at_end) {
            sign = text[i] == '+' ? +1 : -1;
            start = i + 1;
        }
    }
    if (total < 0) throw UsageError(what + ": \"" + text + "\" is negative; it must be at least 1");
    if (total == 0) throw UsageError(what + ": \"" + text + "\" is zero; it must be at least 1");
    if (static_cast<std::uint64_t>(total) > kMaxCount)
        throw UsageError(what + ": \"" + text + "\" is too large (at most 2^40)");
    return static_cast<std::uint64_t>(total);
}

std::vector<std::uint64_t> parse_dims(const std::string& text, int dims, const std::string& what) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == 'x' || text[i] == 'X') {
            parts.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    if (parts.size() == 1) parts.assign(static_cast<std::size_t>(dims), parts[0]);
    if (parts.size() != static_cast<std::size_t>(dims)) {
        std::string example = "2048";
        for (int i = 1; i < dims; ++i) example += "x2048";
        throw UsageError(what + ": \"" + text + "\" should be one number or " + std::to_string(dims) +
                         " numbers like " + example);
    }
    std::vector<std::uint64_t> values;
    for (const auto& part : parts) values.push_back(parse_count(part, what));
    return values;
}

std::string describe_count(std::uint64_t n) {
    for (int k = 40; k >= 4; --k) {
        const std::uint64_t p = std::uint64_t{1} << k;
        if (n == p) return "2^" + std::to_string(k);
        if (n > p && n - p <= 16) return "2^" + std::to_string(k) + "+" + std::to_string(n - p);
        if (n < p && p - n <= 16) return "2^" + std::to_string(k) + "-" + std::to_string(p - n);
    }
    return std::to_string(n);
}

const std::string& Options::option(const std::string& name) const {
    const auto it = extra.find(name);
    if (it == extra.end()) throw Error("internal: no option --" + name + " was declared");
    return it->second;
}

std::map<std::string, std::string> option_defaults(const std::vector<OptionSpec>& specs) {
    std::map<std::string, std::string> defaults;
    for (const auto& spec : specs) defaults[spec.name] = spec.default_value;
    return defaults;
}

Options parse_options(const std::vector<std::string>& args, const std::vector<OptionSpec>& extras,
                      const std::string& positional_name) {
    Options options;
    options.extra = option_defaults(extras);

    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg == "-h" || arg == "--help") {
            options.help = true;
            continue;
        }
        if (arg.rfind("--", 0) != 0) {
            if (!arg.empty() && arg[0] == '-') throw UsageError("unknown option \"" + arg + "\" (try --help)");
            if (positional_name.empty()) throw UsageError("unexpected argument \"" + arg + "\" (try --help)");
            options.positional.push_back(arg);
            continue;
        }
        // --name=value or --name value
        std::string name = arg.substr(2), value;
        bool has_value = false;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            has_value = true;
        }
        auto take_value = [&]() -> const std::string& {
            if (!has_value) {
                if (i + 1 >= args.size()) throw UsageError("--" + name + " needs a value (try --help)");
                value = args[++i];
                has_value = true;
            }
            return value;
        };

        if (name == "size") {
            options.size = take_value();
            if (options.size.empty()) throw UsageError("--size: a number is missing");
        } else if (name == "reps") {
            options.reps = parse_int(take_value(), "--reps", 1, 100000);
        } else if (name == "input") {
            options.input_image = take_value();
        } else if (name == "output") {
            options.output_image = take_value();
        } else if (name == "device") {
            options.device = parse_int(take_value(), "--device", 0, 1023);
        } else if (name == "format") {
            options.format = parse_format(take_value());
        } else if (name == "seed") {
            const std::string& text = take_value();
            if (!text.empty() && text[0] == '-') throw UsageError("--seed: \"" + text + "\" must not be negative");
            options.seed = parse_digits(text, "--seed", text);
        } else if (name == "profile") {
            if (has_value) throw UsageError("--profile takes no value");
            options.profile = true;
        } else if (name == "profile-ranges") {
            if (has_value) throw UsageError("--profile-ranges takes no value");
            options.profile_ranges = true;
        } else if (options.extra.count(name) != 0) {
            options.extra[name] = take_value();
            options.given.push_back(name);
        } else {
            throw UsageError("unknown option \"--" + name + "\" (try --help)");
        }
    }
    if (options.profile && options.profile_ranges)
        throw UsageError("--profile and --profile-ranges: choose one (--profile runs ncu itself; --profile-ranges "
                         "is for an ncu command of your own)");
    // The run checks nothing: an image it wrote would be believed as checked.
    if (options.profile_ranges && !options.output_image.empty())
        throw UsageError("--output: --profile-ranges checks nothing, so it writes no image; write it from a run "
                         "without --profile-ranges");
    return options;
}

std::string usage_text(const std::string& program, const std::string& about, const std::string& size_help,
                       const std::vector<OptionSpec>& extras, const std::string& positional_help) {
    std::ostringstream out;
    out << "usage: " << program << " [options]" << (positional_help.empty() ? "" : " [" + positional_help + "...]")
        << "\n\n"
        << about << "\n\noptions:\n"
        << "  --size S       " << size_help << "\n"
        << "  --reps R       timed runs per kernel; the median is reported (default 20)\n"
        << "  --input FILE   image to read (PNG, PGM, ...; image tracks)\n"
        << "  --output FILE  where to save the result image (.png or .pgm; image tracks)\n"
        << "  --device D     which GPU to use (default 0)\n"
        << "  --format F     table (default), csv or json\n"
        << "  --seed N       seed of the random inputs\n"
        << "  --profile      runs the ladder's kernels once more under Nsight Compute (ncu on the PATH) and adds\n"
        << "                 profile columns: DRAM %, SM %, occupancy and the limiter\n"
        << "  --profile-ranges  for your own `ncu --profile-from-start off ...`: checks and times nothing; runs\n"
        << "                 each kernel once to warm up, then once inside a profiler range, which ncu profiles\n";
    for (const auto& spec : extras) {
        std::string left = "--" + spec.name + " " + spec.value_name;
        if (left.size() < 15) left.resize(15, ' ');
        out << "  " << left << spec.help << " (default " << spec.default_value << ")\n";
    }
    out << "  --help         this text\n"
        << "\nSizes may be written as powers of two: 2^22, 2^22+3.\n";
    return out.str();
}

}  // namespace course
