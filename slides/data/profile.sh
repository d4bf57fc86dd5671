#!/bin/bash
# Measures the Nsight Compute exports behind the lessons' ncu figures, on the GPU at hand:
#
#   slides/data/profile.sh [--budget SECONDS] BUILD_DIR GPU [LESSON...]
#       e.g. slides/data/profile.sh build-solved/src/build h100
#            slides/data/profile.sh --budget 540 build-solved/src/build h100 basics reduction matmul
#
# runs, for each lesson, the ncu command(s) of its README's "See it in Nsight
# Compute" section exactly as written there (slides/data/ncu_commands.py reads
# them: the block's `m=...` substituted, build/ replaced by BUILD_DIR), with
# `--csv --page raw --print-units base --log-file` added, and keeps each one's
# table, checked (a row per kernel the `-c` asks for, a value for every metric
# named), as slides/data/GPU/ncu/<track>-<NN>[-<k>].csv (k: the command's place
# in the README, when it has more than one). tests/check_figures.py checks the
# texts' ncu figures against them. A LESSON is `basics-02` or a whole track
# (`basics`); without one, every lesson.
#
# The figures are the reference solutions', so BUILD_DIR must be a build of a
# tree in which each profiled lesson's kernel.cu is its solution's (the script
# checks). This makes one, DIR/src/build:
#
#   slides/data/profile.sh --make-build DIR [GPU_ARCH] [LESSON...]
#       e.g. slides/data/profile.sh --make-build build-solved 9.0
#
# copies this checkout (without .git and the top-level build* folders) to
# DIR/src, the solutions over the starters, and builds the lesson programs the
# commands run (again: only what changed). DIR is outside the checkout, or a
# top-level build* folder of it (ignored by git). Then profile from the
# checkout that gets the exports: slides/data/profile.sh DIR/src/build GPU.
#
# How long: the READMEs hold about 130 commands in about 65 lessons (about 800
# metrics in all, 270 replay passes, 140 kernels profiled; `python3
# slides/data/ncu_commands.py count [LESSON...]` counts them exactly). Each is one
# run of a lesson program (its ladder at --reps 1, the sampled check) under ncu:
# about 5 to 10 s, so 11 to 22 minutes for all on one GPU, after the build
# (--make-build: about 120 nvcc compilations). Split a run with LESSONs (basics
# reduction matmul hgemm occupancy: about 60 commands; convolution separable
# sobel pipeline: about 70), or
# give --budget: no command starts after SECONDS, one running is stopped then.
#
# Committed data is never destroyed: every export is written to a scratch
# folder first, and a lesson's exports replace its committed ones only when
# every command of that lesson is complete and checked (the lessons not
# profiled stay as committed). When every lesson is, the exit is 0. When a
# command or a check of a lesson fails, that lesson's exports stay as
# committed, its remaining commands are skipped, the other lessons run on and
# are replaced, the scratch folder is kept (ncu's logs and errors) and the exit
# is 1: one broken command does not cost a whole run's GPU time. When --budget
# stops the run first, the lessons completed are replaced all the same, the
# others are listed (profile them next by name) and the exit is 3.
# Exit 77 (nothing changed) when ncu or the GPU is missing; 2 on a usage mistake
# (or a build of the starters).
set -eu

