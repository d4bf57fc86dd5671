#!/usr/bin/env python3
"""slides/data/compare_reports.py and `slides/data/collect.sh --compare`, on
the committed reports, without a GPU.

The comparison: every committed report of a GPU against itself agrees; the
same reports with every measured figure changed (times, percentages, the
numbers of the notes, a timeline's marks) still agree; and each change of
what the code decides is reported: a kernel's registers or shared memory, a
row's title, a row left out, a failed check, a note the program no longer
prints or a new one, an occupancy prediction, another GPU.

collect.sh --compare, run with a made-up course-ladders (it prints the
committed report that the command's figure line names, read from collect.sh
itself) and a made-up nvidia-smi: every report measured with a few runs
(--reps 3 last on the command line), the --profile reports left out, exit 0
when all agree, 1 with the difference printed when the program's output has
changed, and nothing under slides/ written either way.

  test_compare_reports.py SOURCE_ROOT
"""
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "slides", "data"))
import compare_reports  # noqa: E402

GPU = "h200"
COMMITTED = os.path.join(ROOT, "slides", "data", GPU)
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED: " + what)


def load(name):
    with open(os.path.join(COMMITTED, name + ".json")) as f:
        return json.load(f)


def rows(report):
    return [r for t in report.get("ladders", []) + report.get("sweeps", []) for r in t.get("rungs", t.get("points", []))]


def remeasured(report):
    """The report with every measured figure changed, as another run would change them."""
    out = copy.deepcopy(report)
    for row in rows(out):
        for field in ("median_ms", "min_ms", "max_ms", "throughput"):
            if isinstance(row.get(field), (int, float)):
                row[field] *= 1.07
        for key, value in (row.get("extra") or {}).items():
            if key not in compare_reports.STATIC_EXTRA and isinstance(value, str):
                row["extra"][key] = re.sub(r"\d", "7", value)
        for key, value in (row.get("values") or {}).items():
            if key not in compare_reports.STATIC_SERIES and isinstance(value, (int, float)):
                row["values"][key] = value * 1.07
    for table in out.get("ladders", []) + out.get("sweeps", []):
        notes = []
        for note in table.get("notes") or []:
            bar = note.find("|")
            if bar >= 0:  # a timeline's row: its marks move from run to run
                note = note[: bar + 1] + note[bar + 1 :].replace("0", "1").replace(" ", "2") + "3"
            notes.append(re.sub(r"\d+", "42", note))
        table["notes"] = notes
    return out


def differences(old, new):
    return compare_reports.compare(old, new)


# Every committed report agrees with itself, and with itself measured again.
names = sorted(f[:-5] for f in os.listdir(COMMITTED) if f.endswith(".json"))
expect(len(names) >= 20, f"the committed reports of {GPU} are there ({len(names)} found)")
for name in names:
    report = load(name)
    expect(differences(report, report) == [], f"{name} agrees with itself")
    found = differences(report, remeasured(report))
    expect(found == [], f"{name} agrees with itself measured again: {found[:2]}")

# Each change of what the code decides is reported.
hgemm = load("hgemm")


def changed(report, change):
    new = copy.deepcopy(report)
    change(new)
    return differences(report, new)


def first_row(report, step):
    return next(r for r in rows(report) if r.get("step") == step)


found = changed(hgemm, lambda r: first_row(r, "03")["extra"].__setitem__("regs", "96"))
expect(any("row 03: regs '105' committed, '96' now" in line for line in found), f"registers changed: {found}")
found = changed(hgemm, lambda r: first_row(r, "05")["extra"].__setitem__("smem/block", "128 KiB"))
expect(any("smem/block" in line for line in found), f"shared memory changed: {found}")
found = changed(hgemm, lambda r: first_row(r, "02").__setitem__("title", "WMMA, another tile"))
expect(any("row 02: title" in line for line in found), f"title changed: {found}")
found = changed(hgemm, lambda r: r["ladders"][0]["rungs"].pop(2))
expect(any("rows 01 02 03" in line for line in found), f"row left out: {found}")
found = changed(hgemm, lambda r: first_row(r, "04").__setitem__("check_ok", False))
expect(any("row 04: check_ok" in line for line in found), f"failed check: {found}")
found = changed(hgemm, lambda r: r["ladders"][0]["notes"].pop())
expect(any("no longer prints" in line for line in found), f"note gone: {found}")
found = changed(hgemm, lambda r: r["ladders"][0]["notes"].append("step 09 reaches 95.1% of cuBLAS"))
expect(any("lacks: step # reaches #% of cuBLAS" in line for line in found), f"new note: {found}")
found = changed(hgemm, lambda r: r["device"].__setitem__("name", "NVIDIA H100 80GB HBM3"))
expect(len(found) == 1 and "not comparable" in found[0], f"another GPU: {found}")
found = changed(hgemm, lambda r: r["ladders"][0].__setitem__("problem", r["ladders"][0]["problem"] + ", twice"))
expect(any("problem" in line for line in found), f"problem changed: {found}")
occupancy = load("occupancy")


