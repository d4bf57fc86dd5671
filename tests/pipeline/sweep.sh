#!/usr/bin/env bash
# Times candidate compile-time constants of pipeline step 09 (or step 08, with
# STEP=08) on the GPU in this machine, each in the course's own ladder at
# 8192x8192 against the copy, as `course-targets pipeline` times it, and
# prints one table.
#
# The step's constants are at the top of its solution,
# solutions/pipeline/NN_<name>/kernel.cu (NN = STEP): the rows a warp writes
# (PIPELINENN_ROWS: whole turns of the walk, lcm(4, AHEAD) rows in step 08,
# lcm(12, AHEAD) in step 09), the warps per block (PIPELINENN_WARPS), the RGB
# rows loaded ahead (PIPELINENN_AHEAD: 1 or more) and the blocks per
# multiprocessor __launch_bounds__ asks registers for (PIPELINENN_MIN_BLOCKS,
# 0 for none), which caps the registers per thread. For each candidate this
# script compiles that file again with the candidate's -D defines, exactly as
# the build compiles it otherwise (tests/sweep-rebuild.sh), in parallel,
# links a copy of course-ladders and one of the step's grading test
# (tests/solution-pipeline-NN, its source compiled again to look kernels up in
# the candidate's archive) with it in a scratch folder, and, one at a
# time, runs
#   course-ladders pipeline --size S --reps REPS --format json
# which measures the ladder that `course-targets pipeline` measures (every
# step, the copy, NPP, in one run; course-targets times 50 runs per row), and
# the grading test's exactness case: every grading size and pitch, pixel for
# pixel against the CPU reference. The build folder itself is not changed:
# its own programs keep the defaults. Before the candidates, the build's own
# `course-targets pipeline` runs once, for its two target lines (the last
# step's).
#
# Usage: [STEP=09] tests/pipeline/sweep.sh [BUILD_DIR [SIZE...]]
#   BUILD_DIR   a configured build (default build-gpu, as .ci/gpu-check makes it)
#   SIZE        --size values (default 8192, the size of the targets)
#   STEP        environment: 09 (default) or 08, the step whose solution is swept
#   REPS        environment: --reps for each ladder (default 50, as course-targets)
#   JOBS        environment: compiles at once (default: the cores)
#   BUDGET_S    environment: seconds from the script's start after which no
#               further run starts (default 480); the runs left out are listed
#               as such, and the table of those made is printed all the same
#   CANDIDATES  environment: one "ROWS WARPS AHEAD MIN_BLOCKS" per line
#               (default: the step's list below, the solution's defaults first)
#
# The table, per candidate and size: ptxas's registers and spill stores of
# both kernels (fused_vN<true>, whole words, which the runs at 8192 time;
# fused_vN<false>, bytes), the warps per multiprocessor that the words
# kernel's registers allow (by the occupancy rules of compute capability 8.0
# and 9.0; "-" on other GPUs), the step's median time, its fraction of the
# copy's bandwidth (copy time / the step's time: the ladder's "% of copy"
# column), how many times as fast as NPP's calls, the ladder's check of the
# step at that size and the grading sizes' check. A candidate that does not
# compile (a static_assert says which rule it breaks) is reported as such.
# Exit status: 0 when every candidate that ran passed both checks, 1
# otherwise, 2 on a usage mistake, 77 without a GPU.
set -euo pipefail

