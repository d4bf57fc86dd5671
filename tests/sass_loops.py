#!/usr/bin/env python3
"""Counts the instructions of each loop in a kernel's machine code (SASS), by kind.

Usage:
    python3 tests/sass_loops.py PROGRAM_OR_OBJECT KERNEL [--min N]
    cuobjdump -sass PROGRAM | python3 tests/sass_loops.py - KERNEL
    python3 tests/sass_loops.py --self-test

Runs `cuobjdump -sass` on PROGRAM_OR_OBJECT (a lesson program, an object file; or reads the
listing from standard input with "-"), keeps the functions whose (mangled) name contains KERNEL
(e.g. fused_v9: both fused_v9<true> and fused_v9<false>), and prints, for each loop of at least
N instructions (default 40: the hot loops, not the small ones of setup code), its first and last
address, its instruction count, and the count of each opcode in it (predicates and modifiers
after the first dot dropped: IDP.4A.U8.S8 counts as IDP). A loop is the code between a
conditional branch back (a predicated BRA whose target lies before it) and that target; nested
loops are printed each.

What to compare: a loop's instructions divided by the rows (or elements) one trip handles, and
how many of them do the work. Python 3 standard library only; needs cuobjdump (the CUDA
toolkit) unless the listing comes on standard input.
"""
import collections
import os
import re
import shutil
import subprocess
import sys

INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+([^;]*);")
BRANCH_TARGET = re.compile(r"\bBRA\b(?:\.\w+)*\s+(?:`\(\.L_x_\d+\)\s*)?(?:0x)?([0-9a-f]+)\s*$")


def functions(listing):
    """(name, [(address, text)]) for each function of a cuobjdump -sass listing."""
    parts = re.split(r"\n\s*Function : ", "\n" + listing)
    for part in parts[1:]:
        name = part.split("\n", 1)[0].strip()
        yield name, [(int(a, 16), t.strip()) for a, t in INSTRUCTION.findall(part)]


def opcode(text):
    text = re.sub(r"^@!?U?P[T\d]+\s+", "", text)
    return text.split()[0].split(".")[0] if text else "?"


def loops(instructions, minimum):
    """(first, last, [texts]) for each backward branch whose loop holds at least `minimum`."""
    found = []
    for address, text in instructions:
        # A loop closes with a conditional branch back; an unconditional one jumps back from code
        # placed out of line (the divergent path of a shuffle, at the function's end): no loop.
        if opcode(text) != "BRA" or not text.startswith("@"):
            continue
        match = BRANCH_TARGET.search(text)
        if not match:
            continue
        target = int(match.group(1), 16)
        if target >= address:
            continue
        body = [t for a, t in instructions if target <= a <= address]
        # A branch to itself or to a few instructions before it (the end of a kernel) is no loop.
        if len(body) >= minimum:
            found.append((target, address, body))
    return found


def report(listing, kernel, minimum, out=sys.stdout):
    count = 0
    for name, instructions in functions(listing):
        if kernel not in name:
            continue
        count += 1
        print("%s: %d instructions" % (name, len(instructions)), file=out)
        for first, last, body in loops(instructions, minimum):
            kinds = collections.Counter(opcode(t) for t in body)
            print("  loop 0x%x..0x%x: %d instructions: %s" % (
                first, last, len(body), ", ".join("%s %d" % kv for kv in kinds.most_common())), file=out)
    return count


def self_test():
    listing = """
        Function : _Z7kernel_aPi
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   IDP.4A.U8.S8 R2, R3, R4, R5 ;
        /*0020*/              @!P0 IADD3 R6, R6, 0x1, RZ ;
        /*0030*/                   PRMT R7, R2, 0x5410, R7 ;
        /*0040*/              @!P1 BRA 0x10 ;
        /*0050*/                   EXIT ;
        /*0060*/                   BRA 0x10 ;
        Function : _Z7kernel_bPi
        /*0000*/                   EXIT ;
"""
    import io
    out = io.StringIO()
    assert report(listing, "kernel_a", 2, out) == 1
    text = out.getvalue()
    assert "loop 0x10..0x40: 4 instructions: IDP 1, IADD3 1, PRMT 1, BRA 1" in text, text
    assert "0x60" not in text, text  # an unconditional branch back is no loop
    assert report(listing, "kernel_", 2, io.StringIO()) == 2
    out = io.StringIO()
    report(listing, "kernel_a", 5, out)
    assert "loop" not in out.getvalue(), out.getvalue()  # shorter than --min
    print("sass_loops self-test: ok")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    args = [a for a in argv[1:] if a != "--min"]
    minimum = 40
    if "--min" in argv:
        minimum = int(argv[argv.index("--min") + 1])
        args.remove(str(minimum))
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    source, kernel = args
    if source == "-":
        listing = sys.stdin.read()
    else:
        # cuobjdump comes with the CUDA toolkit, beside nvcc (where the build looks for it too):
        # on the PATH, in the folder nvcc really is in (the PATH's may be a link), or the toolkit's
        nvcc = shutil.which("nvcc")
        folders = [os.path.dirname(os.path.realpath(nvcc))] if nvcc else []
        folders += [os.path.join(os.environ[v], "bin") for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
        folders.append("/usr/local/cuda/bin")
        cuobjdump = shutil.which("cuobjdump") or next(
            (found for found in (shutil.which("cuobjdump", path=f) for f in folders) if found), None)
        if not cuobjdump:
            print("cuobjdump not found (on the PATH, beside nvcc, in /usr/local/cuda/bin): it comes with the CUDA "
                  "toolkit; install the toolkit's cuobjdump, or read a listing made elsewhere with "
                  "`python3 tests/sass_loops.py - %s < listing.txt`" % kernel, file=sys.stderr)
            return 2
        run = subprocess.run([cuobjdump, "-sass", source], capture_output=True, text=True)
        if run.returncode != 0:
            print("cuobjdump -sass %s failed: %s" % (source, run.stderr.strip()), file=sys.stderr)
            return 1
        listing = run.stdout
    if report(listing, kernel, minimum) == 0:
        print("no function whose name contains %s" % kernel, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
