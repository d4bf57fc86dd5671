"""The course's charts, drawn with matplotlib from a report that a course
program printed with --format json (slides/data/<gpu>/<name>.json, or a
student's own run). One chart per file, 16:9, 1280x720 px as PNG (the SVG is
the same drawing), every text at least 16 pt: 22 px at 1280x720, 18 px when
a deck shows the chart 1060 px wide under its title.

What a report becomes (chart_names says the file names):
- each ladder: a bar per row (its throughput; the student's row marked
  "you >"; a row whose check failed gets no bar, only "check failed"), the
  library rung and the device's peak as vertical lines named in the legend
  above the plot, the figures of each row in a column of their own right of
  the plot, so that no line ever crosses a label;
- each sweep: throughput against the swept parameter as a curve with its
  points marked, the series that are fractions (occupancy) as curves on a
  right axis in %, or, when there are none, the other series there;
  a sweep that was computed, not timed (the calculator's), draws its
  series alone;
- a ladder whose notes hold a chunk timeline (the separable track's
  transfers lesson): that timeline, a bar per chunk and stage, one lane per
  stream.
The GPU and the report's path are written at the bottom of every chart.

Needs matplotlib (Debian: python3-matplotlib); the output is deterministic
for one matplotlib version (slides/charts.py check relies on it).
"""
import io
import math
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

WIDTH_IN, HEIGHT_IN, DPI = 12.8, 7.2, 100  # 1280x720 px
TEXT_PT = 16  # the smallest text on a chart
TITLE_PT = 22
PX_PER_PT = DPI / 72

# Okabe and Ito's colour-blind-safe palette.
BLUE, ORANGE, SKY, GREEN, YELLOW, VERMILLION, PURPLE, GREY = (
    "#0072B2", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#D55E00", "#CC79A7", "#7f7f7f")
STEP_COLOUR, STUDENT_COLOUR, OTHER_COLOUR = BLUE, PURPLE, GREY
LIBRARY_COLOUR, PEAK_COLOUR = "#444444", VERMILLION
SERIES_COLOURS = [GREEN, PURPLE, SKY, ORANGE, "#000000"]
MARKERS = ["o", "s", "^", "D", "v"]

STYLE = {
    "font.family": "DejaVu Sans",
    "font.size": TEXT_PT,
    "axes.titlesize": TEXT_PT,
    "axes.labelsize": TEXT_PT,
    "xtick.labelsize": TEXT_PT,
    "ytick.labelsize": TEXT_PT,
    "legend.fontsize": TEXT_PT,
    "svg.fonttype": "none",  # text stays text: searchable, and small files
    "svg.hashsalt": "cuda-optimization-course",  # ids the same on every run
    "axes.spines.top": False,
    "axes.spines.right": False,
}


class ReportError(Exception):
    """A report that cannot be drawn; the message names the field."""



def axis_number(value, _position=None):
    """A tick label: 2,500, 250k, 1.5M (the axis's unit named in its label)."""
    if abs(value) >= 1e6:
        return f"{value / 1e6:g}M"
    if abs(value) >= 1e4:
        return f"{value / 1e3:g}k"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:g}"

def _field(obj, key, kind, where):
    if not isinstance(obj, dict) or key not in obj:
        raise ReportError(f"{where}: no \"{key}\"")
    value = obj[key]
    if kind is float:
        ok = value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise ReportError(f"{where}.{key}: expected {kind.__name__}, found {type(value).__name__}")
    return value


