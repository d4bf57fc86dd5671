#!/usr/bin/env python3
"""The Nsight Compute commands of the lesson READMEs, and their committed exports.

    python3 slides/data/ncu_commands.py list [LESSON...]    the commands, one a line (for profile.sh)
    python3 slides/data/ncu_commands.py count [LESSON...]   how many, with their metrics and passes
    python3 slides/data/ncu_commands.py targets [LESSON...] the lesson programs they run (Meson targets)
    python3 slides/data/ncu_commands.py export NAME RAW OUT GPU_NAME
                                                             check one ncu CSV log, write its export

A lesson's commands are the `ncu` lines of the ```sh blocks of its README's "See it in Nsight
Compute" section, exactly as a student copies them: the shell variables the block sets first
(`m=metric,metric,...`) substituted, continuation lines joined, the `# step 05` comments dropped.
A LESSON is `<track>-<NN>` (`basics-02`) or a whole track (`basics`).

slides/data/profile.sh runs each command with `--csv --page raw --print-units base --log-file
FILE` added after `ncu` (the format the course's --profile reads, common/src/profile.cpp) and the
program's `build/` replaced by the build folder it is given; `export` then checks the log (one
row per kernel the command's `-c` asks for, a value for every metric it names) and writes
slides/data/<gpu>/ncu/<track>-<NN>[-<k>].csv: two comment lines (the README's command as
written, and the device), then ncu's header, units and rows, cut down to the launch's columns and
the metrics the command names (a `--section` command keeps every column). `-<k>` numbers the
commands of a lesson that has more than one, in the README's order.

tests/check_figures.py reads the exports with `read_export` below.
"""

import csv
import io
import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SECTION = "See it in Nsight Compute"
# The columns ncu writes before the metrics: they say which launch a row is.
LAUNCH_COLUMNS = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
                  "Grid Size", "Device", "CC"]
ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(\S+)$")


class Command:
    def __init__(self, track, step, readme, line, words, index):
        self.track, self.step, self.readme, self.line, self.words = track, step, readme, line, words
        self.index = index  # 1-based, in the README's order
        self.total = 1
        self.metrics = []
        self.count = None
        self.sections = []
        for i, word in enumerate(words):
            if word == "--metrics" and i + 1 < len(words):
                self.metrics = [m for m in words[i + 1].split(",") if m]
            if word in ("-c", "--launch-count") and i + 1 < len(words):
                self.count = int(words[i + 1])
            if word == "--section" and i + 1 < len(words):
                self.sections.append(words[i + 1])

    @property
    def lesson(self):
        return "%s-%s" % (self.track, self.step)

    @property
    def name(self):
        return self.lesson if self.total == 1 else "%s-%d" % (self.lesson, self.index)

    @property
    def text(self):
        """The command as the README writes it (variables substituted), build/ as it is."""
        return shlex.join(self.words)

    def argv(self, build):
        """The command, its options for a CSV log added after `ncu`, build/ replaced by BUILD."""
        words = [build + w[len("build"):] if w.startswith("build/lessons/") else w for w in self.words]
        return [words[0], "--csv", "--page", "raw", "--print-units", "base", "--log-file", "LOG"] + words[1:]


def lesson_readmes(root=ROOT):
    for readme in sorted((root / "lessons").glob("*/[0-9][0-9]_*/README.md")):
        yield readme.parent.parent.name, readme.parent.name[:2], readme


def commands_of(track, step, readme, root=ROOT):
    """The ncu commands of one README's Nsight Compute section."""
    lines = readme.read_text().splitlines()
    found, section, block, variables, pending, first = [], None, False, {}, "", 0
    for number, line in enumerate(lines, 1):
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        if section != SECTION:
            continue
        if line.startswith("```"):
            block = not block
            variables, pending = {}, ""
            continue
        if not block:
            continue
        first = first if pending else number
        text = pending + line
        if text.rstrip().endswith("\\"):
            pending = text.rstrip()[:-1] + " "
            continue
        pending = ""
        # The block's variables, substituted as the shell does (not inside single quotes)
        parts = re.split(r"('[^']*')", text)
        parts = [p if p.startswith("'") else
                 re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m: variables.get(m.group(1), m.group(0)), p)
                 for p in parts]
        unset = [m.group(0) for p in parts if not p.startswith("'") for m in re.finditer(r"\$\{?[A-Za-z_]\w*", p)]
        words = shlex.split("".join(parts), comments=True)
        if len(words) == 1 and ASSIGNMENT.match(words[0]):
            name, value = ASSIGNMENT.match(words[0]).groups()
            variables[name] = value
            continue
        if not words or words[0] != "ncu":
            continue  # another tool's command (cuobjdump)
        if unset:
            raise SystemExit("%s:%d: %s is a variable the block does not set" % (readme, number, unset[0]))
        found.append(Command(track, step, str(readme.relative_to(root)), first, words, len(found) + 1))
    for command in found:
        command.total = len(found)
    return found


