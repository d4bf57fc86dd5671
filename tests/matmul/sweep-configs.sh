#!/usr/bin/env bash
# Times candidate configurations of matmul step 09's kernel on the GPU in this
# machine, each in the course's own ladder against cuBLAS, at several shapes,
# and prints one table. Step 10 compiles the same kernel for a list of
# configurations, so a candidate here is also a candidate for that list.
#
# Step 09's configuration is a set of compile-time constants at the top of
# solutions/matmul/09_async_copies/kernel.cu: the block tile MATMUL09_BM x
# MATMUL09_BN x MATMUL09_BK, the warp tile MATMUL09_WM x MATMUL09_WN, a lane's
# outputs MATMUL09_TM x MATMUL09_TN, MATMUL09_STAGES, MATMUL09_A_ROWS (0: A
# transposed, copied 4 bytes at a time; 1: A by rows, 16 bytes at a time) and
# MATMUL09_SM_THREADS (the threads per multiprocessor __launch_bounds__ asks
# room for: 512 caps registers at 128, 256 at 255). For each candidate this
# script compiles that file again with the candidate's -D defines, exactly as
# the build compiles it otherwise (the command ninja would run, read with
# `ninja -t commands`), in parallel, links a copy of course-ladders with it in
# a scratch folder, and runs `course-ladders matmul --steps 9 --size S` at
# each shape, one run at a time. The build folder itself is not changed: its
# own course-ladders keeps the default configuration. At each shape, before
# the candidates, the build's own program runs steps 08 to 10 (--steps 8-10):
# step 08 beside step 09 in one run, step 10's pick and its sweep of every
# configuration it compiles in.
#
# Usage: tests/matmul/sweep-configs.sh [BUILD_DIR [SIZE...]]
#   BUILD_DIR   a configured build (default build-gpu, as .ci/gpu-check makes it)
#   SIZE        --size values, timed in this order (default 4096 2048 8192 4095
#               4097 1000x3000x500)
#   REPS        environment: --reps at each shape (default 10) ...
#   LARGE_REPS  ... and at shapes of 2^38 multiply-adds or more, such as
#               8192^3 (default 3)
#   JOBS        environment: compiles at once (default: the cores)
#   BUILD_STEPS environment: 0 leaves out the build's own steps 08 to 10
#   BUDGET_S    environment: seconds from the script's start (the build of
#               course-ladders and the candidates included) after which no
#               further run starts (default 450); the runs left out are listed
#               as such, and the table of those made is printed all the same
#   CANDIDATES  environment: one "BM BN BK WM WN TM TN STAGES A_ROWS
#               SM_THREADS" per line (default: the list below)
#
# The table: per candidate and shape, the median time, TFLOP/s, the fraction
# of cuBLAS's speed in the same run (cuBLAS time / candidate time: 1.000x is
# cuBLAS's speed), registers and shared memory per block (the ladder's
# columns, of the kernel that ran), the check, and ptxas's registers and spill
# stores for the candidate's three kernels (whole tiles / 16-byte copies at
# the edges / 4-byte copies). The build's step 10 is followed by each of its
# configurations alone ("step 10 alone: ...", the one it picked marked). Then
# the fractions of cuBLAS again, one row per candidate and one column per
# shape. A candidate that does not compile (a
# static_assert says which tile rule it breaks) or does not launch (more shared
# memory than the GPU gives a block) is reported as such. Exit status: 0 when
# every candidate that ran passed its checks, 1 otherwise, 77 without a GPU.
set -euo pipefail