def check_report(report):
    """The fields the charts use, checked, so that a hand-edited or
    half-written report fails with the field's name, not a traceback."""
    if not isinstance(report, dict):
        raise ReportError("a report is a JSON object")
    device = _field(report, "device", dict, "report")
    _field(device, "name", str, "device")
    if "ladders" not in report and "sweeps" not in report:
        raise ReportError("report: neither \"ladders\" nor \"sweeps\"")
    for i, ladder in enumerate(report.get("ladders", [])):
        where = f"ladders[{i}]"
        for key in ("track", "problem", "unit", "library"):
            _field(ladder, key, str, where)
        _field(ladder, "peak", float, where)
        for j, rung in enumerate(_field(ladder, "rungs", list, where)):
            w = f"{where}.rungs[{j}]"
            for key in ("step", "title", "check"):
                _field(rung, key, str, w)
            for key in ("student", "library", "check_ok"):
                _field(rung, key, bool, w)
            for key in ("median_ms", "throughput", "percent_of_peak"):
                _field(rung, key, float, w)
        _field(ladder, "notes", list, where)
    for i, sweep in enumerate(report.get("sweeps", [])):
        where = f"sweeps[{i}]"
        for key in ("track", "lesson", "title", "problem", "parameter", "unit"):
            _field(sweep, key, str, where)
        _field(sweep, "peak", float, where)
        series = _field(sweep, "series", list, where)
        for j, point in enumerate(_field(sweep, "points", list, where)):
            w = f"{where}.points[{j}]"
            _field(point, "x", float, w)
            _field(point, "label", str, w)
            _field(point, "check_ok", bool, w)
            for key in ("median_ms", "throughput"):
                _field(point, key, float, w)
            values = _field(point, "values", dict, w)
            for name in series:
                if name in values:
                    _field(values, name, float, w + ".values")


# ---------------------------------------------------------------------------
# Names


def chart_names(report):
    """The charts a report draws, in order: (name suffix, kind, index).
    The first ladder is the report's own name; a later one gets "-2", "-3";
    a ladder's timeline "-timeline" (with its ladder's number after the
    first); sweeps "-<lesson>", numbered "-<lesson>-1", "-2" where a lesson
    has several."""
    names = []
    for i, ladder in enumerate(report.get("ladders", [])):
        names.append(("" if i == 0 else f"-{i + 1}", "ladder", i))
        if parse_timeline(ladder["notes"]) is not None:
            timelines = sum(1 for n in names if n[1] == "timeline")
            names.append(("-timeline" if timelines == 0 else f"-timeline-{timelines + 1}", "timeline", i))
    sweeps = report.get("sweeps", [])
    lessons = [s["lesson"] for s in sweeps]
    seen = {}
    for i, lesson in enumerate(lessons):
        slug = re.sub(r"[^a-z0-9_.-]+", "-", lesson.lower()).strip("-") or "sweep"
        if lessons.count(lesson) > 1:
            seen[lesson] = seen.get(lesson, 0) + 1
            slug += f"-{seen[lesson]}"
        names.append(("-" + slug, "sweep", i))
    return names


# ---------------------------------------------------------------------------
# Text


class Measure:
    """Text widths in pixels at the chart's resolution, for wrapping."""

    def __init__(self, fig):
        self.renderer = fig.canvas.get_renderer()

    def width(self, text, size=TEXT_PT, weight="normal"):
        w, _, _ = self.renderer.get_text_width_height_descent(
            text, FontProperties(family="DejaVu Sans", size=size, weight=weight), ismath=False)
        return w

    def wrap(self, text, width_px, size=TEXT_PT, weight="normal"):
        """Lines of at most width_px, broken between words (a word longer
        than the line stands alone)."""
        lines, line = [], ""
        for word in text.split(" "):
            candidate = word if not line else line + " " + word
            if line and self.width(candidate, size, weight) > width_px:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
        return lines


def no_math(text):
    """matplotlib reads $...$ as mathematics: a dollar in a title stays one."""
    return text.replace("$", r"\$")


def _figure():
    fig = plt.figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    return fig, Measure(fig)


