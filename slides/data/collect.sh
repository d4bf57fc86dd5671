#!/bin/bash
# Measures the reports behind the course's figures on the GPU at hand:
#
#   slides/data/collect.sh BUILD_DIR GPU [NAME...]
#       e.g. slides/data/collect.sh build h100
#            slides/data/collect.sh build h100 hgemm hgemm-8192
#
# With NAMEs, only those reports are measured and replaced (each NAME is one
# `figure` line below): a track's reports can be measured again on their own,
# and a run too long for one sitting can be split. A report not named stays as
# it is committed.
#
# runs every command whose ladder a README or a deck quotes, each with
# --format json (with --profile for the *-profile reports: their columns come
# from a second run under ncu), into NAME.json; draws each report's charts
# (NAME*.png, NAME*.svg) with slides/charts.py (matplotlib); and writes
# slides/data/charts.list, the list of every report under slides/data/.
# slides/data/README.md says which figure each report backs. Commit
# slides/data/ and slides/charts/ together.
#
# Committed data is never destroyed: every report and chart is written to a
# scratch folder first, and slides/data/GPU/ and slides/charts/GPU/ are
# replaced only after the whole run is complete and checked (every command
# exited 0, every report is JSON from a GPU with every check ok). Otherwise
# nothing under slides/ changes, and the scratch folder is kept, so that a
# failure can be read.
# Exits 0 when the reports were replaced, 1 if a command or a check failed
# (or there is no GPU), 2 on a usage mistake.
#
#   slides/data/collect.sh --compare BUILD_DIR GPU [NAME...]
#       measures the same reports with few runs each (COMPARE_REPS, default
#       3; the --profile reports are left out: they take minutes under ncu,
#       and their ladders are the other reports' commands) and changes
#       nothing under slides/: slides/data/compare_reports.py compares them
#       with the committed ones on what the code decides (rows, titles,
#       checks, registers, shared memory, the notes' words) and prints every
#       difference. Run it after changing a kernel, a title or a note: a
#       difference means the committed reports, and the tables, charts and
#       texts drawn from them, describe code that is gone. Exits 0 when every
#       report is as committed, 1 otherwise.
set -eu

compare=0
if [ "${1:-}" = "--compare" ]; then
    compare=1
    shift
fi
if [ $# -lt 2 ]; then
    echo "usage: $0 [--compare] BUILD_DIR GPU [NAME...]   (GPU: a short lower-case name such as h100 or h200;" \
        "NAME: a report, as in the figure lines of $0)" >&2
    exit 2
fi
build_dir=$1
build=$(cd "$build_dir" && pwd)
gpu=$2
shift 2
only=("$@")
case $gpu in
    *[!a-z0-9]* | "")
        echo "$0: GPU \"$gpu\" must be lower-case letters and digits, such as h100" >&2
        exit 2
        ;;
esac
ladders=$build/lessons/course-ladders
if [ ! -x "$ladders" ]; then
    echo "$0: $ladders is missing: build first (meson compile -C $build_dir)" >&2
    exit 2
fi

slides=$(cd "$(dirname "$0")/.." && pwd)
# The charts need matplotlib, which a GPU machine may lack: the reports are
# measured and committed all the same, and the charts drawn from them later,
# anywhere (they need no GPU).
charts() { python3 "$slides/charts.py" "$@"; }
draw_charts=1
if [ $compare -eq 1 ]; then
    draw_charts=0  # nothing is committed: no charts to draw
elif ! charts probe; then
    draw_charts=0
    echo "$0: the charts will not be drawn here; after this run, draw them where matplotlib is installed:" \
        "meson compile -C BUILD_DIR charts-update" >&2
fi
# The scratch folder: data/ and charts/ as they will be committed.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/collect-$gpu.XXXXXX")
mkdir -p "$scratch/data" "$scratch/charts"
failed=0