build=${1:-build-gpu}
if [ $# -gt 0 ]; then shift; fi
sizes=("$@")
if [ ${#sizes[@]} -eq 0 ]; then sizes=(4096 2048 8192 4095 4097 1000x3000x500); fi
reps=${REPS:-10}
large_reps=${LARGE_REPS:-3}
jobs=${JOBS:-$(nproc)}
build_steps=${BUILD_STEPS:-1}
budget=${BUDGET_S:-450}

# BM BN BK WM WN TM TN STAGES A_ROWS SM_THREADS. The first is step 09's
# default (step 08's tiles, three stages).
default_candidates="128 128 16 32 64 8 8 3 0 512
128 128 16 32 64 8 8 4 0 512
128 128 32 32 64 8 8 3 0 512
128 128 8 32 64 8 8 4 0 512
128 128 16 32 64 8 8 3 1 512
64 64 16 32 64 8 8 3 0 512
128 128 32 32 64 8 8 3 1 512
128 128 16 32 64 8 8 3 1 256
64 128 16 32 64 8 8 3 0 512
128 128 16 64 64 8 16 3 0 256
128 128 16 64 64 8 16 4 0 256
128 128 32 64 64 8 16 3 0 256
128 256 16 64 64 8 16 3 0 256
128 256 16 64 64 8 16 4 0 256
256 128 16 64 64 16 8 3 0 256
128 256 32 64 64 8 16 3 0 256"
candidates=${CANDIDATES:-$default_candidates}

# shellcheck source=tests/sweep-rebuild.sh
source "$(dirname "$0")/../sweep-rebuild.sh"
sweep_setup sweep-configs "$build" lessons/libmatmul-09-solution.a solutions/matmul/09_async_copies/kernel.cu

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results="$work/results.tsv"
: > "$results"

# --reps for a shape: fewer for the largest, whose runs take tens of ms.
reps_for() {
    python3 -c 'import sys; d = [int(x) for x in sys.argv[1].lower().split("x")]; d = d * 3 if len(d) == 1 else d
print(sys.argv[3] if d[0] * d[1] * d[2] >= 2 ** 38 else sys.argv[2])' "$1" "$reps" "$large_reps"
}

# Reads one ladder's JSON and appends its rows to the results: the rungs
# named in ROWS (step numbers, "ref" for cuBLAS), with the name given, and
# every point of step 10's sweep when asked.
table_rows() {
    python3 - "$@" >> "$results" << 'EOF'
import json, sys
path, name, size, ptxas, spills, wanted, sweep = sys.argv[1:8]
report = json.load(open(path))
ladder = report["ladders"][0]
rows = {r["step"]: r for r in ladder["rungs"]}
ref = rows.get("ref")
def line(label, r, extra, tail):
    vs = "%.3fx" % (ref["median_ms"] / r["median_ms"]) if ref and r["median_ms"] > 0 else "-"
    print("\t".join([label, size, "%.4f ms" % r["median_ms"], "%.1f TFLOP/s" % (r["throughput"] / 1e3),
                     vs + " cuBLAS", extra, "check ok" if r["check_ok"] else "CHECK FAILED: " + r["check"], tail]))
for step in wanted.split(","):
    if step not in rows:
        continue
    r = rows[step]
    extra = r.get("extra", {})
    label = name if name else "step %s (the build's)" % step
    line(label, r, "%s regs, %s" % (extra.get("regs", "?"), extra.get("smem/block", "?")),
         ("ptxas: " + ptxas.strip() + ", " + (spills.strip() or "?")) if ptxas else "")
if sweep == "1":
    for s in report.get("sweeps", []):
        for p in s["points"]:
            line("  step 10 alone: " + p["label"], p, "", "")
EOF
}

# Builds candidate n (its defines in $2) into $work/n (tests/sweep-rebuild.sh),
# and notes how that went in $work/n/status.
build_candidate() {
    local dir="$work/$1" status=0
    sweep_build "$dir" "$2" || status=$?
    case $status in
        0) echo ok > "$dir/status" ;;
        1) echo "does not compile" > "$dir/status" ;;
        *) echo "does not link" > "$dir/status" ;;
    esac
}

names=()
n=0
while read -r bm bn bk wm wn tm tn stages arows smthreads <&3; do
    [ -z "${bm:-}" ] && continue
    n=$((n + 1))
    copy=$([ "$arows" = 1 ] && echo "A by rows" || echo "A transposed")
    names[n]="${bm}x${bn}x${bk}, warp ${wm}x${wn}, lane ${tm}x${tn}, ${stages} stages, ${copy}, ${smthreads}/SM"
    defines="-DMATMUL09_BM=$bm -DMATMUL09_BN=$bn -DMATMUL09_BK=$bk -DMATMUL09_WM=$wm -DMATMUL09_WN=$wn"
    defines+=" -DMATMUL09_TM=$tm -DMATMUL09_TN=$tn -DMATMUL09_STAGES=$stages -DMATMUL09_A_ROWS=$arows"
    defines+=" -DMATMUL09_SM_THREADS=$smthreads"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    build_candidate "$n" "$defines" &
done 3<<< "$candidates"
count=$n

# Every candidate built before anything is timed: compiles on every core
# would slow the timed runs' own host code.
wait

