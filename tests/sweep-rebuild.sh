# shellcheck shell=bash
# Sourced by the sweep scripts (tests/hgemm/sweep-tiles.sh,
# tests/matmul/sweep-configs.sh, tests/pipeline/sweep.sh), which time other compile-time constants of
# one solution's kernel.cu: each candidate is that file compiled again with
# its -D defines, exactly as the build compiles it (the commands ninja would
# run, read with `ninja -t commands`), into a scratch folder, where a copy of
# course-ladders is linked with it. The build folder itself is not changed.
#
#   sweep_setup NAME BUILD LIB SOURCE
#       NAME: the script, for its messages; BUILD: a configured build folder;
#       LIB: the library target of the solution (lessons/libhgemm-05-solution.a);
#       SOURCE: its kernel.cu, for the messages. Stops with exit 77 without a
#       GPU, 2 without the build folder, ninja or the object; builds
#       course-ladders and enters BUILD.
#   sweep_build DIR DEFINES
#       compiles SOURCE with DEFINES (and ptxas's report, -Xptxas -v) into DIR,
#       archives it and links DIR/course-ladders; the logs are DIR/compile.log
#       and DIR/link.log. Returns 0 when built, 1 when it does not compile, 2
#       when it does not link.
#   sweep_ptxas LOG ENTRY
#       ptxas's report in LOG (a compile.log of sweep_build): one line per
#       kernel whose entry function matches ENTRY, a Python regular expression
#       searched in its mangled name, in the log's order: "KEY REGISTERS
#       SPILL_BYTES", KEY being ENTRY's groups joined by commas ("?" for a
#       number the log does not give).

sweep_setup() {
    local name=$1 build=$2 source=$4
    sweep_lib=$3
    if ! command -v nvidia-smi > /dev/null || ! nvidia-smi > /dev/null 2>&1; then
        echo "$name: no GPU (nvidia-smi found none): nothing built or timed" >&2
        exit 77
    fi
    if [ ! -f "$build/build.ninja" ]; then
        echo "$name: $build is not a configured build folder (meson setup $build -Dgpu_arch=9.0)" >&2
        exit 2
    fi
    sweep_ninja=$(command -v ninja || command -v ninja-build || true)
    if [ -z "$sweep_ninja" ]; then
        echo "$name: ninja not found (the build's own backend)" >&2
        exit 2
    fi
    cd "$build" || exit 2
    local log="${TMPDIR:-/tmp}/$name-build.log"
    if ! "$sweep_ninja" lessons/course-ladders > "$log" 2>&1; then
        tail -n 20 "$log" >&2
        echo "$name: the build of course-ladders failed" >&2
        exit 2
    fi
    local pattern
    pattern="^$(printf '%s' "$sweep_lib" | sed 's/\./\\./g')\\.p/[^:]*kernel\\.cu\\.o"
    sweep_obj=$("$sweep_ninja" -t targets all | grep -o "$pattern" | head -n 1)
    if [ -z "$sweep_obj" ]; then
        echo "$name: no object of $source in $build" >&2
        exit 2
    fi
    sweep_compile=$("$sweep_ninja" -t commands "$sweep_obj" | tail -n 1)
    sweep_archive=$("$sweep_ninja" -t commands "$sweep_lib" | tail -n 1)
    sweep_link=$("$sweep_ninja" -t commands lessons/course-ladders | tail -n 1)
}

sweep_build() {
    local dir=$1 defines=$2
    mkdir -p "$dir"
    # The object's path holds the library's, so it is replaced first.
    local c=${sweep_compile//"$sweep_obj"/"$dir/kernel.cu.o"}
    local a=${sweep_archive//"$sweep_obj"/"$dir/kernel.cu.o"}
    a=${a//"$sweep_lib"/"$dir/lib.a"}
    local l=${sweep_link//"$sweep_lib"/"$dir/lib.a"}
    l=${l//"-o lessons/course-ladders "/"-o $dir/course-ladders "}
    eval "$c $defines -Xptxas -v" > "$dir/compile.log" 2>&1 || return 1
    { eval "$a" > "$dir/link.log" 2>&1 && eval "$l" >> "$dir/link.log" 2>&1; } || return 2
}

sweep_ptxas() {
    python3 - "$1" "$2" << 'EOF'
import re, sys
log, entry = sys.argv[1], re.compile(sys.argv[2])
kernels, current = [], None
for line in open(log):
    if "Compiling entry function" in line:
        m = entry.search(line)
        current = {"key": ",".join(m.groups()), "regs": "?", "spills": "?"} if m else None
        if current:
            kernels.append(current)
    used, spill = re.search(r"Used (\d+) registers", line), re.search(r"(\d+) bytes spill stores", line)
    if current is not None and used:
        current["regs"] = used.group(1)
    if current is not None and spill:
        current["spills"] = spill.group(1)
for k in kernels:
    print(k["key"], k["regs"], k["spills"])
EOF
}
