// course-chart: draws the ladders and sweeps of a report saved as JSON
// (`course-ladders --format json > report.json`) as one SVG, for slides.
// Needs no GPU: the charts of slides/ are rebuilt from slides/data/ anywhere
// (`meson compile -C build charts`). What is drawn: course/chart.h.
#include "course/chart.h"
#include "course/json.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const char* const usage =
    "usage: course-chart INPUT.json OUTPUT.svg [--title TEXT] [--track NAME]\n"
    "Draws every ladder and sweep of INPUT.json (as printed by a course program with --format json)\n"
    "as charts stacked in one SVG file.\n"
    "  --title TEXT   a heading over the charts\n"
    "  --track NAME   draw only that track's ladders and sweeps\n"
    "  --help         this text\n";

struct UsageError {
    std::string what;
};

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    std::vector<std::string> files;
    course::ChartOptions options;
    try {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string& arg = args[i];
            if (arg == "--help" || arg == "-h") {
                std::cout << usage;
                return 0;
            }
            if (arg == "--title" || arg == "--track") {
                if (i + 1 == args.size()) throw UsageError{arg + " needs a value"};
                (arg == "--title" ? options.title : options.track) = args[++i];
            } else if (arg.size() > 1 && arg[0] == '-') {
                throw UsageError{"unknown option \"" + arg + "\" (--help lists them)"};
            } else {
                files.push_back(arg);
            }
        }
        if (files.size() != 2) throw UsageError{"expected INPUT.json and OUTPUT.svg (--help says more)"};
    } catch (const UsageError& error) {
        std::fprintf(stderr, "course-chart: %s\n", error.what.c_str());
        return 2;
    }

    const std::string& input = files[0];
    const std::string& output = files[1];
    try {
        std::ifstream in(input, std::ios::binary);
        if (!in) throw std::runtime_error("cannot read it");
        std::ostringstream text;
        text << in.rdbuf();
        if (in.bad()) throw std::runtime_error("cannot read it");
        const std::string svg = course::render_chart_svg(course::read_chart_report(text.str()), options);

        std::ofstream out(output, std::ios::binary | std::ios::trunc);
        out << svg;
        out.close();
        if (!out) {
            std::fprintf(stderr, "course-chart: %s: cannot write it\n", output.c_str());
            return 1;
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "course-chart: %s: %s\n", input.c_str(), error.what());
        return 1;
    }
    return 0;
}
