#include "course/chart.h"

#include "course/json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace course {

// --- Reading ----------------------------------------------------------------
// Each accessor names the field by its path, so that a bad file gets a
// message a person can act on.
namespace {

std::string path_of(const std::string& base, const std::string& key) { return base.empty() ? key : base + "." + key; }
std::string path_of(const std::string& base, std::size_t index) { return base + "[" + std::to_string(index) + "]"; }

[[noreturn]] void wrong_type(const std::string& path, const char* expected, const Json& found) {
    throw ChartError(path + ": expected " + expected + ", found " + json_type_name(found.type));
}

const Json& member(const Json& object, const std::string& base, const std::string& key) {
    const Json* value = object.find(key);
    if (value == nullptr) throw ChartError(path_of(base, key) + ": missing");
    return *value;
}

std::string string_field(const Json& object, const std::string& base, const std::string& key) {
    const Json& value = member(object, base, key);
    if (value.type != Json::Type::string) wrong_type(path_of(base, key), "a string", value);
    return value.string;
}

bool bool_field(const Json& object, const std::string& base, const std::string& key) {
    const Json& value = member(object, base, key);
    if (value.type != Json::Type::boolean) wrong_type(path_of(base, key), "true or false", value);
    return value.boolean;
}

std::optional<double> number_or_null(const Json& value, const std::string& path) {
    if (value.type == Json::Type::null) return std::nullopt;
    if (value.type != Json::Type::number) wrong_type(path, "a number or null", value);
    return value.number;
}

// Times, throughputs and peaks: a negative one would be drawn below the axis.
double amount_field(const Json& object, const std::string& base, const std::string& key) {
    const Json& value = member(object, base, key);
    if (value.type != Json::Type::number) wrong_type(path_of(base, key), "a number", value);
    if (value.number < 0) throw ChartError(path_of(base, key) + ": expected a number >= 0");
    return value.number;
}

const std::vector<Json>& array_field(const Json& object, const std::string& base, const std::string& key) {
    const Json& value = member(object, base, key);
    if (value.type != Json::Type::array) wrong_type(path_of(base, key), "an array", value);
    return value.array;
}

void require_object(const Json& value, const std::string& path) {
    if (value.type != Json::Type::object) wrong_type(path, "an object", value);
}

// "notes" is optional: an array of strings.
std::vector<std::string> notes_field(const Json& object, const std::string& base) {
    std::vector<std::string> notes;
    if (object.find("notes") == nullptr) return notes;
    const auto& items = array_field(object, base, "notes");
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].type != Json::Type::string) wrong_type(path_of(path_of(base, "notes"), i), "a string", items[i]);
        notes.push_back(items[i].string);
    }
    return notes;
}

ChartLadder read_ladder(const Json& json, const std::string& path) {
    require_object(json, path);
    ChartLadder ladder;
    ladder.track = string_field(json, path, "track");
    ladder.problem = string_field(json, path, "problem");
    ladder.unit = string_field(json, path, "unit");
    ladder.library = string_field(json, path, "library");
    ladder.peak = amount_field(json, path, "peak");
    const auto& rungs = array_field(json, path, "rungs");
    for (std::size_t i = 0; i < rungs.size(); ++i) {
        const std::string at = path_of(path_of(path, "rungs"), i);
        const Json& r = rungs[i];
        require_object(r, at);
        ChartRow row;
        row.step = string_field(r, at, "step");
        row.title = string_field(r, at, "title");
        row.student = bool_field(r, at, "student");
        row.library = bool_field(r, at, "library");
        row.median_ms = amount_field(r, at, "median_ms");
        row.throughput = amount_field(r, at, "throughput");
        row.percent_of_peak = number_or_null(member(r, at, "percent_of_peak"), path_of(at, "percent_of_peak"));
        row.check_ok = bool_field(r, at, "check_ok");
        row.check = string_field(r, at, "check");
        ladder.rows.push_back(row);
    }
    ladder.notes = notes_field(json, path);
    return ladder;
}