# figure NAME ARGS...: course-ladders ARGS --format json > SCRATCH/data/NAME.json.
# course-ladders exits 1 when a check fails (77 when there is no GPU) and may
# still print a report: it is kept in the scratch folder, never committed.
figure() {
    local name=$1
    shift
    if [ ${#only[@]} -gt 0 ]; then
        local wanted=0 each
        for each in "${only[@]}"; do [ "$each" = "$name" ] && wanted=1; done
        [ $wanted -eq 1 ] || return 0
        measured+=("$name")
    fi
    if [ $compare -eq 1 ]; then
        local arg
        for arg in "$@"; do
            if [ "$arg" = --profile ]; then
                printf '%-32s left out: a --profile report (minutes under ncu)\n' "$gpu/$name.json"
                return 0
            fi
        done
        set -- "$@" --reps "${COMPARE_REPS:-3}"  # the last --reps counts
    fi
    local json=$scratch/data/$name.json
    local start status=0
    start=$(date +%s)
    "$ladders" "$@" --format json >"$json" 2>"$scratch/data/$name.stderr" || status=$?
    if [ $status -ne 0 ]; then
        echo "$gpu/$name: course-ladders $* exited $status ($(head -c 300 "$scratch/data/$name.stderr"))" >&2
        failed=1
        return
    fi
    rm -f "$scratch/data/$name.stderr"
    if [ $draw_charts -eq 1 ] && ! charts draw "$json" "$scratch/charts" >/dev/null; then
        echo "$gpu/$name: slides/charts.py could not draw $json" >&2
        failed=1
        return
    fi
    local summary
    summary=$(python3 -c '
import json, sys
report = json.load(open(sys.argv[1]))
tables = report.get("ladders", []) + report.get("sweeps", [])
rows = [r for t in tables for r in t.get("rungs", t.get("points", []))]
wrong = sum(1 for r in rows if not r["check_ok"])
if not tables or not rows or not report.get("device", {}).get("name"):
    print("no ladder, no sweep or no device: not a measured report")
    sys.exit(1)
# A run with --profile must hold what the profiler measured: without ncu (or
# without access to the counters) the program still prints its tables.
if "--profile" in sys.argv[2:]:
    profiled = [t for t in report.get("sweeps", []) if "achieved occupancy" in t.get("series", [])]
    unprofiled = [r for t in profiled for r in t["points"] if r["values"].get("achieved occupancy") is None]
    ladders = report.get("ladders", [])
    unprofiled += [t for t in ladders if not any((r.get("extra") or {}).get("limiter", "-") not in ("", "-")
                                                 for r in t["rungs"])]
    if unprofiled or not (profiled or ladders):
        print(f"{len(unprofiled)} point(s) or ladder(s) without profiler columns: ncu did not profile them")
        sys.exit(1)
print(f"{len(tables)} table(s), {len(rows)} rows, " + (f"{wrong} WRONG" if wrong else "all checks ok"))
sys.exit(1 if wrong else 0)
' "$json" "$@") || failed=1
    printf '%-32s course-ladders %-40s %s, %ss\n' "$gpu/$name.json" "$*" "$summary" "$(($(date +%s) - start))"
}

# Without a GPU nothing can be measured: stop before anything is written.
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "$0: no GPU (nvidia-smi -L failed); nothing measured, nothing under slides/ changed" >&2
    rm -rf "$scratch"
    exit 1
fi

measured=()
figure basics basics
figure reduction reduction --reps 50
figure reduction-2pow26 reduction --size 2^26 --reps 50
figure matmul matmul --reps 50
figure matmul-4095 matmul --size 4095
figure hgemm hgemm --reps 50
figure hgemm-8192 hgemm --size 8192
figure hgemm-4095 hgemm --size 4095
figure convolution convolution
figure convolution-8192 convolution --size 8192 --reps 50
figure convolution-block16x8 convolution --block 16x8
figure convolution-block16x20 convolution --block 16x20
figure convolution-block19x13 convolution --block 19x13
figure convolution-pitchpad4 convolution --pitch-pad 4
figure convolution-pitchpad1 convolution --pitch-pad 1
figure separable separable
figure separable-taps31 separable --taps 31
figure separable-8192 separable --size 8192 --reps 50
figure separable-8192-taps15 separable --size 8192 --taps 15
figure separable-8192-taps31 separable --size 8192 --taps 31 --reps 50
figure separable-8192-taps63 separable --size 8192 --taps 63
figure sobel sobel
figure sobel-8192 sobel --size 8192
figure pipeline pipeline
figure pipeline-8192 pipeline --size 8192
# The pipeline lessons read the --profile columns and the notes of each kernel.
figure pipeline-profile pipeline --profile
figure pipeline-8192-profile pipeline --size 8192 --profile
# The occupancy track, once course-ladders has it (its help lists the tracks).
if "$ladders" --help | grep -o 'tracks named: [^)]*' | grep -qw occupancy; then
    figure occupancy occupancy
    # The one report with --profile: its achieved occupancy (Nsight Compute,
    # ncu on the PATH) is what lessons 03 to 06 compare with the prediction.
    # It takes minutes.
    figure occupancy-profile occupancy --profile
else
    echo "$gpu/occupancy.json: skipped, this course-ladders has no occupancy track"
fi

# A NAME that no figure line has is a mistake (a typo would measure nothing).
for each in "${only[@]}"; do
    case " ${measured[*]} " in
        *" $each "*) ;;
        *)
            echo "$0: no report is called $each (the figure lines of $0 name them)" >&2
            failed=1
            ;;
    esac
done

if [ $failed -ne 0 ]; then
    echo "$0: not every report is complete and checked: slides/data/$gpu/ and slides/charts/$gpu/ are unchanged;" >&2
    echo "$0: this run's reports and their errors are in $scratch" >&2
    exit 1
fi

if [ $compare -eq 1 ]; then
    status=0
    python3 "$slides/data/compare_reports.py" "$slides/data/$gpu" "$scratch/data" || status=$?
    if [ $status -eq 0 ]; then
        rm -rf "$scratch"
    else
        echo "$0: nothing under slides/ changed; this run's reports are in $scratch" >&2
    fi
    exit $status
fi

# Every report is complete and checked: replace the committed ones, each
# file by a rename within its folder.
mkdir -p "$slides/data/$gpu" "$slides/charts/$gpu"
for json in "$scratch"/data/*.json; do
    name=$(basename "$json" .json)
    cp "$json" "$slides/data/$gpu/.$name.json.new" && mv "$slides/data/$gpu/.$name.json.new" "$slides/data/$gpu/$name.json"
done
rm -rf "$scratch"
# The tracks' measured tables (lessons/<track>/MEASURED.md), written from the reports.
python3 "$slides/data/tables.py" update "$(dirname "$slides")"

# The list Meson draws charts from: every report under slides/data/.
{
    sed -n '/^#/p' "$slides/data/charts.list"
    (cd "$slides/data" && find . -mindepth 2 -maxdepth 2 -name '*.json' | sed 's|^\./||; s/\.json$//' | LC_ALL=C sort)
} >"$slides/data/charts.list.tmp"
mv "$slides/data/charts.list.tmp" "$slides/data/charts.list"
echo "slides/data/charts.list: $(grep -vc '^#' "$slides/data/charts.list") report(s)"
# The committed charts, drawn again from every listed report (the footer of
# each names its report as slides/data/GPU/NAME.json), stale ones removed.
if [ $draw_charts -eq 1 ]; then
    charts update "$slides"
else
    echo "$0: slides/charts/ not drawn (no matplotlib): run meson compile -C BUILD_DIR charts-update where it is" >&2
fi
