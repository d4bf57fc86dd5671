#!/usr/bin/env python3
"""The charts (slides/plot.py), drawn from a sample report with the command a
student uses (`python3 slides/charts.py draw REPORT.json OUT_DIR`): one file
per chart and format, no other; 1280x720 PNGs and 16:9 SVGs; every step of
every ladder labelled with its title (its first clause where the whole titles
would squeeze the bars) and its figures, every sweep's ends
labelled, every chunk of the timeline drawn; no text under 16 pt (22 px at
1280x720); a malformed report refused with the field named.

  test_charts.py SOURCE_ROOT

Exits 77 (skipped) where no Python with matplotlib is found, as charts.py
looks for one.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

SKIPPED = 77
SVG = "{http://www.w3.org/2000/svg}"


def has_matplotlib():
    try:
        import matplotlib  # noqa: F401

        return True
    except ImportError:
        return os.access("/usr/bin/python3", os.X_OK) and subprocess.run(
            ["/usr/bin/python3", "-c", "import matplotlib"], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL).returncode == 0


def rung(step, title, throughput, student=False, library=False, ok=True):
    return {"step": step, "title": title, "student": student, "library": library, "median_ms": 1000 / throughput,
            "min_ms": 1, "max_ms": 1, "spread": 0.01, "runs": 20, "throughput": throughput,
            "percent_of_peak": throughput / 4000 if ok else None, "speedup_vs_previous": None,
            "speedup_vs_first": None, "fraction_of_library": None, "check_ok": ok,
            "check": "ok" if ok else "3 of 9 wrong"}


def point(x, label, throughput, values):
    timed = throughput is not None
    return {"x": x, "label": label, "median_ms": 1.0 if timed else None, "min_ms": 1.0 if timed else None,
            "max_ms": 1.0 if timed else None, "spread": 0.01 if timed else None, "runs": 20 if timed else 0,
            "throughput": throughput, "percent_of_peak": throughput / 4000 if timed else None, "values": values,
            "check_ok": True, "check": "ok"}


def sample():
    steps = [
        rung("01", "naive, one element per thread", 800),
        rung("02", "a title long enough to need two lines in the labels' column of the chart", 1500, student=True),
        rung("03", "wrong on purpose, $5 and 50%", 2000, ok=False),
        rung("04", "16-byte loads", 3100),
        rung("copy", "device-to-device copy", 3500),
        rung("ref", "The Library, its fastest call", 3300, library=True),
    ]
    transfers = [
        rung("pageable", "pageable host memory, in turn", 16),
        rung("pinned", "pinned host memory, in turn", 50),
        rung("08", "chunks on streams", 70),
        rung("ref", "the link alone", 98, library=True),
    ]
    cells = {"upload": "0000111122223333        ", "filter": "    00  11  22  33      ",
             "download": "      0000111122223333  "}
    timeline = ["timeline of step 08, its last timed run, from its chunks' events (4 chunks on 2 streams; "
                "0 to 0.2400 ms, 0.0100 ms a column; each mark is a chunk, 0 first):"]
    timeline += [f"  {stage:<8} |{line}|" for stage, line in cells.items()]
    occupancy = ["predicted occupancy", "achieved occupancy"]
    return {
        "device": {"name": "Test GPU 80GB", "arch": "sm_90", "sm_count": 132, "sm_clock_mhz": 1980,
                   "peak_dram_gbps": 4000.0, "peak_fp32_gflops": 60000.0, "l2_bytes": 52428800},
        "ladders": [
            {"track": "demo", "problem": "c = a + b, n = 2^26 floats, 768 MiB moved per run", "unit": "GB/s",
             "peak": 4000.0, "library": "library", "rungs": steps, "notes": ["a note"]},
            {"track": "demo", "problem": "the whole job, host to host", "unit": "GB/s", "peak": 0.0,
             "library": "link", "rungs": transfers, "notes": timeline},
        ],
        "sweeps": [
            {"track": "demo", "lesson": "03_registers", "title": "registers per thread", "problem": "a probe",
             "parameter": "registers per thread", "unit": "GB/s", "peak": 4000.0, "series": occupancy,
             "points": [point(x, str(x), 3000 / (1 + i), {"predicted occupancy": 1 / (1 + i),
                                                           "achieved occupancy": None if i == 2 else 0.9 / (1 + i)})
                        for i, x in enumerate([16, 32, 64, 128, 255])], "notes": []},
            {"track": "demo", "lesson": "02_calculator", "title": "occupancy vs threads per block",
             "problem": "computed", "parameter": "threads per block", "unit": "GB/s", "peak": 4000.0,
             "series": ["active blocks", "predicted occupancy"],
             "points": [point(x, str(x), None, {"active blocks": 2048 // x, "predicted occupancy": 1.0})
                        for x in (32, 64, 128, 256, 512, 1024)], "notes": []},
        ],
    }


def texts(svg_path):
    """Every text of an SVG, in order, and the font sizes used."""
    root = ElementTree.parse(svg_path).getroot()
    strings, sizes = [], []
    for element in root.iter(SVG + "text"):
        strings.append("".join(element.itertext()))
        # matplotlib writes the size into the style ("font: 16px 'DejaVu Sans'"
        # up to 3.6, "font-size: 16px" in later versions) or as an attribute.
        style = element.get("style", "")
        match = re.search(r"font-size:\s*([0-9.]+)px", style) or re.search(r"font:[^;]*?([0-9.]+)px", style)
        if match:
            sizes.append(float(match.group(1)))
        elif element.get("font-size"):
            sizes.append(float(element.get("font-size").rstrip("px")))
    return strings, sizes, root


def main(root):
    if not has_matplotlib():
        print("charts (CPU): SKIPPED: no Python with matplotlib (python3, /usr/bin/python3); install it with "
              "`sudo apt-get install -y python3-matplotlib`")
        return SKIPPED
    charts_py = os.path.join(root, "slides", "charts.py")
    failures = []

    def expect(condition, message):
        if not condition:
            failures.append(message)

    with tempfile.TemporaryDirectory() as scratch:
        report = sample()
        path = os.path.join(scratch, "run.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
        out = os.path.join(scratch, "charts")
        result = subprocess.run([sys.executable, charts_py, "draw", path, out], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            print(f"charts.py draw failed ({result.returncode}): {result.stderr}", file=sys.stderr)
            return 1
        names = ["run", "run-2", "run-timeline", "run-03_registers", "run-02_calculator"]
        want = sorted(f"{n}.{fmt}" for n in names for fmt in ("png", "svg"))
        got = sorted(os.listdir(out))
        expect(got == want, f"files: {got}, expected {want}")
        expect(sorted(os.path.basename(p) for p in result.stdout.split()) == want,
               f"the command printed {result.stdout!r}")
        for name in got:
            file = os.path.join(out, name)
            size = os.path.getsize(file)
            expect(4000 < size < 400000, f"{name}: {size} bytes")
            if name.endswith(".png"):
                with open(file, "rb") as f:
                    head = f.read(24)
                expect(head[:8] == b"\x89PNG\r\n\x1a\n", f"{name}: not a PNG")
                expect(struct.unpack(">II", head[16:24]) == (1280, 720), f"{name}: not 1280x720")
                continue
            strings, sizes, svg = texts(file)
            width, height = (float(svg.get(k).rstrip("pt")) for k in ("width", "height"))
            expect(abs(width / height - 16 / 9) < 1e-3, f"{name}: {width} x {height} is not 16:9")
            # The SVG's unit is a point: 1280 px wide is 1280 / width px a unit.
            expect(bool(sizes), f"{name}: no text with a font size this test can read")
            smallest = min(sizes) * 1280 / width if sizes else 0
            expect(not sizes or smallest >= 18, f"{name}: a text of {smallest:.1f} px at 1280x720")
            joined = " ".join(" ".join(s.split()) for s in strings)
            expect("Test GPU 80GB (sm_90)" in joined and path in joined, f"{name}: the GPU or the report unnamed")
            stem = name[: -len(".svg")]
            if stem in ("run", "run-2"):
                ladder = report["ladders"][0 if stem == "run" else 1]
                for r in ladder["rungs"]:
                    # a rung whose title starts with its step's word is labelled by its title alone
                    shown = r["title"] if r["title"].split(" ")[0] == r["step"] else f"{r['step']}  {r['title']}"
                    label = " ".join(shown.split())
                    if r["library"]:
                        expect(f"{r['step']}: {r['title']}" in joined, f"{name}: the library rung unnamed")
                        continue
                    expect(label in joined, f"{name}: step {r['step']} is not labelled ({label!r})")
                    if r["check_ok"]:
                        expect(f"{r['throughput']:.1f} GB/s" in joined or f"{r['throughput']:,.0f} GB/s" in joined,
                               f"{name}: step {r['step']}'s throughput is not shown")
                        # the percentage beside a bar says what it is a percentage of
                        if r.get("percent_of_peak") is not None:
                            expect(f"{100 * r['percent_of_peak']:.1f}% of peak" in joined,
                                   f"{name}: step {r['step']}'s share of the peak is not shown as such")
                    else:
                        expect("check failed" in strings, f"{name}: the failed step is not marked")
                expect(("you > 02" in joined) == (stem == "run"), f"{name}: the student's step is not marked")
                expect(("peak of this GPU: 4,000 GB/s" in joined) == (stem == "run"), f"{name}: the peak")
            elif stem == "run-timeline":
                chunks = [s for s in strings if s.isdigit()]
                expect(sorted(set(chunks)) == ["0", "1", "2", "3"], f"{name}: chunks labelled {chunks}")
                expect("stream 0" in strings and "stream 1" in strings, f"{name}: a lane per stream")
                for stage in ("upload", "filter", "download"):
                    expect(stage in strings, f"{name}: no {stage} in the legend")
            else:
                sweep = report["sweeps"][0 if stem == "run-03_registers" else 1]
                for p in (sweep["points"][0], sweep["points"][-1]):
                    expect(p["label"] in strings, f"{name}: point {p['label']} is not labelled")
                for series in sweep["series"]:
                    expect(any(s.startswith(series) for s in strings), f"{name}: series {series} not in the legend")

        # Nine long titles (as long as the hgemm track's) each take the lines
        # a row holds, and no label runs into the next: plot.py refuses to
        # draw a chart whose labels overlap, so this draw must succeed.
        words = "warp specialisation: a TMA producer warpgroup, two wgmma consumers, full and empty mbarriers"
        long_rungs = [rung(f"{i:02d}", f"{words}, variant {i}", 400 * i) for i in range(1, 10)]
        long_rungs.append(rung("ref", "the library", 4000, library=True))
        long_report = {"device": report["device"], "sweeps": [],
                       "ladders": [dict(report["ladders"][0], rungs=long_rungs, notes=[])]}
        long_path = os.path.join(scratch, "long.json")
        with open(long_path, "w", encoding="utf-8") as f:
            json.dump(long_report, f)
        drawn = subprocess.run([sys.executable, charts_py, "draw", long_path, os.path.join(scratch, "long")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        expect(drawn.returncode == 0, f"nine long titles: exit {drawn.returncode}, {drawn.stderr.strip()!r}")
        if drawn.returncode == 0:
            joined = " ".join(" ".join(t.split()) for t in texts(os.path.join(scratch, "long", "long.svg"))[0])
            for r in long_rungs[:-1]:
                expect(f"{r['step']}  {r['title']}" in joined or f"{r['step']} {r['title']}" in joined,
                       f"nine long titles: step {r['step']} is not labelled")

        # The same nine sentences after distinct first clauses ("variant 3: warp
        # specialisation, ..."): the whole titles would leave the bars a fifth of
        # the chart's width or less, so each row is labelled by its first clause.
        short_rungs = [rung(f"{i:02d}", f"variant {i}: {words}", 400 * i) for i in range(1, 10)]
        short_rungs.append(rung("ref", "the library", 4000, library=True))
        with open(long_path, "w", encoding="utf-8") as f:
            json.dump(dict(long_report, ladders=[dict(report["ladders"][0], rungs=short_rungs, notes=[])]), f)
        drawn = subprocess.run([sys.executable, charts_py, "draw", long_path, os.path.join(scratch, "short")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        expect(drawn.returncode == 0, f"first clauses: exit {drawn.returncode}, {drawn.stderr.strip()!r}")
        if drawn.returncode == 0:
            shown = [" ".join(t.split()) for t in texts(os.path.join(scratch, "short", "long.svg"))[0]]
            for r in short_rungs[:-1]:
                expect(f"{r['step']}  variant {int(r['step'])}" in shown or f"{r['step']} variant {int(r['step'])}" in shown,
                       f"first clauses: step {r['step']} is not labelled by its first clause")
            expect(not any("two wgmma consumers" in t for t in shown), "first clauses: a whole title is still drawn")

        # A malformed report is refused with the field named.
        del report["ladders"][0]["rungs"][1]["throughput"]
        with open(path, "w", encoding="utf-8") as f:
            json.dump(report, f)
        bad = subprocess.run([sys.executable, charts_py, "draw", path, os.path.join(scratch, "bad")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        expect(bad.returncode == 1 and "ladders[0].rungs[1]: no \"throughput\"" in bad.stderr,
               f"a malformed report: exit {bad.returncode}, {bad.stderr.strip()!r}")

    for failure in failures:
        print("charts (CPU): " + failure, file=sys.stderr)
    if failures:
        return 1
    print("charts (CPU): a sample report drew its 5 charts as PNG and SVG, each labelled")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