ChartSweep read_sweep(const Json& json, const std::string& path) {
    require_object(json, path);
    ChartSweep sweep;
    sweep.track = string_field(json, path, "track");
    sweep.lesson = string_field(json, path, "lesson");
    sweep.title = string_field(json, path, "title");
    sweep.problem = string_field(json, path, "problem");
    sweep.parameter = string_field(json, path, "parameter");
    sweep.unit = string_field(json, path, "unit");
    sweep.peak = amount_field(json, path, "peak");
    const auto& series = array_field(json, path, "series");
    for (std::size_t i = 0; i < series.size(); ++i) {
        if (series[i].type != Json::Type::string)
            wrong_type(path_of(path_of(path, "series"), i), "a string", series[i]);
        sweep.series.push_back(series[i].string);
    }
    const auto& points = array_field(json, path, "points");
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string at = path_of(path_of(path, "points"), i);
        const Json& p = points[i];
        require_object(p, at);
        ChartPoint point;
        const Json& x = member(p, at, "x");
        if (x.type != Json::Type::number) wrong_type(path_of(at, "x"), "a number", x);
        point.x = x.number;
        point.label = string_field(p, at, "label");
        // A point that was computed, not timed (an occupancy prediction), has
        // null times and throughput: it has series values only.
        point.timed = member(p, at, "median_ms").type != Json::Type::null;
        if (point.timed) {
            point.median_ms = amount_field(p, at, "median_ms");
            point.throughput = amount_field(p, at, "throughput");
        }
        point.percent_of_peak = number_or_null(member(p, at, "percent_of_peak"), path_of(at, "percent_of_peak"));
        point.check_ok = bool_field(p, at, "check_ok");
        point.check = string_field(p, at, "check");
        // A series missing from "values" was not measured at this point.
        const Json& values = member(p, at, "values");
        require_object(values, path_of(at, "values"));
        for (const auto& name : sweep.series) {
            const Json* value = values.find(name);
            point.values.push_back(value == nullptr ? std::nullopt
                                                    : number_or_null(*value, path_of(path_of(at, "values"), name)));
        }
        sweep.points.push_back(point);
    }
    // Evenly spaced in the order of x, so the order must be x's.
    std::stable_sort(sweep.points.begin(), sweep.points.end(),
                     [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
    sweep.notes = notes_field(json, path);
    return sweep;
}

}  // namespace

ChartReport read_chart_report(const std::string& json_text) {
    const Json json = parse_json(json_text);
    require_object(json, "the report");
    ChartReport report;
    const Json& device = member(json, "", "device");
    require_object(device, "device");
    report.device_name = string_field(device, "device", "name");
    report.device_arch = string_field(device, "device", "arch");
    if (json.find("ladders") == nullptr && json.find("sweeps") == nullptr)
        throw ChartError("the report has neither \"ladders\" nor \"sweeps\"");
    if (json.find("ladders") != nullptr) {
        const auto& ladders = array_field(json, "", "ladders");
        for (std::size_t i = 0; i < ladders.size(); ++i)
            report.ladders.push_back(read_ladder(ladders[i], path_of("ladders", i)));
    }
    if (json.find("sweeps") != nullptr) {
        const auto& sweeps = array_field(json, "", "sweeps");
        for (std::size_t i = 0; i < sweeps.size(); ++i)
            report.sweeps.push_back(read_sweep(sweeps[i], path_of("sweeps", i)));
    }
    return report;
}

