#!/usr/bin/env python3
"""Do the committed reports still describe the course's code?

A report under slides/data/GPU/ holds what was measured (times, and what is
worked out from them) and what the code alone decides: the rows of each
ladder and their titles, whether each result was checked, the registers and
shared memory of each kernel, the problem each ladder states, the points of
each sweep and what is worked out at each (the occupancy track's predictions),
the notes the program adds. A kernel, a title or a note changed
after its reports were measured leaves the second part stale, and with it
every table, chart and README figure drawn from it.

This compares reports measured again (slides/data/collect.sh --compare, on
the same GPU, a few runs each) with the committed ones on that second part
only, and prints each difference:

  compare_reports.py COMMITTED_DIR FRESH_DIR

Every FRESH_DIR/NAME.json is compared with COMMITTED_DIR/NAME.json. In the
notes, numbers are masked (they are measured), and of a timeline's rows only
the name before the bar is kept. Exit status: 0 when every fresh report
agrees with its committed one, 1 when one differs (or has no committed
report, or was measured on another GPU), 2 on a usage mistake or an
unreadable report.
"""
import json
import os
import re
import sys

# The columns of a row that the code decides, not the clock.
STATIC_EXTRA = ("regs", "smem/block")
# The series of the occupancy track's sweeps that are worked out, not timed.
STATIC_SERIES = ("active blocks", "active warps", "predicted occupancy", "CUDA runtime's occupancy", "values held")
NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
TIMELINE_ROW = re.compile(r"^\s*([\w ]+?)\s*\|")


def masked(note):
    """A note with its measured parts masked: numbers, and the marks of a timeline's rows."""
    row = TIMELINE_ROW.match(note)
    if row:
        return row.group(1) + " |...|"
    return NUMBER.sub("#", note)


def row_name(row):
    return row.get("step") or row.get("label") or "?"


def tables_of(report):
    return [("ladder", t) for t in report.get("ladders", [])] + [("sweep", t) for t in report.get("sweeps", [])]


def compare_rows(where, old_rows, new_rows, out):
    old_names, new_names = [row_name(r) for r in old_rows], [row_name(r) for r in new_rows]
    if old_names != new_names:
        out.append(f"{where}: rows {' '.join(old_names)} committed, {' '.join(new_names)} now")
        return
    for old, new in zip(old_rows, new_rows):
        here = f"{where}, row {row_name(old)}"
        for field in ("title", "student", "library", "check_ok", "check", "x"):
            if old.get(field) != new.get(field):
                out.append(f"{here}: {field} {old.get(field)!r} committed, {new.get(field)!r} now")
        old_extra, new_extra = old.get("extra") or {}, new.get("extra") or {}
        if sorted(old_extra) != sorted(new_extra):
            out.append(f"{here}: columns {sorted(old_extra)} committed, {sorted(new_extra)} now")
        for field in STATIC_EXTRA:
            if field in old_extra and field in new_extra and old_extra[field] != new_extra[field]:
                out.append(f"{here}: {field} {old_extra[field]!r} committed, {new_extra[field]!r} now")
        if "values" in old or "values" in new:
            old_series, new_series = sorted(old.get("values") or {}), sorted(new.get("values") or {})
            if old_series != new_series:
                out.append(f"{here}: series {old_series} committed, {new_series} now")
            for series in STATIC_SERIES:
                old_value, new_value = (old.get("values") or {}).get(series), (new.get("values") or {}).get(series)
                if old_value != new_value:
                    out.append(f"{here}: {series} {old_value!r} committed, {new_value!r} now")


def compare(old, new):
    """The differences between two reports, on what the code decides."""
    out = []
    old_gpu, new_gpu = (old.get("device") or {}).get("name"), (new.get("device") or {}).get("name")
    if old_gpu != new_gpu:
        return [f"measured on {new_gpu!r}, committed on {old_gpu!r}: not comparable"]
    old_tables, new_tables = tables_of(old), tables_of(new)
    if [k for k, _ in old_tables] != [k for k, _ in new_tables]:
        return [f"{len(old_tables)} table(s) committed, {len(new_tables)} now"]
    for index, ((kind, a), (_, b)) in enumerate(zip(old_tables, new_tables)):
        where = f"{kind} {index + 1} ({a.get('track') or a.get('title') or '?'})"
        for field in ("track", "title", "lesson", "parameter", "problem", "unit", "series"):
            if a.get(field) != b.get(field):
                out.append(f"{where}: {field} {a.get(field)!r} committed, {b.get(field)!r} now")
        old_library, new_library = a.get("library"), b.get("library")
        if isinstance(old_library, dict) and isinstance(new_library, dict):
            old_library, new_library = old_library.get("name"), new_library.get("name")
        if old_library != new_library:
            out.append(f"{where}: library {old_library!r} committed, {new_library!r} now")
        compare_rows(where, a.get("rungs", a.get("points", [])), b.get("rungs", b.get("points", [])), out)
        old_notes = [masked(n) for n in a.get("notes") or []]
        new_notes = [masked(n) for n in b.get("notes") or []]
        for note in old_notes:
            if note not in new_notes:
                out.append(f"{where}: a committed note the program no longer prints: {note}")
        for note in new_notes:
            if note not in old_notes:
                out.append(f"{where}: a note the committed report lacks: {note}")
    return out


def main(argv):
    if len(argv) != 3 or not all(os.path.isdir(d) for d in argv[1:]):
        print(__doc__.strip().split("\n\n")[2], file=sys.stderr)
        return 2
    committed, fresh = argv[1], argv[2]
    names = sorted(f[:-5] for f in os.listdir(fresh) if f.endswith(".json"))
    if not names:
        print(f"compare_reports: no report in {fresh}", file=sys.stderr)
        return 2
    differing = 0
    for name in names:
        path = os.path.join(committed, name + ".json")
        try:
            new = json.load(open(os.path.join(fresh, name + ".json")))
            old = json.load(open(path)) if os.path.exists(path) else None
        except (OSError, ValueError) as error:
            print(f"compare_reports: {name}: {error}", file=sys.stderr)
            return 2
        if old is None:
            print(f"{name}: no committed report ({path})")
            differing += 1
            continue
        found = compare(old, new)
        if found:
            differing += 1
            print(f"{name}: differs from the committed report:")
            for line in found:
                print(f"  {line}")
        else:
            print(f"{name}: as committed")
    print(f"{len(names)} report(s) compared, {differing} differing")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