build=${1:-build-gpu}
if [ $# -gt 0 ]; then shift; fi
sizes=("$@")
if [ ${#sizes[@]} -eq 0 ]; then sizes=(8192); fi
reps=${REPS:-50}
jobs=${JOBS:-$(nproc)}
budget=${BUDGET_S:-480}
step=${STEP:-09}
if ! [[ $step =~ ^0[89]$ ]]; then echo "sweep: STEP is 08 or 09, not \"$step\"" >&2; exit 2; fi
command_line="STEP=$step tests/pipeline/sweep.sh $build ${sizes[*]}"

# ROWS WARPS AHEAD MIN_BLOCKS, the solution's default first.
# Step 08 (CUDA 13.0 gives its default 96 registers: 20 warps a
# multiprocessor), then the likeliest first, in case BUDGET_S stops the runs:
# 12 blocks of 2 warps (80 registers); longer strips (a strip computes 4 rows
# above and 4 below that it does not write: half as many as it writes at 16
# rows, a quarter at 32, an eighth at 64), alone and with 12 blocks; 14 and 16
# blocks (72 and 64 registers, with spills); wider blocks; one and four rows
# ahead; shorter strips; then eight rows ahead (turns of 8 rows; 114
# registers: 16 warps a multiprocessor) in strips of 16, 24 and 32 rows.
candidates_08="16 2 2 0
16 2 2 12
32 2 2 0
64 2 2 0
32 2 2 12
64 2 2 12
16 2 2 14
16 2 2 16
64 2 2 16
16 4 2 0
16 8 2 0
16 2 1 0
16 2 4 0
8 2 2 0
16 2 8 0
24 2 8 0
32 2 8 0"
# Step 09 (strips of whole 12-row turns; its default asks room for 10 blocks:
# 96 registers): no register cap (128 registers, 16 warps), 12 blocks (80);
# longer strips; 2, 3 and 6 rows ahead; one and four warps a block.
candidates_09="24 2 4 10
24 2 4 0
24 2 4 12
36 2 4 10
48 2 4 10
24 2 2 10
24 2 3 10
24 2 6 10
24 1 4 20
24 4 4 5"
default_candidates=candidates_$step
candidates=${CANDIDATES:-${!default_candidates}}

# shellcheck source=tests/sweep-rebuild.sh
source "$(dirname "$0")/../sweep-rebuild.sh"
kernel=$(ls solutions/pipeline/"$step"_*/kernel.cu)
sweep_setup "sweep-$step" "$build" "lessons/libpipeline-$step-solution.a" "$kernel"

# Step 08's grading test and course-targets, built as the build builds them.
grading=tests/solution-pipeline-$step
if ! "$sweep_ninja" "$grading" tests/course-targets > "${TMPDIR:-/tmp}/sweep-$step-build.log" 2>&1; then
    tail -n 20 "${TMPDIR:-/tmp}/sweep-$step-build.log" >&2
    echo "sweep: the build of $grading and tests/course-targets failed" >&2
    exit 2
fi
grading_link=$("$sweep_ninja" -t commands "$grading" | tail -n 1)
# The grading test names the library it grades on its compile line
# (COURSE_GRADED_LIBRARY, COURSE_SOLUTION_LIBRARY: the build's solution
# library, by its absolute path): its own-kernels look-ups read that file. So
# each candidate compiles the test's source again, naming its own archive, and
# links that object: a candidate whose kernels have other names than the
# solution's is looked up where they are.
grading_obj=$("$sweep_ninja" -t targets all | grep -o "^$grading\.p/[^:]*\.cpp\.o" | head -n 1)
grading_compile=$("$sweep_ninja" -t commands "$grading_obj" | tail -n 1)
graded_path="$PWD/$sweep_lib"
if [ -z "$grading_obj" ] || [[ $grading_compile != *"$graded_path"* ]]; then
    echo "sweep: $grading's compile line does not name $graded_path: the candidates' grading runs look kernels up in" \
        "the build's library" >&2
    grading_obj=""
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results="$work/results.tsv"
: > "$results"

# Builds candidate n (its defines in $2) into $work/n: course-ladders
# (tests/sweep-rebuild.sh), then the grading test, its source compiled to
# name the candidate's archive and linked with it; notes how that went in
# $work/n/status.
build_candidate() {
    local dir="$work/$1" status=0
    sweep_build "$dir" "$2" || status=$?
    if [ $status -eq 0 ]; then
        local t=${grading_link//"$sweep_lib"/"$dir/lib.a"}
        t=${t//"-o $grading "/"-o $dir/grading "}
        if [ -n "$grading_obj" ]; then
            local c=${grading_compile//"$graded_path"/"$dir/lib.a"}
            c=${c//"$grading_obj"/"$dir/grading.o"}
            t=${t//"$grading_obj"/"$dir/grading.o"}
            eval "$c" >> "$dir/link.log" 2>&1 || status=2
        fi
        [ $status -ne 0 ] || eval "$t" >> "$dir/link.log" 2>&1 || status=2
    fi
    case $status in
        0) echo ok > "$dir/status" ;;
        1) echo "does not compile" > "$dir/status" ;;
        *) echo "does not link" > "$dir/status" ;;
    esac
}

names=() warps=()
n=0
while read -r rows nwarps ahead minblocks extra <&3; do
    [ -z "${rows:-}" ] && continue
    n=$((n + 1))
    if [ -n "${extra:-}" ] || ! [[ "$rows $nwarps $ahead $minblocks" =~ ^[0-9]+\ [0-9]+\ [0-9]+\ [0-9]+$ ]]; then
        echo "sweep: candidate $n, \"$rows $nwarps $ahead ${minblocks:-} ${extra:-}\", is not four numbers" >&2
        exit 2
    fi
    names[n]="rows $rows, $nwarps warps, $ahead ahead, min blocks $minblocks"
    warps[n]=$nwarps
    defines="-DPIPELINE${step}_ROWS=$rows -DPIPELINE${step}_WARPS=$nwarps -DPIPELINE${step}_AHEAD=$ahead"
    defines+=" -DPIPELINE${step}_MIN_BLOCKS=$minblocks"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    build_candidate "$n" "$defines" &
done 3<<< "$candidates"
count=$n

# Every candidate built before anything is timed: compiles on every core
# would slow the timed runs' own host code.
wait

# The build's own course-targets pipeline: its two target lines (it exits 1
# when a target is missed).
echo "== the build's course-targets pipeline" >&2
tests/course-targets pipeline > "$work/targets.txt" 2> "$work/targets.err" || true
targets=$(grep "^target pipeline" "$work/targets.txt" ||
    echo "failed: $(tail -n 1 "$work/targets.err" | grep . || tail -n 1 "$work/targets.txt")")

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
capability=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null | head -n 1 || true)

for n in $(seq 1 "$count"); do
    dir="$work/$n"
    name="${names[n]}"
    status=$(cat "$dir/status" 2> /dev/null || echo "not built")
    if [ "$status" != ok ]; then
        grep -s -m 3 -i "error" "$dir/compile.log" "$dir/link.log" >&2 || true
        printf '%s\t%s\t%s\n' "$name" "-" "$status" >> "$results"
        continue
    fi
    # ptxas's registers and spill stores of the words kernel (fused_vN<true>)
    # and the bytes kernel (fused_vN<false>), and the warps per
    # multiprocessor that the words kernel's registers allow, by the rules of
    # compute capability 8.0 and 9.0 (those of the CUDA occupancy
    # calculator): a warp's registers allocated 256 at a time, 16384
    # registers in each quarter of the multiprocessor, whole blocks, at most
    # 64 warps and 32 blocks.
    compiled=$(python3 - "$(sweep_ptxas "$dir/compile.log" "fused_v${step#0}ILb([01])E")" "${warps[n]}" "$capability" \
        << 'EOF'
import sys
report, warps, capability = sys.argv[1], int(sys.argv[2]), sys.argv[3].strip()
kernels = {key: (regs, spills) for key, regs, spills in (line.split() for line in report.splitlines())}
cells = ["%s regs %s B spilled" % kernels.get(k, ("?", "?")) for k in "10"]
bound = "-"
if capability in ("8.0", "9.0") and kernels.get("1", ("?",))[0] != "?":
    per_warp = -(-int(kernels["1"][0]) * 32 // 256) * 256
    blocks = min(4 * (16384 // per_warp) // warps, 64 // warps, 32)
    bound = "%d warps/SM" % (blocks * warps)
print("\t".join(cells + [bound]))
EOF
    )
    # The grading sizes, once per candidate (the doctest case whose name
    # starts so; its summary must say that it ran).
    if [ "$SECONDS" -ge "$budget" ]; then
        graded="not run: past BUDGET_S"
    else
        echo "== $name: the grading sizes" >&2
        if "$dir/grading" "--test-case=step $step is exact*" > "$dir/grading.txt" 2>&1 &&
            grep -q "test cases: *1 | *1 passed" "$dir/grading.txt"; then
            graded="grading sizes ok"
        else
            grep -m 3 "ERROR\|error\|skipped" "$dir/grading.txt" >&2 || tail -n 3 "$dir/grading.txt" >&2
            graded="GRADING SIZES FAILED"
        fi
    fi
    for size in "${sizes[@]}"; do
        if [ "$SECONDS" -ge "$budget" ]; then
            printf '%s\t%s\t%s\t%s\n' "$name" "$size" "$compiled" "not run: past BUDGET_S" >> "$results"
            continue
        fi
        echo "== $name at $size" >&2
        if ! "$dir/course-ladders" pipeline --size "$size" --reps "$reps" --format json > "$dir/$size.json" \
            2> "$dir/$size.err"; then
            tail -n 2 "$dir/$size.err" >&2
            printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$size" "$compiled" "failed: $(tail -n 1 "$dir/$size.err")" \
                "$graded" >> "$results"
            continue
        fi
        # The step's time, and the copy's and NPP's over it, as the ladder's
        # "% of copy" column and course-targets compute them.
        python3 - "$dir/$size.json" "$name" "$size" "$compiled" "$graded" "$step" >> "$results" << 'EOF' ||
import json, sys
path, name, size, compiled, graded, step = sys.argv[1:7]
rows = {r["step"]: r for r in json.load(open(path))["ladders"][0]["rungs"]}
mine, copy, npp = rows[step], rows["copy"], rows.get("ref")
def ratio(other):
    return other["median_ms"] / mine["median_ms"] if other and other["check_ok"] and mine["median_ms"] > 0 else None
of_copy, of_npp = ratio(copy), ratio(npp)
print("\t".join([name, size] + compiled.split("\t") +
                ["%.4f ms" % mine["median_ms"], "%.1f%% of copy" % (100 * of_copy) if of_copy else "- of copy",
                 "%.2fx NPP" % of_npp if of_npp else "- NPP",
                 "check ok" if mine["check_ok"] else "CHECK FAILED: " + mine["check"], graded]))
EOF
            printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$size" "$compiled" "failed: report unreadable" "$graded" >> "$results"
    done
done

settings="REPS=$reps"
if [ -n "${CANDIDATES:-}" ]; then settings+=", CANDIDATES set"; fi
echo "# $command_line ($settings)"
echo
echo "the build's course-targets pipeline ($gpu):"
printf '%s\n' "$targets" | sed 's/^/  /'
echo
echo "pipeline step $step candidates ($gpu, compute capability ${capability:-?}, --reps $reps; the target: 70% of the copy):"
python3 - "$results" "$step" << 'EOF'
import sys
step = sys.argv[2]
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
header = ["candidate (PIPELINE%s_ROWS, _WARPS, _AHEAD, _MIN_BLOCKS)" % step, "size", "ptxas: words kernel", "bytes kernel",
          "registers allow", "step " + step, "of the copy", "vs NPP", "check at the size", "grading sizes"]
rows = [header] + rows
widths = [max(len(r[c]) for r in rows if c < len(r)) for c in range(max(len(r) for r in rows))]
for r in rows:
    print("  ".join(cell.ljust(widths[c]) for c, cell in enumerate(r)).rstrip())
EOF
echo "($SECONDS s in all)"
! grep -q "FAILED\|failed:" "$results"