def all_commands(root=ROOT, only=()):
    result = []
    for track, step, readme in lesson_readmes(root):
        lesson = "%s-%s" % (track, step)
        if only and lesson not in only and track not in only:
            continue
        result += commands_of(track, step, readme, root)
    return result


def passes(command):
    """A rough count of ncu's replay passes: a few metrics per pass, a section several."""
    return max(1, -(-len(command.metrics) // 4)) + 4 * len(command.sections)


def parse_log(text):
    """ncu's CSV log: (header, units, rows), its messages (==PROF==, ==WARNING==) skipped."""
    start = next((i for i, line in enumerate(text.splitlines()) if line.startswith('"ID",')), None)
    if start is None:
        return None, None, []
    table = list(csv.reader(io.StringIO("\n".join(text.splitlines()[start:]))))
    header = table[0]
    units = table[1] if len(table) > 1 and not table[1][0] else [""] * len(header)
    rows = [r for r in table[1:] if r and r[0]]
    return header, units, rows


def number(text):
    """ "31,520.5" -> 31520.5; None for what is not a number ("(256, 1, 1)", "n/a")."""
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def export(command, raw_text, gpu_name):
    """The export of one command's log, or raises ValueError saying what is missing."""
    header, units, rows = parse_log(raw_text)
    if header is None:
        raise ValueError("no CSV table in ncu's log (did the program run, and ncu find the kernel?)")
    if not rows:
        raise ValueError("ncu profiled no kernel: does -k %s match a kernel of this build?"
                         % next((w for w in command.words if w.startswith("regex:")), "?"))
    if command.count is not None and len(rows) != command.count:
        raise ValueError("%d kernel row(s), the command asks for %d (-c)" % (len(rows), command.count))
    missing = [m for m in command.metrics if m not in header]
    if missing:
        raise ValueError("metric(s) not in ncu's table: %s" % ", ".join(missing))
    for row in rows:
        empty = [m for m in command.metrics if number(row[header.index(m)]) is None]
        if empty:
            raise ValueError("kernel %r has no value for %s" % (row[header.index("Kernel Name")][:60], ", ".join(empty)))
    keep = list(range(len(header)))
    if command.metrics:
        keep = [header.index(c) for c in LAUNCH_COLUMNS + command.metrics if c in header]
    out = io.StringIO()
    out.write("# %s\n" % command.text)
    out.write("# %s, command %d of %d; %s\n" % (command.readme, command.index, command.total, gpu_name))
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for row in [header, units] + rows:
        writer.writerow([row[i] if i < len(row) else "" for i in keep])
    return out.getvalue()


def read_export(path):
    """An export's (command line, [(metric, unit, [value per row])]): its numeric columns."""
    return read_export_text(path.read_text())


def read_export_text(text):
    lines = text.splitlines()
    command = lines[0][2:] if lines and lines[0].startswith("# ") else ""
    header, units, rows = parse_log("\n".join(l for l in lines if not l.startswith("#")))
    columns = []
    for i, name in enumerate(header or []):
        if name in LAUNCH_COLUMNS:
            continue
        values = [number(r[i]) for r in rows if i < len(r)]
        if values and all(v is not None for v in values):
            columns.append((name, units[i] if i < len(units) else "", values))
    return command, columns


def main(argv):
    if len(argv) < 2 or argv[1] not in ("list", "count", "targets", "export"):
        print(__doc__.strip().split("\n\n")[0], file=sys.stderr)
        return 2
    if argv[1] == "export":
        if len(argv) != 6:
            print("usage: ncu_commands.py export NAME RAW OUT GPU_NAME", file=sys.stderr)
            return 2
        name, raw, out, gpu_name = argv[2:]
        command = next((c for c in all_commands(only=(name.rsplit("-", 1)[0], name)) if c.name == name), None)
        if command is None:
            print("no README command is called %s" % name, file=sys.stderr)
            return 2
        try:
            text = export(command, Path(raw).read_text(errors="replace"), gpu_name)
        except ValueError as problem:
            print(problem, file=sys.stderr)
            return 1
        Path(out).write_text(text)
        return 0
    only = tuple(argv[2:])
    commands = all_commands(only=only)
    known = {c.lesson for c in all_commands()} | {c.track for c in all_commands()}
    unknown = [o for o in only if o not in known]
    if unknown:
        print("no lesson with an Nsight Compute command is called %s (LESSON: basics-02, or a track)"
              % " or ".join(unknown), file=sys.stderr)
        return 2
    if argv[1] == "list":
        for c in commands:
            print("%s\t%s" % (c.name, shlex.join(c.argv("BUILD"))))
    elif argv[1] == "targets":
        print(" ".join(sorted({c.lesson for c in commands})))
    else:
        lessons = sorted({c.lesson for c in commands})
        print("%d commands in %d lesson READMEs, %d metrics asked for in all, about %d replay passes, "
              "%d kernel launches profiled"
              % (len(commands), len(lessons), sum(len(c.metrics) for c in commands),
                 sum(passes(c) for c in commands), sum(c.count or 1 for c in commands)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
