#!/usr/bin/env python3
"""The course's charts, drawn with matplotlib (slides/plot.py says what each
chart shows) from the reports that course programs print with --format json.

  charts.py draw REPORT.json [OUT_DIR]
      draws every chart of one report (your own run, for instance) as
      <name>.png and <name>.svg, beside the report or into OUT_DIR
  charts.py check SLIDES_DIR   the committed charts are current (a test)
  charts.py update SLIDES_DIR  draw them again (`meson compile -C build charts-update`)
  charts.py all SLIDES_DIR OUT_DIR   draw them into OUT_DIR (`... charts`)
  charts.py probe              exit 0 where matplotlib is found, else say so

The reports are slides/data/<gpu>/<name>.json, listed in slides/data/charts.list;
their charts are committed as slides/charts/<gpu>/<name><suffix>.png (the decks
show these) and .svg (the READMEs show these).

Needs matplotlib (Debian/Ubuntu: python3-matplotlib). A python3 without it
(a pyenv or venv Python) hands over to /usr/bin/python3 when that one has it;
where none has it, every command says so, and `check` exits 77 (skipped).
"""
import os
import re
import subprocess
import sys
import tempfile

RERENDER = "meson compile -C build charts-update"
INSTALL = "sudo apt-get install -y python3-matplotlib"
NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
SKIPPED = 77  # Meson's exit code for a skipped test
FORMATS = ("png", "svg")


def fail(message, status=1):
    print("charts: " + message, file=sys.stderr)
    sys.exit(status)