if [ "${1:-}" = "--make-build" ]; then
    if [ $# -lt 2 ]; then
        echo "usage: $0 --make-build DIR [GPU_ARCH] [LESSON...]" >&2
        exit 2
    fi
    root=$(cd "$(dirname "$0")/../.." && pwd)
    mkdir -p "$2"
    dir=$(cd "$2" && pwd)
    arch=${3:-auto}
    shift $(($# < 3 ? $# : 3))
    case $dir/ in
        "$root"/build*/*) ;;
        "$root"/*)
            echo "$0: DIR must be outside $root or a top-level build* folder of it (not copied into itself)" >&2
            exit 2
            ;;
    esac
    targets=$(python3 "$root/slides/data/ncu_commands.py" targets "$@") || exit 2
    mkdir -p "$dir/src"
    (cd "$root" && tar --exclude='./build*' --exclude=./.git -cf - .) | tar -xf - -C "$dir/src"
    for solution in "$dir"/src/solutions/*/*/kernel.cu; do
        cp "$solution" "$dir/src/lessons/${solution#"$dir"/src/solutions/}"
    done
    [ -d "$dir/src/build" ] || meson setup "$dir/src/build" "$dir/src" -Dgpu_arch="$arch" >"$dir/setup.log" || {
        echo "$0: meson setup failed; see $dir/setup.log" >&2
        exit 1
    }
    # shellcheck disable=SC2086 # one word per target
    meson compile -C "$dir/src/build" $targets || exit 1
    echo "built with the solutions: profile with $0 $dir/src/build GPU [LESSON...]"
    exit 0
fi

budget=0
if [ "${1:-}" = "--budget" ]; then
    budget=${2:-}
    shift 2 || true
    case $budget in
        '' | *[!0-9]*)
            echo "$0: --budget takes a number of seconds" >&2
            exit 2
            ;;
    esac
fi
if [ $# -lt 2 ]; then
    echo "usage: $0 [--budget SECONDS] BUILD_DIR GPU [LESSON...]   (GPU: a short lower-case name such as h100;" \
        "LESSON: basics-02, or a track)" >&2
    exit 2
fi
build_dir=$1
gpu=$2
shift 2
case $gpu in
    *[!a-z0-9]* | "")
        echo "$0: GPU \"$gpu\" must be lower-case letters and digits, such as h100" >&2
        exit 2
        ;;
esac
slides=$(cd "$(dirname "$0")/.." && pwd)
commands() { python3 "$slides/data/ncu_commands.py" "$@"; }
# The commands, one a line: NAME, a tab, the command (quoted as the shell reads it).
listing=$(commands list "$@") || exit 2
lessons=$(commands targets "$@")

# Without ncu or a GPU nothing can be measured: stop before anything is written.
if ! command -v ncu >/dev/null; then
    echo "$0: ncu (Nsight Compute) is not on the PATH; nothing measured, nothing under slides/ changed" >&2
    exit 77
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "$0: no GPU (nvidia-smi -L failed); nothing measured, nothing under slides/ changed" >&2
    exit 77
fi
if ! build=$(cd "$build_dir" 2>/dev/null && pwd); then
    echo "$0: $build_dir is no folder: build first (see the top of $0)" >&2
    exit 2
fi
# The build's sources: each profiled lesson must hold its solution.
source_dir=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["directories"]["source"])' \
    "$build/meson-info/meson-info.json" 2>/dev/null) || {
    echo "$0: $build_dir is not a Meson build folder" >&2
    exit 2
}
not_solved=()
for lesson in $lessons; do
    track=${lesson%-*}
    step=${lesson##*-}
    for folder in "$source_dir/lessons/$track/$step"_*; do
        solution=$source_dir/solutions/$track/$(basename "$folder")/kernel.cu
        cmp -s "$folder/kernel.cu" "$solution" || not_solved+=("$lesson")
    done
    if [ ! -x "$build/lessons/$lesson" ]; then
        echo "$0: $build/lessons/$lesson is missing: meson compile -C $build_dir $lesson" >&2
        exit 2
    fi
done
if [ ${#not_solved[@]} -gt 0 ]; then
    echo "$0: in $source_dir the starters of ${not_solved[*]} are not their solutions: ncu would profile" \
        "the starters. Build a copy with the solutions: $0 --make-build DIR (the top of $0 says more)." >&2
    exit 2
fi

gpu_name=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0 | head -n 1)
gpu_name="$gpu_name; $(ncu --version | tail -n 1)"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/profile-$gpu.XXXXXX")
echo "$(commands count "$@"); scratch folder $scratch"
start=$(date +%s)
stopped=()   # lessons the budget left out
broken=()    # lessons with a command that failed
while IFS=$'\t' read -r name quoted; do
    lesson=$(echo "$name" | sed -E 's/^([a-z0-9]+-[0-9][0-9]).*/\1/')
    case " ${stopped[*]} ${broken[*]} " in *" $lesson "*) continue ;; esac
    timeout_s=()
    if [ "$budget" -gt 0 ]; then
        left=$((budget - ($(date +%s) - start)))
        if [ $left -le 0 ]; then
            stopped+=("$lesson")
            continue
        fi
        timeout_s=(timeout -k 10 "$left")
    fi
    # The listing is shlex-quoted by ncu_commands.py: eval gives back its words.
    eval "words=($quoted)"
    # shellcheck disable=SC2154 # words is set by the eval above
    for i in "${!words[@]}"; do
        case ${words[$i]} in
            LOG) words[i]=$scratch/$name.log ;;
            BUILD/*) words[i]=$build/${words[$i]#BUILD/} ;;
        esac
    done
    began=$(date +%s)
    status=0
    "${timeout_s[@]}" "${words[@]}" >"$scratch/$name.out" 2>&1 || status=$?
    if [ $status -eq 124 ] || [ $status -eq 137 ]; then
        echo "$gpu/ncu/$name: stopped, the budget of ${budget}s is spent" >&2
        stopped+=("$lesson")
        continue
    fi
    if [ $status -ne 0 ]; then
        echo "$gpu/ncu/$name: ncu exited $status ($(tail -c 300 "$scratch/$name.out"))" >&2
        broken+=("$lesson")
        continue
    fi
    if ! commands export "$name" "$scratch/$name.log" "$scratch/$name.csv" "$gpu_name" 2>"$scratch/$name.err"; then
        echo "$gpu/ncu/$name: $(cat "$scratch/$name.err")" >&2
        broken+=("$lesson")
        continue
    fi
    rows=$(grep -c '^"[0-9]' "$scratch/$name.csv" || true)
    printf '%-28s %s kernel row(s), %ss\n' "$gpu/ncu/$name.csv" "$rows" "$(($(date +%s) - began))"
done <<<"$listing"
# A lesson stopped by the budget keeps its committed exports: drop its part.
for lesson in "${stopped[@]}"; do
    rm -f "$scratch/$lesson.csv" "$scratch/$lesson"-[0-9]*.csv
done

# Every lesson run to its end with every command complete and checked: replace
# its exports, each file by a rename within the folder, then remove those it no
# longer has (a README that lost a command). A broken or stopped lesson is left
# as committed.
out=$slides/data/$gpu/ncu
mkdir -p "$out"
replaced=0
for lesson in $lessons; do
    case " ${stopped[*]} ${broken[*]} " in *" $lesson "*) continue ;; esac
    for csv in "$scratch/$lesson".csv "$scratch/$lesson"-[0-9]*.csv; do
        [ -e "$csv" ] || continue
        cp "$csv" "$out/.$(basename "$csv").new" && mv "$out/.$(basename "$csv").new" "$out/$(basename "$csv")"
        replaced=$((replaced + 1))
    done
    for old in "$out/$lesson".csv "$out/$lesson"-[0-9]*.csv; do
        [ -e "$old" ] && [ ! -e "$scratch/$(basename "$old")" ] && rm -f "$old"
    done
done
echo "slides/data/$gpu/ncu/: $replaced export(s) written in $(($(date +%s) - start))s"
if [ ${#broken[@]} -gt 0 ]; then
    echo "$0: not every export is complete and checked: the exports of ${broken[*]} are as committed" \
        "(the other lessons' are written); this run's logs and errors are in $scratch" >&2
    exit 1
fi
rm -rf "$scratch"
if [ ${#stopped[@]} -gt 0 ]; then
    echo "$0: the budget stopped the run before ${stopped[*]}: their exports are as committed;" \
        "profile them next: $0 $build_dir $gpu ${stopped[*]}" >&2
    exit 3
fi
