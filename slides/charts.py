#!/usr/bin/env python3
"""The slides' charts: each report in slides/data/<gpu>/<name>.json, drawn by
course-chart, is committed as slides/charts/<gpu>/<name>.svg, so that the decks
show it when read on a code host. slides/data/charts.list names the reports.

  charts.py check  COURSE_CHART SLIDES_DIR   the committed charts are current
  charts.py update COURSE_CHART SLIDES_DIR   draw them again (charts-update)
  charts.py decks  BUILD_SLIDES_DIR SLIDES_DIR [--marp MARP] GPU/NAME=SVG...
      puts the charts that the build drew (and the decks' images) beside the
      HTML, as charts/<gpu>/<name>.svg, then runs Marp (the slides target)

Meson runs all three (slides/meson.build); they need nothing but Python 3.
"""
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

RERENDER = "meson compile -C build charts-update"
NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


def fail(message):
    print("charts: " + message, file=sys.stderr)
    sys.exit(1)


def listed(slides):
    """The entries of data/charts.list, checked: <gpu>/<name>, each once."""
    entries = []
    with open(os.path.join(slides, "data", "charts.list"), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            entry = line.strip()
            if not entry or entry.startswith("#"):
                continue
            parts = entry.split("/")
            if len(parts) != 2 or not all(NAME.match(p) for p in parts):
                fail(f"data/charts.list, line {number}: \"{entry}\" is not <gpu>/<name> "
                     "(lower-case letters, digits, '.', '_' and '-')")
            if entry in entries:
                fail(f"data/charts.list, line {number}: \"{entry}\" is listed twice")
            entries.append(entry)
    return entries


def files_under(folder, extension):
    """<gpu>/<name> of every folder/<gpu>/<name><extension>."""
    found = []
    if os.path.isdir(folder):
        for gpu in sorted(os.listdir(folder)):
            if os.path.isdir(os.path.join(folder, gpu)):
                found += [gpu + "/" + f[: -len(extension)]
                          for f in sorted(os.listdir(os.path.join(folder, gpu))) if f.endswith(extension)]
    return found


def render(course_chart, slides, entry, output):
    result = subprocess.run([course_chart, os.path.join(slides, "data", entry + ".json"), output],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        fail(result.stderr.strip() or f"course-chart failed on data/{entry}.json")


def check(course_chart, slides):
    entries = listed(slides)
    problems = []
    for entry in files_under(os.path.join(slides, "data"), ".json"):
        if entry not in entries:
            problems.append(f"data/{entry}.json is not in data/charts.list (slides/data/collect.sh writes the list)")
    for entry in files_under(os.path.join(slides, "charts"), ".svg"):
        if entry not in entries:
            problems.append(f"charts/{entry}.svg has no data/{entry}.json in data/charts.list")
    with tempfile.TemporaryDirectory() as scratch:
        for entry in entries:
            if not os.path.isfile(os.path.join(slides, "data", entry + ".json")):
                problems.append(f"data/charts.list names {entry}, but data/{entry}.json is missing")
                continue
            committed = os.path.join(slides, "charts", entry + ".svg")
            drawn = os.path.join(scratch, "chart.svg")
            render(course_chart, slides, entry, drawn)
            if not os.path.isfile(committed):
                problems.append(f"charts/{entry}.svg is missing")
            elif not filecmp.cmp(drawn, committed, shallow=False):
                problems.append(f"charts/{entry}.svg is not what data/{entry}.json draws")
    # A deck may only show a chart that exists.
    for deck in sorted(f for f in os.listdir(slides) if f.endswith(".md")):
        with open(os.path.join(slides, deck), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                for path in re.findall(r"\(charts/([^)\s]+)\.svg\)", line):
                    if path not in entries:
                        problems.append(f"{deck}:{number} shows charts/{path}.svg, which no listed report draws")
    for problem in problems:
        print("charts: slides/" + problem, file=sys.stderr)
    if problems:
        fail(f"{len(problems)} problem(s). Draw the charts again with `{RERENDER}` and commit "
             "slides/charts/ with slides/data/")
    print(f"charts: {len(entries)} committed chart(s) match their data")


def update(course_chart, slides):
    entries = listed(slides)
    for entry in entries:
        os.makedirs(os.path.dirname(os.path.join(slides, "charts", entry)), exist_ok=True)
        render(course_chart, slides, entry, os.path.join(slides, "charts", entry + ".svg"))
        print(f"charts: slides/charts/{entry}.svg")
    for entry in files_under(os.path.join(slides, "charts"), ".svg"):
        if entry not in entries:
            os.remove(os.path.join(slides, "charts", entry + ".svg"))
            print(f"charts: removed slides/charts/{entry}.svg (its report is no longer listed)")


def decks(build, slides, marp, drawn):
    # The HTML that Marp writes into the build folder finds charts/ and images/
    # beside it, as the decks in the source folder do.
    for pair in drawn:
        entry, svg = pair.split("=", 1)
        target = os.path.join(build, "charts", entry + ".svg")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(svg, target)
    if os.path.isdir(os.path.join(slides, "images")):
        shutil.copytree(os.path.join(slides, "images"), os.path.join(build, "images"), dirs_exist_ok=True)
    print(f"charts: {len(drawn)} chart(s) in {os.path.join(build, 'charts')}")
    if marp is None:
        print("slides: the Marp CLI is not installed. Install it (npm install -g @marp-team/marp-cli), "
              "then run: meson setup --reconfigure build", file=sys.stderr)
        sys.exit(1)
    sys.exit(subprocess.run([marp, "--html", "--allow-local-files", "--input-dir", slides, "--output", build]).returncode)


def main(args):
    if len(args) == 3 and args[0] in ("check", "update"):
        (check if args[0] == "check" else update)(args[1], args[2])
    elif len(args) >= 3 and args[0] == "decks":
        rest = args[3:]
        marp = None
        if rest[:1] == ["--marp"] and len(rest) >= 2:
            marp, rest = rest[1], rest[2:]
        decks(args[1], args[2], marp, rest)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