// --- Drawing ----------------------------------------------------------------
namespace {

// Sizes in SVG units (pixels at 100%): a 1600-wide chart shown full width on
// a 1920x1080 projector keeps 18-px text readable from the back of a room.
constexpr double width = 1600;
constexpr double margin_left = 150;   // the left axis' tick labels and unit
constexpr double margin_right = 170;  // the names of the lines across a ladder; a sweep's right axis
constexpr double plot_height = 520;
constexpr double heading_size = 40, label_size = 22, small_size = 18;
// An average glyph of a sans-serif font is about 0.55 em wide: enough to wrap
// text without measuring it (which would need the font).
constexpr double glyph_em = 0.55;

const char* const blue = "#3b6ea8";    // steps, throughput
const char* const orange = "#e8730c";  // the student's row
const char* const grey = "#9a9a9a";    // rows that are not steps (a copy, pinned transfers)
// The sweeps' fraction series: a colour and a dash pattern each, so that
// they read apart in black and white too (their points are squares, the
// throughput's are circles).
const char* const series_colours[] = {"#e8730c", "#2e8b57", "#8e44ad", "#8d6e63"};
const char* const series_dashes[] = {"14 7", "4 6", "18 6 4 6", "2 5"};

// Coordinates: one decimal, dropped when it is 0 ("12", "12.5"), never "-0".
std::string num(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", std::fabs(value) < 0.05 ? 0.0 : value);
    std::string out = text;
    if (out.size() > 2 && out.compare(out.size() - 2, 2, ".0") == 0) out.resize(out.size() - 2);
    return out;
}

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

// Throughput as a label: about four significant digits.
std::string format_amount(double value) { return fixed(value, value >= 100 ? 0 : value >= 10 ? 1 : 2); }

// The ladder table's rule (course/ladder.h, format_milliseconds), so that a
// chart reads the same as the table beside it.
std::string format_ms(double ms) { return fixed(ms, ms >= 100 ? 1 : ms >= 1 ? 3 : 4); }

std::string format_fraction(double fraction) { return fixed(100 * fraction, 1) + "%"; }

// Text for XML: the five special characters escaped, control characters
// (not allowed in XML 1.0) as spaces.
std::string escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default: out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
        }
    }
    return out;
}