def change_prediction(report):
    point = next(p for t in report["sweeps"] for p in t["points"] if "predicted occupancy" in (p.get("values") or {}))
    point["values"]["predicted occupancy"] = 0.125


found = changed(occupancy, change_prediction)
expect(any("predicted occupancy" in line for line in found), f"occupancy prediction changed: {found}")

# collect.sh --compare with a made-up course-ladders and nvidia-smi.
collect = os.path.join(ROOT, "slides", "data", "collect.sh")
figures = {}
for line in open(collect):
    m = re.match(r"^\s*figure (\S+) (.*)$", line)
    if m:
        figures[" ".join(m.group(2).split())] = m.group(1)
expect(len(figures) >= 20, f"collect.sh's figure lines are read ({len(figures)})")

FAKE_LADDERS = r'''#!/usr/bin/env python3
import json, os, sys
args = sys.argv[1:]
if args == ["--help"]:
    print("usage: course-ladders [TRACK...] (tracks named: basics reduction matmul hgemm occupancy)")
    sys.exit(0)
log = open(os.environ["FAKE_LOG"], "a")
log.write(" ".join(args) + "\n")
assert args[-2:] == ["--format", "json"] and args[-4] == "--reps", args
figures = json.loads(os.environ["FAKE_FIGURES"])
name = figures[" ".join(args[:-4])]
report = json.load(open(os.path.join(os.environ["FAKE_REPORTS"], name + ".json")))
if name == os.environ.get("FAKE_CHANGED"):
    for table in report["ladders"]:
        table["rungs"][-1]["title"] += ", renamed"
json.dump(report, sys.stdout)
'''


def run_collect(work, changed_name=None):
    env = dict(os.environ, FAKE_LOG=os.path.join(work, "log"), FAKE_FIGURES=json.dumps(figures),
               FAKE_REPORTS=COMMITTED, PATH=os.path.join(work, "bin") + os.pathsep + os.environ["PATH"],
               TMPDIR=work)
    if changed_name:
        env["FAKE_CHANGED"] = changed_name
    open(env["FAKE_LOG"], "w").close()
    return subprocess.run(["bash", collect, "--compare", os.path.join(work, "build"), GPU], env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)


def snapshot():
    out = {}
    for folder, _, files in os.walk(os.path.join(ROOT, "slides", "data")):
        for f in files:
            path = os.path.join(folder, f)
            out[path] = os.stat(path).st_mtime_ns
    return out


work = tempfile.mkdtemp()
try:
    os.makedirs(os.path.join(work, "build", "lessons"))
    os.makedirs(os.path.join(work, "bin"))
    ladders = os.path.join(work, "build", "lessons", "course-ladders")
    with open(ladders, "w") as f:
        f.write(FAKE_LADDERS)
    smi = os.path.join(work, "bin", "nvidia-smi")
    with open(smi, "w") as f:
        f.write("#!/bin/sh\necho 'GPU 0: made-up'\n")
    for path in (ladders, smi):
        os.chmod(path, 0o755)
    before = snapshot()

    result = run_collect(work)
    print(result.stdout)
    expect(result.returncode == 0, f"collect.sh --compare on unchanged output exits 0 (got {result.returncode})")
    runs = open(os.path.join(work, "log")).read().splitlines()
    profiled = [a for a in figures if "--profile" in a.split()]
    expect(len(runs) == len(figures) - len(profiled), f"every report but the --profile ones is measured ({len(runs)})")
    expect(all(r.split()[-4:-2] == ["--reps", "3"] for r in runs), "each with --reps 3 last")
    expect(all("--profile" not in r.split() for r in runs), "none under ncu")
    expect(result.stdout.count("left out: a --profile report") == len(profiled), "the --profile reports are named")
    expect(f"{len(runs)} report(s) compared, 0 differing" in result.stdout, "the summary line")

    result = run_collect(work, changed_name="hgemm")
    print(result.stdout)
    expect(result.returncode == 1, f"collect.sh --compare on a changed title exits 1 (got {result.returncode})")
    expect("hgemm: differs from the committed report:" in result.stdout and ", renamed" in result.stdout,
           "the changed title is printed")
    expect("nothing under slides/ changed" in result.stdout, "it says that nothing was written")
    expect(snapshot() == before, "nothing under slides/data/ was written")
finally:
    shutil.rmtree(work, ignore_errors=True)

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