def _header(fig, measure, title, subtitle):
    """The title and the problem (at most two lines) at the top; returns the
    figure fraction left below them."""
    margin = 20
    y = HEIGHT_IN * DPI - 14
    title_lines = measure.wrap(title, WIDTH_IN * DPI - 2 * margin, TITLE_PT, "bold")[:2]
    fig.text(margin / (WIDTH_IN * DPI), y / (HEIGHT_IN * DPI), no_math("\n".join(title_lines)), fontsize=TITLE_PT,
             fontweight="bold", va="top", ha="left")
    y -= len(title_lines) * TITLE_PT * PX_PER_PT * 1.2 + 4
    if subtitle:
        lines = measure.wrap(subtitle, WIDTH_IN * DPI - 2 * margin)
        if len(lines) > 2:
            # The report holds the whole text; the chart keeps what fits.
            lines = lines[:1] + [_shorten(measure, " ".join(lines[1:]), WIDTH_IN * DPI - 2 * margin)]
        fig.text(margin / (WIDTH_IN * DPI), y / (HEIGHT_IN * DPI), no_math("\n".join(lines)), fontsize=TEXT_PT,
                 va="top", ha="left", color="#333333")
        y -= len(lines) * TEXT_PT * PX_PER_PT * 1.2 + 6
    return y / (HEIGHT_IN * DPI)


def _shorten(measure, text, width_px):
    if measure.width(text) <= width_px:
        return text
    while text and measure.width(text + " ...") > width_px:
        text = text[:-1]
    return text.rstrip(" ,;") + " ..."


def _footer(fig, device, source):
    arch = device.get("arch", "")
    gpu = device["name"] + (f" ({arch})" if arch else "")
    fig.text(20 / (WIDTH_IN * DPI), 10 / (HEIGHT_IN * DPI), no_math(f"{gpu}    report: {source}"), fontsize=TEXT_PT,
             va="bottom", ha="left", color="#333333")


FOOTER_PX = 40  # the footer's line and its margin


def _number(value):
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 1:
        return f"{value:.1f}"
    return f"{value:.3g}"


def _ms(value):
    if value >= 100:
        return f"{value:.1f} ms"
    if value >= 1:
        return f"{value:.3f} ms"
    return f"{value:.4f} ms"


def _percent(fraction):
    return f"{100 * fraction:.1f}%"


# ---------------------------------------------------------------------------
# Ladders


# The narrowest the bars of a ladder may be before its rows are labelled by
# their titles' first clauses (draw_ladder): a fifth of the chart's width.
MIN_PLOT_PX = 0.2 * WIDTH_IN * DPI


def first_clause(title):
    """A title up to its first ", " or ": " outside parentheses ("warp specialisation: a TMA
    producer ..." -> "warp specialisation"); the whole title where it has neither."""
    depth = 0
    for i, c in enumerate(title):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0 and i > 0 and title.startswith((", ", ": "), i):
            return title[:i]
    return title


def ladder_figure(r, unit):
    """The text right of a ladder's bar: its throughput and share of the peak."""
    if not r["check_ok"]:
        return "check failed"
    text = f"{_number(r['throughput'])} {unit}"
    if r.get("percent_of_peak") is not None:
        text += f", {_percent(r['percent_of_peak'])} of peak"
    return text