// Characters, not bytes: UTF-8 continuation bytes do not count.
std::size_t glyphs(const std::string& text) {
    std::size_t n = 0;
    for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

std::size_t glyphs_that_fit(double room, double font_size) {
    return std::max<std::size_t>(1, static_cast<std::size_t>(room / (glyph_em * font_size)));
}

// Greedy word wrap to lines of at most `columns` characters; a word longer
// than a line stays whole. With `max_lines`, the last line kept ends in "...".
std::vector<std::string> wrap(const std::string& text, std::size_t columns, std::size_t max_lines = 0) {
    std::vector<std::string> lines;
    std::string line;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(start, end - start);
        start = end + 1;
        if (word.empty()) continue;
        if (!line.empty() && glyphs(line) + 1 + glyphs(word) > columns) {
            lines.push_back(line);
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty()) lines.push_back(line);
    if (max_lines > 0 && lines.size() > max_lines) {
        lines.resize(max_lines);
        lines.back() += "...";
    }
    return lines;
}

// A linear axis from 0: ticks at 1, 2 or 5 times a power of ten, and a top
// that is a whole number of ticks above the largest value.
struct Axis {
    double top = 1, step = 0.2;
    double y(double value, double plot_top) const { return plot_top + plot_height * (1 - value / top); }
};

Axis axis_for(double largest) {
    Axis axis;
    if (!(largest > 0)) return axis;
    const double raw = largest * 1.08 / 5;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    const double fraction = raw / power;
    axis.step = (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
    axis.top = std::ceil(largest * 1.08 / axis.step) * axis.step;
    return axis;
}

std::string tick_label(double value, double step) {
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    return fixed(value, decimals);
}

class Svg {
public:
    std::string body;

    void text(double x, double y, const std::string& cls, const std::string& content, const char* anchor = "start",
              const std::string& fill = "") {
        body += "<text class=\"" + cls + "\" x=\"" + num(x) + "\" y=\"" + num(y) + "\"";
        if (std::string(anchor) != "start") body += std::string(" text-anchor=\"") + anchor + "\"";
        if (!fill.empty()) body += " fill=\"" + fill + "\"";
        body += ">" + escape(content) + "</text>\n";
    }
    void line(double x1, double y1, double x2, double y2, const std::string& cls) {
        body += "<line class=\"" + cls + "\" x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) +
                "\" y2=\"" + num(y2) + "\"/>\n";
    }
    void rect(double x, double y, double w, double h, const std::string& cls, const std::string& fill) {
        body += "<rect class=\"" + cls + "\" x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) +
                "\" height=\"" + num(h) + "\" fill=\"" + fill + "\"/>\n";
    }
    void open_group(const std::string& cls, double y) {
        body += "<g class=\"" + cls + "\" transform=\"translate(0 " + num(y) + ")\">\n";
    }
    void close_group() { body += "</g>\n"; }
};

// The left axis: grid lines, tick labels and the unit over them.
void draw_left_axis(Svg& svg, const Axis& axis, double plot_top, double plot_right, const std::string& unit) {
    const int ticks = static_cast<int>(std::lround(axis.top / axis.step));
    for (int i = 0; i <= ticks; ++i) {
        const double v = i * axis.step;
        const double y = axis.y(v, plot_top);
        svg.line(margin_left, y, plot_right, y, i == 0 ? "axis" : "grid");
        svg.text(margin_left - 12, y + small_size / 3, "tick", tick_label(v, axis.step), "end");
    }
    svg.text(margin_left - 12, plot_top - 18, "unit", unit, "end");
}

// The heading, then the space it takes.
double draw_heading(Svg& svg, const std::string& heading) {
    svg.text(margin_left, heading_size, "heading", heading);
    return heading_size + 24;
}

// Caption (device, problem) and notes, wrapped; returns the height used.
double draw_caption(Svg& svg, double y, const ChartReport& report, const std::string& problem,
                    const std::vector<std::string>& notes) {
    const double room = width - margin_left - margin_right;
    const std::string caption = report.device_name + " (" + report.device_arch + "): " + problem;
    const double start = y;
    for (const auto& line : wrap(caption, glyphs_that_fit(room, label_size))) {
        y += label_size * 1.35;
        svg.text(margin_left, y, "caption", line);
    }
    for (const auto& note : notes)
        for (const auto& line : wrap(note, glyphs_that_fit(room, small_size))) {
            y += small_size * 1.35;
            svg.text(margin_left, y, "note", line);
        }
    return y - start;
}

std::string sample_swatch(double x, double y, const char* fill) {
    return "<rect class=\"swatch\" x=\"" + num(x) + "\" y=\"" + num(y - 10) + "\" width=\"32\" height=\"20\" fill=\"" +
           fill + "\"/>\n";
}
std::string sample_line(double x, double y, const std::string& cls, const std::string& style = "") {
    return "<line class=\"" + cls + "\" x1=\"" + num(x) + "\" y1=\"" + num(y) + "\" x2=\"" + num(x + 32) + "\" y2=\"" +
           num(y) + "\"" + style + "/>\n";
}

// The legend over a chart: entries left to right, a new line when the next
// would not fit. Each entry is a sample of its mark, drawn at (x, y), and text.
class Legend {
public:
    Legend(Svg& svg, double y) : svg_(svg), top_(y), y_(y) {}

    template <typename Sample>
    void add(Sample sample, const std::string& label) {
        const double entry = 44 + glyphs(label) * glyph_em * small_size;
        if (x_ > margin_left && x_ + entry > width - margin_right) {
            x_ = margin_left;
            y_ += small_size * 1.7;
        }
        svg_.body += sample(x_, y_);
        svg_.text(x_ + 44, y_ + small_size / 3, "legend", label);
        x_ += entry + 36;
    }
    // The height it took, with the gap under it.
    double height() const { return y_ - top_ + 56; }

private:
    Svg& svg_;
    double top_, y_;
    double x_ = margin_left;
};

// A line's name in the right margin, at the line's height, over two lines.
void line_name(Svg& svg, double x, double y, const std::string& cls, const std::string& name,
               const std::string& value) {
    svg.text(x, y - 4, cls, name);
    svg.text(x, y + small_size + 2, cls + "-value", value);
}

bool is_step(const ChartRow& row) {
    return !row.step.empty() &&
           std::all_of(row.step.begin(), row.step.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// One ladder chart; returns its height.
double draw_ladder(Svg& svg, const ChartReport& report, const ChartLadder& ladder) {
    double y = draw_heading(svg, ladder.track + " ladder");

    std::vector<const ChartRow*> bars;
    const ChartRow* library = nullptr;
    for (const auto& row : ladder.rows) {
        if (row.library && library == nullptr)
            library = &row;
        else
            bars.push_back(&row);
    }

    // Legend: only what this chart shows; the lines with their figures.
    const std::string unit = " " + ladder.unit;
    Legend legend(svg, y);
    if (std::any_of(bars.begin(), bars.end(), [](const ChartRow* r) { return is_step(*r) && !r->student; }))
        legend.add([](double x, double y) { return sample_swatch(x, y, blue); }, "step");
    if (std::any_of(bars.begin(), bars.end(), [](const ChartRow* r) { return r->student; }))
        legend.add([](double x, double y) { return sample_swatch(x, y, orange); }, "you: your kernel");
    if (std::any_of(bars.begin(), bars.end(), [](const ChartRow* r) { return !is_step(*r) && !r->student; }))
        legend.add([](double x, double y) { return sample_swatch(x, y, grey); }, "not a step");
    if (ladder.peak > 0)
        legend.add([](double x, double y) { return sample_line(x, y, "peak"); },
                   "device peak: " + format_amount(ladder.peak) + unit);
    if (library != nullptr && library->check_ok) {
        std::string label = library->title + ": " + format_amount(library->throughput) + unit + ", " +
                            format_ms(library->median_ms) + " ms";
        if (library->percent_of_peak) label += ", " + format_fraction(*library->percent_of_peak) + " of peak";
        legend.add([](double x, double y) { return sample_line(x, y, "library"); }, label);
    }
    y += legend.height();

    double largest = ladder.peak;
    for (const auto& row : ladder.rows)
        if (row.check_ok) largest = std::max(largest, row.throughput);
    const Axis axis = axis_for(largest);
    const double plot_top = y;
    const double plot_right = width - margin_right;
    const double base = plot_top + plot_height;
    draw_left_axis(svg, axis, plot_top, plot_right, ladder.unit);

    // The figures over the bars go on top of the lines across them.
    Svg labels;
    const double slot = (plot_right - margin_left) / std::max<std::size_t>(1, bars.size());
    const std::size_t columns = glyphs_that_fit(slot * 0.94, small_size);
    std::size_t title_lines = 0;
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const ChartRow& row = *bars[i];
        const double centre = margin_left + slot * (i + 0.5);
        const char* fill = row.student ? orange : is_step(row) ? blue : grey;
        if (row.check_ok) {
            const double top = axis.y(row.throughput, plot_top);
            svg.rect(centre - slot * 0.3, top, slot * 0.6, base - top, std::string("bar") + (row.student ? " you" : ""),
                     fill);
            double label_y = top - 10;
            if (row.percent_of_peak) {
                labels.text(centre, label_y, "percent", format_fraction(*row.percent_of_peak), "middle");
                label_y -= small_size * 1.2;
            }
            labels.text(centre, label_y, "value", format_amount(row.throughput), "middle");
            if (row.student) labels.text(centre, label_y - label_size * 1.2, "you", "you", "middle", orange);
        } else {
            svg.text(centre, base - 14, "wrong", "wrong", "middle");
        }
        // Under the axis: the step, its time, its title.
        double under = base + label_size * 1.3;
        svg.text(centre, under, "step", row.step, "middle", row.student ? orange : "");
        under += small_size * 1.3;
        svg.text(centre, under, "ms", format_ms(row.median_ms) + " ms", "middle");
        const auto lines = wrap(row.title, columns, 3);
        title_lines = std::max(title_lines, lines.size());
        for (const auto& line : lines) {
            under += small_size * 1.2;
            svg.text(centre, under, "row-title", line, "middle");
        }
    }

    // The lines across the bars, named in the right margin; the lower name
    // moves down when the two would overlap.
    const double name_x = plot_right + 12;
    double peak_y = -1;
    if (ladder.peak > 0) {
        peak_y = axis.y(ladder.peak, plot_top);
        svg.line(margin_left, peak_y, plot_right, peak_y, "peak");
        line_name(svg, name_x, peak_y, "peak-name", "peak", format_amount(ladder.peak) + unit);
    }
    if (library != nullptr) {
        if (library->check_ok) {
            const double line_y = axis.y(library->throughput, plot_top);
            svg.line(margin_left, line_y, plot_right, line_y, "library");
            double name_y = line_y;
            if (peak_y >= 0 && std::fabs(name_y - peak_y) < 2.4 * label_size) name_y = peak_y + 2.4 * label_size;
            line_name(svg, name_x, name_y, "library-name", ladder.library, format_amount(library->throughput) + unit);
        } else {
            svg.text(plot_right - 8, plot_top + label_size, "wrong",
                     library->title + ": wrong (" + library->check + ")", "end");
        }
    }

    svg.body += labels.body;

    y = base + label_size * 1.3 + small_size * 1.3 + title_lines * small_size * 1.2 + 12;
    y += draw_caption(svg, y, report, ladder.problem, ladder.notes);
    return y + 16;
}

// Polylines through the points that have a value: a missing one breaks it.
void draw_curve(Svg& svg, const std::vector<std::optional<std::pair<double, double>>>& points, const std::string& cls,
                const std::string& style) {
    std::string run;
    std::size_t count = 0;
    auto flush = [&]() {
        if (count >= 2) svg.body += "<polyline class=\"" + cls + "\" points=\"" + run + "\"" + style + "/>\n";
        run.clear();
        count = 0;
    };
    for (const auto& p : points) {
        if (!p) {
            flush();
            continue;
        }
        run += (count ? " " : "") + num(p->first) + "," + num(p->second);
        ++count;
    }
    flush();
}

// One sweep chart; returns its height.
double draw_sweep(Svg& svg, const ChartReport& report, const ChartSweep& sweep) {
    double y = draw_heading(svg, sweep.track + " " + sweep.lesson + ": " + sweep.title);

    // A series is drawn on the 0-to-1 axis only if every value it has is a fraction.
    std::vector<bool> drawn(sweep.series.size(), true);
    std::vector<std::string> notes = sweep.notes;
    for (std::size_t s = 0; s < sweep.series.size(); ++s) {
        bool any = false;
        for (const auto& point : sweep.points)
            if (point.values[s]) {
                any = true;
                if (*point.values[s] < 0 || *point.values[s] > 1) drawn[s] = false;
            }
        if (!drawn[s])
            notes.push_back("\"" + sweep.series[s] + "\" is not drawn: its values are not fractions from 0 to 1");
        else if (!any)
            notes.push_back("\"" + sweep.series[s] + "\" was not measured");
    }

    Legend legend(svg, y);
    legend.add(
        [](double x, double y) {
            return sample_line(x, y, "throughput") + "<circle class=\"marker\" cx=\"" + num(x + 16) + "\" cy=\"" +
                   num(y) + "\" r=\"6\"/>\n";
        },
        sweep.unit + " (left axis)");
    if (sweep.peak > 0)
        legend.add([](double x, double y) { return sample_line(x, y, "peak"); },
                   "device peak: " + format_amount(sweep.peak) + " " + sweep.unit);
    for (std::size_t s = 0; s < sweep.series.size(); ++s) {
        if (!drawn[s]) continue;
        const std::string style =
            std::string(" stroke=\"") + series_colours[s % 4] + "\" stroke-dasharray=\"" + series_dashes[s % 4] + "\"";
        legend.add([&](double x, double y) { return sample_line(x, y, "series", style); },
                   sweep.series[s] + " (right axis)");
    }
    y += legend.height();

    double largest = sweep.peak;
    for (const auto& point : sweep.points)
        if (point.check_ok) largest = std::max(largest, point.throughput);
    const Axis axis = axis_for(largest);
    const double plot_top = y;
    const double plot_right = width - margin_right;
    const double base = plot_top + plot_height;
    draw_left_axis(svg, axis, plot_top, plot_right, sweep.unit);
    if (std::any_of(drawn.begin(), drawn.end(), [](bool d) { return d; })) {
        for (int i = 0; i <= 4; ++i) {
            const double fy = plot_top + plot_height * (1 - i / 4.0);
            svg.line(plot_right, fy, plot_right + 8, fy, "axis");
            svg.text(plot_right + 14, fy + small_size / 3, "tick", format_fraction(i / 4.0));
        }
        svg.line(plot_right, plot_top, plot_right, base, "axis");
    }
    if (sweep.peak > 0) {
        const double py = axis.y(sweep.peak, plot_top);
        svg.line(margin_left, py, plot_right, py, "peak");
    }

    const std::size_t n = sweep.points.size();
    const double slot = (plot_right - margin_left) / std::max<std::size_t>(1, n);
    auto centre = [&](std::size_t i) { return margin_left + slot * (i + 0.5); };
    // Every k-th label, so that labels never overlap.
    std::size_t longest = 1;
    for (const auto& point : sweep.points) longest = std::max(longest, glyphs(point.label));
    const std::size_t every =
        std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil((longest * glyph_em * small_size + 12) / slot)));

    std::vector<std::optional<std::pair<double, double>>> curve;
    for (std::size_t i = 0; i < n; ++i) {
        const ChartPoint& point = sweep.points[i];
        svg.line(centre(i), base, centre(i), base + 8, "axis");
        if (i % every == 0) svg.text(centre(i), base + small_size * 1.6, "x-label", point.label, "middle");
        if (!point.check_ok) {
            curve.push_back(std::nullopt);
            svg.text(centre(i), base - 14, "wrong", "wrong", "middle");
            continue;
        }
        if (!point.timed) {
            curve.push_back(std::nullopt);
            continue;
        }
        curve.push_back(std::make_pair(centre(i), axis.y(point.throughput, plot_top)));
    }
    draw_curve(svg, curve, "throughput", "");
    Svg labels;  // the throughputs, over every curve
    for (std::size_t i = 0; i < n; ++i) {
        if (!curve[i]) continue;
        svg.body += "<circle class=\"point\" cx=\"" + num(curve[i]->first) + "\" cy=\"" + num(curve[i]->second) +
                    "\" r=\"7\"/>\n";
        if (n <= 12) {
            const ChartPoint& point = sweep.points[i];
            std::string label = format_amount(point.throughput);
            if (point.percent_of_peak) label += " (" + format_fraction(*point.percent_of_peak) + ")";
            labels.text(curve[i]->first, curve[i]->second - 16, "value", label, "middle");
        }
    }
    for (std::size_t s = 0; s < sweep.series.size(); ++s) {
        if (!drawn[s]) continue;
        std::vector<std::optional<std::pair<double, double>>> values;
        for (std::size_t i = 0; i < n; ++i) {
            const auto& v = sweep.points[i].values[s];
            if (v)
                values.push_back(std::make_pair(centre(i), plot_top + plot_height * (1 - *v)));
            else
                values.push_back(std::nullopt);
        }
        draw_curve(
            svg, values, "series",
            std::string(" stroke=\"") + series_colours[s % 4] + "\" stroke-dasharray=\"" + series_dashes[s % 4] + "\"");
        for (const auto& v : values)
            if (v)
                svg.body += "<rect class=\"series-point\" x=\"" + num(v->first - 6) + "\" y=\"" + num(v->second - 6) +
                            "\" width=\"12\" height=\"12\" fill=\"" + series_colours[s % 4] + "\"/>\n";
    }
    svg.body += labels.body;
    svg.text((margin_left + plot_right) / 2, base + small_size * 1.6 + label_size * 1.5, "parameter", sweep.parameter,
             "middle");

    y = base + small_size * 1.6 + label_size * 1.5 + 12;
    y += draw_caption(svg, y, report, sweep.problem, notes);
    return y + 16;
}

const char* const style_sheet = "<style>\n"
                                "text { fill: #222222; font-size: 18px; }\n"
                                ".heading { font-size: 40px; font-weight: bold; }\n"
                                ".report-title { font-size: 44px; font-weight: bold; }\n"
                                ".value, .step, .you { font-size: 22px; font-weight: bold; }\n"
                                ".caption, .unit, .parameter { font-size: 22px; }\n"
                                ".note { fill: #555555; }\n"
                                ".wrong { fill: #c62828; font-size: 22px; font-weight: bold; }\n"
                                ".grid { stroke: #e0e0e0; stroke-width: 1; }\n"
                                ".axis { stroke: #222222; stroke-width: 2; }\n"
                                ".peak { stroke: #c62828; stroke-width: 3; }\n"
                                ".peak-name, .peak-name-value { fill: #c62828; }\n"
                                ".peak-name, .library-name { font-size: 22px; font-weight: bold; }\n"
                                ".library { stroke: #222222; stroke-width: 3; stroke-dasharray: 16 8; }\n"
                                ".value, .percent, .you { paint-order: stroke; stroke: #ffffff; stroke-width: 5px; }\n"
                                ".throughput { fill: none; stroke: #3b6ea8; stroke-width: 4; }\n"
                                ".point, .marker { fill: #3b6ea8; }\n"
                                ".series { fill: none; stroke-width: 4; }\n"
                                "</style>\n";

}  // namespace

