#!/usr/bin/env python3
"""Writes each track's measured tables from the committed reports, so that no one copies them.

    python3 slides/data/tables.py update SOURCE_ROOT   writes lessons/<track>/MEASURED.md
    python3 slides/data/tables.py check SOURCE_ROOT    exit 1 if one differs from its reports

For every track with reports in slides/data/<gpu>/<track>*.json, lessons/<track>/MEASURED.md
holds every ladder and sweep of those reports as markdown tables, GPU by GPU, each under the
command that measures it (from the table in slides/data/README.md) and the report's path, in
the program's number formats (times in ms with 4 significant digits or more, throughputs and
percentages with one decimal, ratios with two). The track README links to it for the full
tables; its prose quotes from it, and tests/check_figures.py checks those quotes.

`meson compile -C build tables-update` runs `update`; the CPU test "measured tables (CPU)"
runs `check`, which fails when a report was measured again and its tables were not written.
"""

import json
import re
import sys
from pathlib import Path

GPU_ORDER = ["h100", "h200"]


def ms(value):
    """As the ladder prints a time: 1 decimal from 100 ms, 3 from 1 ms, 4 below."""
    if value is None:
        return "-"
    return "%.1f" % value if value >= 100 else "%.3f" % value if value >= 1 else "%.4f" % value


def pct(fraction):
    return "-" if fraction is None or isinstance(fraction, str) else "%.1f%%" % (100.0 * fraction)


def ratio(value):
    return "-" if value is None else "%.2fx" % value


def rate(value):
    return "-" if value is None else "%.1f" % value


def cell(text):
    return str(text).replace("|", "\\|")


def commands(root):
    """report name -> course-ladders arguments, from slides/data/README.md's table."""
    found = {}
    for line in (root / "slides" / "data" / "README.md").read_text().splitlines():
        m = re.match(r"\|\s*`([a-z0-9-]+)\.json`\s*\|\s*`([^`]*)`", line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def device_line(device):
    return "%s (%s, %d SMs at %d MHz; peaks %.0f GB/s DRAM, %.1f TFLOP/s FP32)" % (
        device["name"], device["arch"], device["sm_count"], device["sm_clock_mhz"], device["peak_dram_gbps"],
        device["peak_fp32_gflops"] / 1000.0)


def ladder_table(ladder):
    unit = ladder["unit"]
    library = {"copy": "copy", "cub": "CUB", "cublas": "cuBLAS", "npp": "NPP"}.get(ladder.get("library"), "library")
    extra = []
    for rung in ladder["rungs"]:
        for key in (rung.get("extra") or {}):
            if key not in extra:
                extra.append(key)
    head = ["step", "kernel", "median ms", "spread", unit, "% peak", "vs prev", "vs 01", "% of " + library] + extra
    out = ["| " + " | ".join(head) + " | check |", "|" + " --- |" * (len(head) + 1)]
    for r in ladder["rungs"]:
        row = [r["step"], r["title"], ms(r["median_ms"]), pct(r["spread"]), rate(r["throughput"]),
               pct(r["percent_of_peak"]), ratio(r["speedup_vs_previous"]), ratio(r["speedup_vs_first"]),
               pct(r["fraction_of_library"])]
        row += [(r.get("extra") or {}).get(k, "") for k in extra]
        row.append(r["check"] if r["check_ok"] else "**" + r["check"] + "**")
        out.append("| " + " | ".join(cell(c) for c in row) + " |")
    return out


def series_value(name, value):
    if value is None:
        return "-"
    if "occupancy" in name:
        return pct(value)
    if name.startswith("time vs"):
        return ratio(value)
    return "%.6g" % value


def sweep_table(sweep):
    series = sweep.get("series", [])
    head = [sweep.get("parameter", "x"), "median ms", "spread", sweep["unit"], "% peak"] + series
    out = ["| " + " | ".join(head) + " | check |", "|" + " --- |" * (len(head) + 1)]
    for p in sweep["points"]:
        row = [p["label"], ms(p["median_ms"]), pct(p["spread"]), rate(p["throughput"]), pct(p["percent_of_peak"])]
        row += [series_value(s, p.get("values", {}).get(s)) for s in series]
        row.append(p["check"] if p["check_ok"] else "**" + p["check"] + "**")
        out.append("| " + " | ".join(cell(c) for c in row) + " |")
    return out


def track_page(root, track, reports, args):
    title = track[0].upper() + track[1:]
    out = ["# %s: the measured tables" % title, "",
           "<!-- Written by slides/data/tables.py from slides/data/<gpu>/%s*.json: do not edit; -->" % track,
           "<!-- `meson compile -C build tables-update` writes it again. -->", "",
           "Every ladder and sweep of the committed reports of this track, GPU by GPU, as",
           "`build/lessons/course-ladders` printed them with `--format json`. Each section names the",
           "command that measures it again, and each table its report.",
           "[slides/data/README.md](../../slides/data/README.md) says which figures each report backs;",
           "`slides/data/collect.sh BUILD_DIR GPU` measures them all on the GPU at hand.", ""]
    for name in sorted(reports, key=lambda n: (n != track, n)):
        command = args.get(name)
        out.append("## `%s`" % name)
        out.append("")
        out.append("`build/lessons/course-ladders %s --format json`" % command if command else
                   "(no command listed for it in slides/data/README.md)")
        out.append("")
        for gpu in GPU_ORDER + sorted(set(reports[name]) - set(GPU_ORDER)):
            if gpu not in reports[name]:
                continue
            data = reports[name][gpu]
            out.append("### %s: [`slides/data/%s/%s.json`](../../slides/data/%s/%s.json)" % (
                data["device"]["name"], gpu, name, gpu, name))
            out.append("")
            out.append(device_line(data["device"]) + ".")
            out.append("")
            for ladder in data.get("ladders", []):
                out.append("%s: %s" % (ladder["track"], ladder["problem"]))
                out.append("")
                out += ladder_table(ladder)
                out.append("")
                for note in ladder.get("notes", []):
                    out.append("- " + note)
                if ladder.get("notes"):
                    out.append("")
            for sweep in data.get("sweeps", []):
                out.append("%s %s, %s: %s" % (sweep["track"], sweep.get("lesson", ""), sweep.get("title", ""),
                                              sweep.get("problem", "")))
                out.append("")
                out += sweep_table(sweep)
                out.append("")
                for note in sweep.get("notes", []):
                    out.append("- " + note)
                if sweep.get("notes"):
                    out.append("")
    while out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def pages(root):
    tracks = sorted(p.name for p in (root / "lessons").iterdir() if (p / "meson.build").exists())
    reports = {}
    for path in sorted((root / "slides" / "data").glob("*/*.json")):
        track = next((t for t in tracks if path.stem == t or path.stem.startswith(t + "-")), None)
        if track:
            reports.setdefault(track, {}).setdefault(path.stem, {})[path.parent.name] = json.loads(path.read_text())
    args = commands(root)
    return {root / "lessons" / t / "MEASURED.md": track_page(root, t, reports[t], args) for t in sorted(reports)}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("update", "check"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    root = Path(sys.argv[2])
    stale = 0
    for path, text in pages(root).items():
        if sys.argv[1] == "update":
            if not path.exists() or path.read_text() != text:
                path.write_text(text)
                print("wrote", path.relative_to(root))
        elif not path.exists() or path.read_text() != text:
            print("%s differs from its reports: run `meson compile -C build tables-update`" % path.relative_to(root))
            stale += 1
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