def draw_ladder(ladder, device, source):
    fig, measure = _figure()
    top = _header(fig, measure, f"{ladder['track']} ladder, {device['name']}", ladder["problem"])
    unit = ladder["unit"]
    peak = ladder["peak"] or 0.0
    rows = [r for r in ladder["rungs"] if not r["library"]]
    library = next((r for r in ladder["rungs"] if r["library"]), None)

    # The legend: the lines' names and figures, above the plot.
    handles = []
    if library is not None:
        if library["check_ok"] and library["throughput"]:
            label = f"{library['step']}: {library['title']}: {_number(library['throughput'])} {unit}"
            handles.append(Line2D([], [], color=LIBRARY_COLOUR, linestyle="--", linewidth=3, label=label))
        else:
            handles.append(Line2D([], [], color=LIBRARY_COLOUR, linestyle="--", linewidth=3,
                                  label=f"{library['step']}: {library['title']}: check failed, not drawn"))
    if peak > 0:
        handles.append(Line2D([], [], color=PEAK_COLOUR, linewidth=3,
                              label=f"peak of this GPU: {_number(peak)} {unit}"))
    # A long name takes two lines rather than losing its end.
    width_px = WIDTH_IN * DPI - 40 - 90
    lines = 0
    for h in handles:
        wrapped = measure.wrap(h.get_label(), width_px)
        lines += len(wrapped)
        h.set_label(no_math("\n".join(wrapped)))
    legend_px = lines * TEXT_PT * PX_PER_PT * 1.2 + len(handles) * 8
    if handles:
        fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(20 / (WIDTH_IN * DPI), top - 0.005),
                   frameon=False, handlelength=2.5, borderaxespad=0, borderpad=0, labelspacing=0.45)

    # Geometry, in pixels: the labels' column, the plot, the figures' column.
    height_px = HEIGHT_IN * DPI
    plot_top = top * height_px - legend_px - 12
    plot_bottom = FOOTER_PX + 62  # the x axis' numbers and its title
    plot_h = plot_top - plot_bottom
    n = max(len(rows), 1)
    row_px = plot_h / n
    line_px = TEXT_PT * 1.389 * 1.15
    max_lines = max(1, min(3, int(row_px * 0.98 // line_px)))
    # The figures' column, right of the bars.
    figures = [ladder_figure(r, unit) for r in rows]
    figures_px = max([measure.width(f) for f in figures] + [measure.width("check failed")]) + 24

    def label_column(titles):
        """The labels (head, title) and the width of their column, in pixels."""
        labels = []
        for r, title in zip(rows, titles):
            # A rung named by a word whose title starts with that word ("pageable": "pageable host
            # memory: ...") is labelled by its title alone, not "pageable  pageable host memory".
            step = "" if title.split(" ")[0] == r["step"] else r["step"] + "  "
            labels.append((("you > " if r["student"] else "") + step, title))
        # Each title on one line where that leaves the plot room, else as
        # narrow as lets every title fit the lines a row has.
        width = min(520, max([measure.width(h + t) for h, t in labels] + [200]) + 4)
        while width < 600 and any(len(measure.wrap(h + t, width)) > max_lines for h, t in labels):
            width += 20
        # Titles that still need more lines than that (nine long ones) may take
        # the lines a row holds without their spacing, up to the lines whose
        # glyphs fit the row: the column widens until each does, so that no
        # label runs into its neighbour's.
        fit_lines = max(1, min(3, int(row_px // (TEXT_PT * PX_PER_PT))))
        while width < 720 and any(len(measure.wrap(h + t, width)) > fit_lines for h, t in labels):
            width += 20
        return labels, width

    labels, label_px = label_column([r["title"] for r in rows])
    # Where the whole titles leave the bars less than MIN_PLOT_PX (the hgemm
    # track's, which describe each step in a sentence), each row is labelled
    # by its title's first clause, up to the first ", " or ": " ("08  warp
    # specialisation"), if those still tell the rows apart and leave the bars
    # more room: the bars are what a room reads from the back, and the
    # lessons' tables have the whole titles.
    if WIDTH_IN * DPI - 20 - label_px - 14 - figures_px < MIN_PLOT_PX:
        short = [first_clause(r["title"]) for r in rows]
        short_labels, short_px = label_column(short)
        if len(set(short)) == len(short) and short_px < label_px:
            labels, label_px = short_labels, short_px
    left_px = 20 + label_px + 14
    right_px = WIDTH_IN * DPI - 20 - figures_px
    ax = fig.add_axes([left_px / (WIDTH_IN * DPI), plot_bottom / height_px, (right_px - left_px) / (WIDTH_IN * DPI),
                       plot_h / height_px])
    ys = list(range(len(rows)))[::-1]  # the first step on top
    top_value = max([r["throughput"] for r in rows if r["check_ok"]] + [peak] +
                    ([library["throughput"]] if library and library["check_ok"] else []) + [1e-9])
    ax.set_xlim(0, top_value * 1.04)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    for y, r in zip(ys, rows):
        if not r["check_ok"]:
            continue
        colour = STUDENT_COLOUR if r["student"] else STEP_COLOUR if r["step"].isdigit() else OTHER_COLOUR
        ax.barh(y, r["throughput"], height=0.62, color=colour, zorder=2)
    if library is not None and library["check_ok"] and library["throughput"]:
        ax.axvline(library["throughput"], color=LIBRARY_COLOUR, linestyle="--", linewidth=3, zorder=3)
    if peak > 0:
        ax.axvline(peak, color=PEAK_COLOUR, linewidth=3, zorder=3)
    ax.set_yticks(ys)
    ax.set_yticklabels(["\n".join(measure.wrap(no_math(h + t), label_px)) for h, t in labels],
                       linespacing=1.0)
    for tick, r in zip(ax.get_yticklabels(), rows):
        if r["student"]:
            tick.set_color(STUDENT_COLOUR)
            tick.set_fontweight("bold")
    ax.tick_params(axis="y", length=0, pad=10)
    # A chart whose labels run into each other is not drawn: each label must
    # end above the next one's top (the first step is the top row).
    boxes = [tick.get_window_extent(measure.renderer) for tick in ax.get_yticklabels()]
    for (upper, r), lower in zip(zip(boxes, rows), boxes[1:]):
        if upper.y0 < lower.y1 - 0.5:
            raise ReportError(f"step {r['step']}'s label runs into the next one's: the titles are too long for "
                              f"{len(rows)} rows")
    ax.set_xlabel(unit, labelpad=4)
    # Short tick labels without an offset: matplotlib would otherwise write
    # 1,000,000 GFLOP/s as "1.0" with "1e6" under the axis. Large values in
    # thousands (k) or millions (M) of the axis's unit.
    ax.xaxis.set_major_formatter(FuncFormatter(axis_number))
    ax.grid(axis="x", color="#dddddd", zorder=0)
    ax.spines["left"].set_visible(False)
    # The figures' column, right of the plot, at each row's height.
    for y, text in zip(ys, figures):
        ax.annotate(text, xy=(1, y), xycoords=("axes fraction", "data"), xytext=(12, 0),
                    textcoords="offset points", va="center", ha="left",
                    color=VERMILLION if text == "check failed" else "#222222")
    _footer(fig, device, source)
    return fig


# ---------------------------------------------------------------------------
# Sweeps


def _is_fraction_series(sweep, name):
    values = [p["values"].get(name) for p in sweep["points"]]
    values = [v for v in values if v is not None]
    return bool(values) and all(0 <= v <= 1.0001 for v in values) and "occupancy" in name


def draw_sweep(sweep, device, source):
    fig, measure = _figure()
    top = _header(fig, measure, f"{sweep['track']} {sweep['lesson']}: {sweep['title']}", sweep["problem"])
    points = sweep["points"]
    timed = [p for p in points if p["throughput"] is not None and p["check_ok"]]
    fractions = [s for s in sweep["series"] if _is_fraction_series(sweep, s)]
    others = [s for s in sweep["series"] if s not in fractions]
    unit = sweep["unit"]
    xs = [p["x"] for p in points]

    height_px = HEIGHT_IN * DPI
    legend_rows = 2
    plot_top = top * height_px - legend_rows * (TEXT_PT * PX_PER_PT * 1.2 + 8) - 14
    plot_bottom = FOOTER_PX + 66
    left_px, right_px = 120, WIDTH_IN * DPI - 110
    ax = fig.add_axes([left_px / (WIDTH_IN * DPI), plot_bottom / height_px, (right_px - left_px) / (WIDTH_IN * DPI),
                       (plot_top - plot_bottom) / height_px])
    ax.spines["right"].set_visible(True)

    # The x axis: a log scale where the parameter doubles (1, 2, 4, ...),
    # else linear; ticks at the points, thinned to what fits.
    positive = all(x > 0 for x in xs)
    if positive and len(xs) > 2 and max(xs) / min(xs) >= 8 and _doubling(xs):
        ax.set_xscale("log", base=2)
    ax.set_xlim(*_padded(ax, xs))
    ticks = _thin([(p["x"], p["label"]) for p in points], measure, right_px - left_px, ax.get_xscale())
    ax.set_xticks([t[0] for t in ticks])
    ax.set_xticklabels([no_math(t[1]) for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel(no_math(sweep["parameter"]), labelpad=4)
    ax.grid(color="#eeeeee", zorder=0)

    handles = []
    if timed:
        ax.plot([p["x"] for p in timed], [p["throughput"] for p in timed], color=BLUE, marker="o", markersize=9,
                linewidth=3, zorder=3)
        handles.append(Line2D([], [], color=BLUE, marker="o", markersize=9, linewidth=3, label=f"{unit} (left)"))
        wrong = [p for p in points if not p["check_ok"]]
        for p in wrong:
            ax.annotate("check failed", xy=(p["x"], 0), xytext=(0, 8), textcoords="offset points", ha="center",
                        color=VERMILLION, rotation=90)
        high = max(p["throughput"] for p in timed)
        peak = sweep["peak"] or 0.0
        if peak > 0 and high >= 0.3 * peak:
            ax.axhline(peak, color=PEAK_COLOUR, linewidth=3, zorder=2)
            handles.append(Line2D([], [], color=PEAK_COLOUR, linewidth=3, label=f"peak: {_number(peak)} {unit}"))
            ax.set_ylim(0, peak * 1.06)
        else:
            ax.set_ylim(0, high * 1.12)
        ax.set_ylabel(unit)
        right_series, right_is_fraction = (fractions, True) if fractions else (others, False)
        right = ax.twinx() if right_series else None
    else:
        # Computed, not timed: the series alone, fractions on the left.
        right_series, right_is_fraction = others, False
        right = ax.twinx() if others else None
        for k, name in enumerate(fractions):
            _series(ax, sweep, name, k, True, handles, "left")
        ax.set_ylim(0, 105)
        ax.set_ylabel("%")
    if right is not None:
        right.spines["right"].set_visible(True)
        start = len(fractions) if not timed else 0
        for k, name in enumerate(right_series):
            _series(right, sweep, name, start + k, right_is_fraction, handles, "right")
        if right_is_fraction:
            right.set_ylim(0, 105)
            right.set_ylabel("%")
        else:
            values = [p["values"].get(n) for p in points for n in right_series]
            values = [v for v in values if v is not None]
            right.set_ylim(0, (max(values) if values else 1) * 1.12)
            if len(right_series) == 1:
                right.set_ylabel(no_math(right_series[0]))
    # The legend: above the plot, in as many columns as fit its two rows.
    width_px = WIDTH_IN * DPI - 40
    for h in handles:
        h.set_label(no_math(h.get_label()))
    ncol = max(1, math.ceil(len(handles) / legend_rows))
    while ncol < len(handles) and _legend_width(measure, handles, ncol) > width_px:
        ncol += 1
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(20 / (WIDTH_IN * DPI), top - 0.005),
               ncol=ncol, frameon=False, handlelength=2.5, borderaxespad=0, borderpad=0, columnspacing=1.5,
               labelspacing=0.45)
    _footer(fig, device, source)
    return fig


def _legend_width(measure, handles, ncol):
    columns = [handles[i::ncol] for i in range(ncol)]
    return sum(max(measure.width(h.get_label()) for h in c) + 70 for c in columns if c)


def _series(ax, sweep, name, k, fraction, handles, side):
    colour = SERIES_COLOURS[k % len(SERIES_COLOURS)]
    marker = MARKERS[k % len(MARKERS)]
    # Runs of points with a value: a missing value breaks the curve.
    xs, ys = [], []
    for p in sweep["points"]:
        v = p["values"].get(name)
        xs.append(p["x"])
        ys.append(float("nan") if v is None else (100 * v if fraction else v))
    # Dashed, and drawn over the ones before, so that two series that agree
    # (the calculator's and the runtime's occupancy) both show.
    style = ["-", "--", ":", "-."][k % 4]
    ax.plot(xs, ys, color=colour, marker=marker, markersize=9 if k == 0 else 7, linewidth=3 if k == 0 else 2.5,
            linestyle=style, zorder=4 + k)
    label = name + (f" (%, {side})" if fraction else f" ({side})")
    handles.append(Line2D([], [], color=colour, marker=marker, linestyle=style, linewidth=2.5, label=label))


def _doubling(xs):
    ordered = sorted(set(xs))
    return all(abs(b / a - 2) < 1e-9 for a, b in zip(ordered, ordered[1:]))


def _padded(ax, xs):
    lo, hi = min(xs), max(xs)
    if ax.get_xscale() == "log":
        return lo / 1.25, hi * 1.25
    span = (hi - lo) or 1
    return lo - 0.04 * span, hi + 0.04 * span


def _thin(ticks, measure, plot_px, scale):
    """Every point's label where they fit side by side, else every k-th
    (the first and the last always)."""
    if not ticks:
        return ticks
    lo, hi = min(t[0] for t in ticks), max(t[0] for t in ticks)

    def position(x):
        if scale == "log":
            return (math.log2(x) - math.log2(lo)) / ((math.log2(hi) - math.log2(lo)) or 1) * plot_px
        return (x - lo) / ((hi - lo) or 1) * plot_px

    for step in range(1, len(ticks) + 1):
        chosen = ticks[::step]
        if ticks[-1] not in chosen:
            chosen = chosen[:-1] + [ticks[-1]] if len(chosen) > 1 else chosen + [ticks[-1]]
        fits = all(position(b[0]) - position(a[0]) >= (measure.width(a[1]) + measure.width(b[1])) / 2 + 14
                   for a, b in zip(chosen, chosen[1:]))
        if fits:
            return chosen
    return [ticks[0], ticks[-1]]


# ---------------------------------------------------------------------------
# The transfers timeline

TIMELINE_HEAD = re.compile(
    r"^timeline of step (\S+),.*\((\d+) chunks on (\d+) streams; 0 to ([0-9.]+) ms, ([0-9.]+) ms a column")
TIMELINE_LINE = re.compile(r"^\s+(\w+)\s+\|(.*)\|$")
MARKS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def parse_timeline(notes):
    """The chunk timeline a ladder's notes hold (transfers.cpp writes it: a
    line per stage, a column per time step, each chunk's mark where its
    stage ran), or None: {"step", "chunks", "streams", "end_ms",
    "column_ms", "bars": [(chunk, stage, start_ms, end_ms)], "stages"}."""
    for i, note in enumerate(notes):
        head = TIMELINE_HEAD.match(note)
        if not head:
            continue
        step, chunks, streams, end_ms = head.group(1), int(head.group(2)), int(head.group(3)), float(head.group(4))
        stages, bars = [], []
        for line in notes[i + 1:]:
            m = TIMELINE_LINE.match(line)
            if not m:
                break
            stage, cells = m.group(1), m.group(2)
            stages.append(stage)
            columns = len(cells)
            # The printed column width is rounded; the end time and the
            # number of columns give it exactly.
            column_ms = end_ms / columns
            for chunk in range(chunks):
                mark = MARKS[chunk] if chunk < len(MARKS) else "#"
                where = [c for c, ch in enumerate(cells) if ch == mark]
                if where and mark != "#":
                    bars.append((chunk, stage, where[0] * column_ms, (where[-1] + 1) * column_ms))
        if stages:
            return {"step": step, "chunks": chunks, "streams": streams, "end_ms": end_ms, "column_ms": column_ms,
                    "bars": bars, "stages": stages}
    return None


def draw_timeline(ladder, device, source):
    timeline = parse_timeline(ladder["notes"])
    fig, measure = _figure()
    streams = timeline["streams"]
    top = _header(fig, measure,
                  f"{ladder['track']} step {timeline['step']}: {timeline['chunks']} chunks on {streams} streams,"
                  " its last timed run",
                  f"chunk c on stream c mod {streams}; a bar per chunk and stage, from the chunks' events, to the "
                  f"{timeline['column_ms'] * 1000:.1f} \u00b5s steps of the report's timeline note")
    colours = {"upload": BLUE, "filter": ORANGE, "download": GREEN}
    stage_colours = [colours.get(s, SERIES_COLOURS[k % len(SERIES_COLOURS)]) for k, s in enumerate(timeline["stages"])]
    handles = [Patch(color=c, label=s) for s, c in zip(timeline["stages"], stage_colours)]
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(20 / (WIDTH_IN * DPI), top - 0.005),
               ncol=len(handles), frameon=False, borderaxespad=0, borderpad=0, handlelength=2)
    height_px = HEIGHT_IN * DPI
    plot_top = top * height_px - (TEXT_PT * PX_PER_PT * 1.2 + 8) - 14
    plot_bottom = FOOTER_PX + 62
    left_px, right_px = 130, WIDTH_IN * DPI - 30
    ax = fig.add_axes([left_px / (WIDTH_IN * DPI), plot_bottom / height_px, (right_px - left_px) / (WIDTH_IN * DPI),
                       (plot_top - plot_bottom) / height_px])
    end = timeline["end_ms"]
    ax.set_xlim(0, end * 1.01)
    ax.set_ylim(-0.6, streams - 0.4)
    px_per_ms = (right_px - left_px) / (end * 1.01)
    for chunk, stage, start, stop in timeline["bars"]:
        lane = streams - 1 - chunk % streams  # stream 0 on top
        colour = stage_colours[timeline["stages"].index(stage)]
        # A stage shorter than a step of the note shares its step with the
        # next stage: the narrower bar is drawn over the wider one.
        columns = round((stop - start) / timeline["column_ms"])
        ax.barh(lane, stop - start, left=start, height=0.6, color=colour, edgecolor="white", linewidth=1.5,
                zorder=2 + 1 / (1 + columns))
        label = str(chunk)
        if (stop - start) * px_per_ms >= measure.width(label) + 6:
            ax.text((start + stop) / 2, lane, label, ha="center", va="center", color="white", fontweight="bold",
                    zorder=4)
    ax.set_yticks(range(streams))
    ax.set_yticklabels([f"stream {s}" for s in range(streams)][::-1])
    ax.tick_params(axis="y", length=0)
    ax.set_xlabel("ms since chunk 0 started", labelpad=4)
    ax.grid(axis="x", color="#eeeeee", zorder=0)
    ax.spines["left"].set_visible(False)
    _footer(fig, device, source)
    return fig


# ---------------------------------------------------------------------------


def _save_png(fig, path):
    """1280x720, in a palette of 128 colours: a chart has few, and a third
    of the bytes of full colour."""
    from PIL import Image  # matplotlib's own dependency

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    buffer.seek(0)
    with Image.open(buffer) as image:
        image.convert("RGB").quantize(colors=128).save(path, format="PNG", optimize=True)


def draw_report(report, source, out_dir, stem, formats=("svg", "png")):
    """Draws every chart of a report into out_dir as <stem><suffix>.<format>;
    returns the paths written. `source` is the report's path as the footer
    names it."""
    check_report(report)
    written = []
    with plt.rc_context(STYLE):
        for suffix, kind, index in chart_names(report):
            if kind == "ladder":
                fig = draw_ladder(report["ladders"][index], report["device"], source)
            elif kind == "timeline":
                fig = draw_timeline(report["ladders"][index], report["device"], source)
            else:
                fig = draw_sweep(report["sweeps"][index], report["device"], source)
            for fmt in formats:
                path = os.path.join(out_dir, f"{stem}{suffix}.{fmt}")
                if fmt == "svg":
                    fig.savefig(path, format="svg", metadata={"Date": None})
                else:
                    _save_png(fig, path)
                written.append(path)
            plt.close(fig)
    return written