std::string render_chart_svg(const ChartReport& report, const ChartOptions& options) {
    Svg svg;
    double y = 0;
    if (!options.title.empty()) {
        svg.text(margin_left, 56, "report-title", options.title);
        y = 80;
    }
    bool any = false;
    for (const auto& ladder : report.ladders) {
        if (!options.track.empty() && ladder.track != options.track) continue;
        svg.open_group("chart ladder-chart", y);
        y += draw_ladder(svg, report, ladder) + 40;
        svg.close_group();
        any = true;
    }
    for (const auto& sweep : report.sweeps) {
        if (!options.track.empty() && sweep.track != options.track) continue;
        svg.open_group("chart sweep-chart", y);
        y += draw_sweep(svg, report, sweep) + 40;
        svg.close_group();
        any = true;
    }
    if (!any) {
        if (!options.track.empty()) throw ChartError("no ladder or sweep of the track \"" + options.track + "\"");
        throw ChartError("the report holds no ladder and no sweep");
    }
    const std::string height = num(std::ceil(y));
    std::string title = options.title;
    if (title.empty()) {
        for (const auto& ladder : report.ladders)
            if (options.track.empty() || ladder.track == options.track)
                title += (title.empty() ? "" : ", ") + ladder.track;
        for (const auto& sweep : report.sweeps)
            if (options.track.empty() || sweep.track == options.track)
                title += (title.empty() ? "" : ", ") + sweep.track + " " + sweep.lesson;
        title += " on " + report.device_name;
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
           num(width) + "\" height=\"" + height + "\" viewBox=\"0 0 " + num(width) + " " + height +
           "\" font-family=\"DejaVu Sans, Verdana, Arial, Helvetica, sans-serif\">\n<title>" + escape(title) +
           "</title>\n" + style_sheet +
           "<rect class=\"background\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n" + svg.body + "</svg>\n";
}

}  // namespace course