# ptxas's registers and spill stores of each candidate's three kernels, in
# the order whole tiles / 16-byte copies at the edges / 4-byte copies (Edges
# 0, 1, 2).
ptxas=() spills=()
for n in $(seq 1 "$count"); do
    dir="$work/$n"
    if [ "$(cat "$dir/status" 2> /dev/null || echo "not built")" != ok ]; then
        grep -m 3 -i "error" "$dir/compile.log" >&2 || true
        printf '%s\t%s\t%s\n' "${names[n]}" "-" "$(cat "$dir/status" 2> /dev/null || echo "not built")" >> "$results"
        continue
    fi
    read -r p s < <(python3 - "$(sweep_ptxas "$dir/compile.log" 'EdgesE(\d)')" << 'EOF'
import sys
kernels = {key: (regs, spills) for key, regs, spills in (line.split() for line in sys.argv[1].splitlines())}
order = [kernels.get(e, ("?", "?")) for e in "012"]
print("/".join(k[0] for k in order) + "_regs", "/".join(k[1] for k in order) + "_bytes_spilled")
EOF
    )
    ptxas[n]=${p//_/ }
    spills[n]=${s//_/ }
done

# Shape by shape, in the order given (so that a run cut short by BUDGET_S has
# every candidate at the first shapes): the build's own steps 08 to 10 (step
# 08 beside the default of step 09 in one run, step 10's pick and every one
# of its configurations alone), then each candidate's step 09.
for size in "${sizes[@]}"; do
    if [ "$build_steps" != 0 ]; then
        if [ "$SECONDS" -ge "$budget" ]; then
            printf '%s\t%s\t%s\n' "steps 08 to 10 (the build's)" "$size" "not run: past BUDGET_S" >> "$results"
        else
            echo "== the build's steps 08 to 10 at $size" >&2
            if lessons/course-ladders matmul --steps 8-10 --size "$size" --reps "$(reps_for "$size")" --format json \
                > "$work/build-$size.json" 2> "$work/build-$size.err"; then
                table_rows "$work/build-$size.json" "" "$size" "" "" "08,09,10" 1 ||
                    printf '%s\t%s\t%s\n' "steps 08 to 10 (the build's)" "$size" "failed: report unreadable" >> "$results"
            else
                tail -n 2 "$work/build-$size.err" >&2
                printf '%s\t%s\t%s\n' "steps 08 to 10 (the build's)" "$size" \
                    "failed: $(tail -n 1 "$work/build-$size.err")" >> "$results"
            fi
        fi
    fi
    for n in $(seq 1 "$count"); do
        dir="$work/$n"
        name="${names[n]}"
        [ -n "${ptxas[n]:-}" ] || continue
        if [ "$SECONDS" -ge "$budget" ]; then
            printf '%s\t%s\t%s\n' "$name" "$size" "not run: past BUDGET_S" >> "$results"
            continue
        fi
        echo "== $name at $size" >&2
        if ! "$dir/course-ladders" matmul --steps 9 --size "$size" --reps "$(reps_for "$size")" --format json \
            > "$dir/$size.json" 2> "$dir/$size.err"; then
            tail -n 2 "$dir/$size.err" >&2
            printf '%s\t%s\t%s\n' "$name" "$size" "failed: $(tail -n 1 "$dir/$size.err")" >> "$results"
            continue
        fi
        table_rows "$dir/$size.json" "$name" "$size" "${ptxas[n]}" "${spills[n]}" "09" 0 ||
            printf '%s\t%s\t%s\n' "$name" "$size" "failed: report unreadable" >> "$results"
    done
done

echo
echo "matmul step 09 candidates ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)," \
    "--reps $reps, $large_reps at 2^38 multiply-adds and more):"
python3 - "$results" "${sizes[@]}" << 'EOF'
import sys
path, sizes = sys.argv[1], sys.argv[2:]
rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
header = ["candidate (or the build's step)", "shape", "median", "throughput", "of cuBLAS", "regs, smem/block",
          "check", "ptxas: whole tiles/16-byte/4-byte kernels"]
rows = [header] + rows
widths = [max(len(r[c]) for r in rows if c < len(r)) for c in range(max(len(r) for r in rows))]
for r in rows:
    print("  ".join(cell.ljust(widths[c]) for c, cell in enumerate(r)).rstrip())
# The fractions of cuBLAS again: one row per candidate, one column per shape.
print("\nfraction of cuBLAS's speed (cuBLAS time / time), per shape:")
names, table = [], {}
for r in rows[1:]:
    name = r[0].replace(" (picked)", "")
    if name not in table:
        names.append(name)
        table[name] = {}
    table[name][r[1]] = r[4].split()[0] if len(r) > 4 and r[4].endswith("cuBLAS") else r[2]
width = max(len(n) for n in names)
print(" " * width + "  " + "  ".join(s.rjust(13) for s in sizes))
for n in names:
    print(n.ljust(width) + "  " + "  ".join(table[n].get(s, "-")[:13].rjust(13) for s in sizes))
EOF
echo "($SECONDS s in all)"
! grep -q "CHECK FAILED\|failed:" "$results"