def with_matplotlib():
    """Imports slides/plot.py, in a Python that has matplotlib."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        here = os.path.realpath(sys.executable)
        for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
            if os.environ.get("COURSE_CHARTS_HANDED_OVER") or not os.access(candidate, os.X_OK):
                continue
            if os.path.realpath(candidate) == here:
                continue
            if subprocess.run([candidate, "-c", "import matplotlib"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0:
                os.environ["COURSE_CHARTS_HANDED_OVER"] = "1"
                os.execv(candidate, [candidate, os.path.abspath(__file__)] + sys.argv[1:])
        return None
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import plot

    return plot


def need_matplotlib(status=1):
    plot = with_matplotlib()
    if plot is None:
        fail(f"matplotlib is missing ({sys.executable} has none, nor has /usr/bin/python3): install it with "
             f"`{INSTALL}`", status)
    return plot


def load(path):
    import json

    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        fail(f"{path}: {error}")


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


def files_under(folder, extensions):
    """<gpu>/<file> of every folder/<gpu>/<file> with one of the extensions."""
    found = []
    if os.path.isdir(folder):
        for gpu in sorted(os.listdir(folder)):
            if os.path.isdir(os.path.join(folder, gpu)):
                found += [gpu + "/" + f for f in sorted(os.listdir(os.path.join(folder, gpu)))
                          if f.rsplit(".", 1)[-1] in extensions]
    return found


def draw_listed(plot, slides, out_dir):
    """Draws every listed report into out_dir/<gpu>/; returns <gpu>/<file> of
    each chart drawn."""
    drawn = []
    for entry in listed(slides):
        source = os.path.join(slides, "data", entry + ".json")
        if not os.path.isfile(source):
            fail(f"data/charts.list names {entry}, but slides/data/{entry}.json is missing")
        gpu, name = entry.split("/")
        os.makedirs(os.path.join(out_dir, gpu), exist_ok=True)
        try:
            paths = plot.draw_report(load(source), f"slides/data/{entry}.json", os.path.join(out_dir, gpu), name,
                                     FORMATS)
        except plot.ReportError as error:
            fail(f"slides/data/{entry}.json: {error}")
        drawn += [gpu + "/" + os.path.basename(p) for p in paths]
    return drawn


def creator_version(svg_path):
    """The matplotlib version that drew a committed SVG (its metadata)."""
    try:
        with open(svg_path, encoding="utf-8") as f:
            match = re.search(r"Matplotlib v([0-9][^,<\s]*)", f.read(4096))
    except OSError:
        return None
    return match.group(1) if match else None


def shown_charts(root):
    """(file, line, <gpu>/<file>) of every chart a deck or a README shows."""
    shown = []
    pattern = re.compile(r"\((?:[./]*slides/)?charts/([a-z0-9]+/[^)\s]+\.(?:png|svg))\)")
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build")) and d not in ("subprojects", "node_modules")]
        for f in files:
            if f.endswith(".md"):
                path = os.path.join(folder, f)
                with open(path, encoding="utf-8") as text:
                    for number, line in enumerate(text, 1):
                        for chart in pattern.findall(line):
                            shown.append((os.path.relpath(path, root), number, chart))
    return shown


def check(slides):
    plot = with_matplotlib()
    if plot is None:
        print(f"charts: SKIPPED: matplotlib is missing ({sys.executable} has none, nor has /usr/bin/python3); "
              f"install it (`{INSTALL}`) to check slides/charts/")
        sys.exit(SKIPPED)
    import matplotlib

    entries = listed(slides)
    problems = []
    for entry in files_under(os.path.join(slides, "data"), ("json",)):
        if entry[: -len(".json")] not in entries:
            problems.append(f"data/{entry} is not in data/charts.list (slides/data/collect.sh writes the list)")
    committed = files_under(os.path.join(slides, "charts"), FORMATS)
    versions = {creator_version(os.path.join(slides, "charts", c)) for c in committed if c.endswith(".svg")}
    compare = versions == {matplotlib.__version__}
    with tempfile.TemporaryDirectory() as scratch:
        drawn = draw_listed(plot, slides, scratch)
        for chart in drawn:
            if chart not in committed:
                problems.append(f"charts/{chart} is missing")
            elif compare and not same_bytes(os.path.join(scratch, chart), os.path.join(slides, "charts", chart)):
                problems.append(f"charts/{chart} is not what its report draws")
        for chart in committed:
            if chart not in drawn:
                problems.append(f"charts/{chart} is drawn by no listed report")
    # Every chart a deck or a README shows exists.
    for path, number, chart in shown_charts(os.path.dirname(os.path.abspath(slides))):
        if chart not in drawn:
            problems.append(f"../{path}:{number} shows charts/{chart}, which no listed report draws")
    for problem in problems:
        print("charts: slides/" + problem, file=sys.stderr)
    if problems:
        fail(f"{len(problems)} problem(s). Draw the charts again with `{RERENDER}` and commit "
             "slides/charts/ with slides/data/")
    if compare:
        print(f"charts: {len(drawn)} committed chart(s) of {len(entries)} report(s) are what their reports draw")
    else:
        print(f"charts: {len(drawn)} committed chart(s) of {len(entries)} report(s), one for each chart its report "
              f"draws; their bytes not compared: they were drawn by matplotlib {', '.join(sorted(map(str, versions)))}"
              f", this is {matplotlib.__version__}, which may draw them a little differently")


def same_bytes(a, b):
    with open(a, "rb") as x, open(b, "rb") as y:
        return x.read() == y.read()


def update(slides):
    plot = need_matplotlib()
    target = os.path.join(slides, "charts")
    drawn = draw_listed(plot, slides, target)
    for chart in files_under(target, FORMATS):
        if chart not in drawn:
            os.remove(os.path.join(target, chart))
            print(f"charts: removed slides/charts/{chart} (no listed report draws it)")
    print(f"charts: {len(drawn)} chart(s) in slides/charts/")


def draw_all(slides, out_dir):
    plot = need_matplotlib()
    drawn = draw_listed(plot, slides, out_dir)
    print(f"charts: {len(drawn)} chart(s) in {out_dir}")


def draw(report_path, out_dir):
    plot = need_matplotlib()
    out_dir = out_dir or os.path.dirname(os.path.abspath(report_path))
    os.makedirs(out_dir, exist_ok=True)
    stem = os.path.basename(report_path)
    stem = stem[: -len(".json")] if stem.endswith(".json") else stem
    try:
        paths = plot.draw_report(load(report_path), report_path, out_dir, stem, FORMATS)
    except plot.ReportError as error:
        fail(f"{report_path}: {error}")
    for path in paths:
        print(path)


def main(args):
    if args == ["probe"]:
        need_matplotlib()
    elif len(args) in (2, 3) and args[0] == "draw":
        draw(args[1], args[2] if len(args) == 3 else None)
    elif len(args) == 2 and args[0] in ("check", "update"):
        (check if args[0] == "check" else update)(args[1])
    elif len(args) == 3 and args[0] == "all":
        draw_all(args[1], args[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
