#!/usr/bin/env bash
# Times candidate tile configurations of hgemm step 05 on the GPU in this
# machine, each in the course's own ladder, and prints one table.
#
# Step 05's tile shape and stages are compile-time constants at the top of
# solutions/hgemm/05_swizzled/kernel.cu (HGEMM05_BM, HGEMM05_BN, HGEMM05_BK,
# HGEMM05_WARPS_M, HGEMM05_WARPS_N, HGEMM05_STAGES). For each candidate this
# script compiles that file again with the candidate's -D defines, exactly as
# the build compiles it otherwise (the command ninja would run, read with
# `ninja -t commands`), links a copy of course-ladders with it in a scratch
# folder, and runs `course-ladders hgemm --size S --format json` at each size.
# The build folder itself is not changed: its own course-ladders keeps the
# default configuration.
#
# Usage: tests/hgemm/sweep-tiles.sh [BUILD_DIR [SIZE...]]
#   BUILD_DIR  a configured build (default build-gpu, as .ci/gpu-check makes it)
#   SIZE       --size values (default 4096 8192)
#   REPS       environment: --reps for each ladder (default 20)
#   CANDIDATES environment: the candidates, one "BM BN BK WARPS_M WARPS_N
#              STAGES" per line (default: the list below)
#
# The table: per candidate and size, step 05's median time, its TFLOP/s, its
# fraction of cuBLAS's speed in the same ladder (cuBLAS time / step 05 time),
# registers and shared memory per block (the ladder's columns), whether its
# result passed the check, and ptxas's registers and spills for the compile.
# A candidate that does not compile (a static_assert says which tile rule it
# breaks) or does not launch (more shared memory than the GPU gives a block)
# is reported as such. Exit status: 0 when every candidate that ran passed
# its checks, 1 otherwise, 77 without a GPU.
set -euo pipefail

build=${1:-build-gpu}
if [ $# -gt 0 ]; then shift; fi
sizes=("$@")
if [ ${#sizes[@]} -eq 0 ]; then sizes=(4096 8192); fi
reps=${REPS:-20}

# BM BN BK WARPS_M WARPS_N STAGES: the block tile the other
# way round (256 x 128 and 128 x 256), 32 or 64 terms per stage, 3 or 4
# stages. Every one has 64 x 64 warp tiles (the grading test's rule for step
# 05) and fits the 227 KiB a Hopper block may have.
default_candidates="128 256 32 2 4 4
256 128 32 4 2 4
256 128 64 4 2 3
256 128 64 4 2 4"
candidates=${CANDIDATES:-$default_candidates}

# shellcheck source=tests/sweep-rebuild.sh
source "$(dirname "$0")/../sweep-rebuild.sh"
sweep_setup sweep-tiles "$build" lessons/libhgemm-05-solution.a solutions/hgemm/05_swizzled/kernel.cu

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results="$work/results.tsv"
: > "$results"

n=0
while read -r bm bn bk wm wn stages <&3; do
    [ -z "${bm:-}" ] && continue
    n=$((n + 1))
    name="${bm}x${bn}x${bk}, ${wm}x${wn} warps, ${stages} stages"
    dir="$work/$n"
    mkdir -p "$dir"
    defines="-DHGEMM05_BM=$bm -DHGEMM05_BN=$bn -DHGEMM05_BK=$bk -DHGEMM05_WARPS_M=$wm -DHGEMM05_WARPS_N=$wn"
    defines+=" -DHGEMM05_STAGES=$stages"
    echo "== $name" >&2
    status=0
    sweep_build "$dir" "$defines" || status=$?
    if [ $status -eq 1 ]; then
        grep -m 3 -i "error" "$dir/compile.log" >&2 || true
        printf '%s\t%s\t%s\n' "$name" "-" "does not compile" >> "$results"
        continue
    fi
    # ptxas's registers and spill stores, per kernel of the file: each
    # pipeline's whole-tile and checked instantiations.
    ptxas=$(sweep_ptxas "$dir/compile.log" '(hgemm_\w+?)INS_8PipelineILi(\d+)ELi(\d+)EEELb([01])E' |
        awk -F'[ ,]' '{ printf "%s%s<%s,%s,%s> %s regs %s B spilled", (NR > 1 ? "; " : ""), $1, $2, $3,
                        ($4 == 1 ? "whole" : "checked"), $5, $6 } END { if (NR == 0) printf "?" }')
    if [ $status -eq 2 ]; then
        tail -n 3 "$dir/link.log" >&2
        printf '%s\t%s\t%s\n' "$name" "-" "does not link" >> "$results"
        continue
    fi
    for size in "${sizes[@]}"; do
        if ! "$dir/course-ladders" hgemm --size "$size" --reps "$reps" --format json > "$dir/$size.json" \
            2> "$dir/$size.err"; then
            tail -n 2 "$dir/$size.err" >&2
            printf '%s\t%s\t%s\n' "$name" "$size" "failed: $(tail -n 1 "$dir/$size.err")" >> "$results"
            continue
        fi
        python3 - "$dir/$size.json" "$name" "$size" "$ptxas" >> "$results" << 'EOF'
import json, sys
path, name, size, ptxas = sys.argv[1:5]
ladder = json.load(open(path))["ladders"][0]
rows = {r["step"]: r for r in ladder["rungs"]}
mine, ref = rows["05"], rows.get("ref")
vs = "%.3fx" % (ref["median_ms"] / mine["median_ms"]) if ref else "-"
extra = mine.get("extra", {})
print("\t".join([name, size, "%.4f ms" % mine["median_ms"], "%.1f TFLOP/s" % (mine["throughput"] / 1e3),
                 vs + " cuBLAS", "%s regs" % extra.get("regs", "?"), extra.get("smem/block", "?"),
                 "check ok" if mine["check_ok"] else "CHECK FAILED: " + mine["check"],
                 "ptxas: " + ptxas.strip()]))
EOF
    done
done 3<<< "$candidates"

echo
echo "hgemm step 05 candidates ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1), --reps $reps):"
python3 - "$results" << 'EOF'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
widths = [max(len(r[c]) for r in rows if c < len(r)) for c in range(max(len(r) for r in rows))]
for r in rows:
    print("  ".join(cell.ljust(widths[c]) for c, cell in enumerate(r)).rstrip())
EOF
! grep -q "CHECK FAILED\|failed:" "$results"
