#!/usr/bin/env python3
"""Checks every measured figure in the course's READMEs against the committed reports.

    python3 tests/check_figures.py [SOURCE_ROOT]     exit 0: every figure found, 1: not
    python3 tests/check_figures.py --prune [SOURCE_ROOT]
        the same, and removes from tests/figures_not_in_reports.txt the entries it reports as no
        longer needed (after committing new reports or Nsight Compute exports)

A figure is a number with a decimal point in a README: in prose, in a table, in a ladder
copied from the program's output. The texts checked are README.md, lessons/<track>/README.md,
lessons/<track>/NOTES.md (a track's appendix: material moved out of its READMEs to keep them
short), lessons/<track>/<NN_name>/README.md and the decks slides/<track>.md (a deck's track is
its file name; what is the deck's Marp syntax, not its text, is skipped: the front matter
between the first two `---` lines, `<style>` blocks and scoped style tags, image size
attributes such as `![h:590](...)`). The reports are slides/data/<gpu>/<name>.json, what
`course-ladders ... --format json` printed on that GPU (slides/data/README.md lists each one's
command).

Each figure must be one of:

1. **a value of a committed report**, at the precision the text shows (4233.1 is 4233.11
   rounded): a row's median, fastest and slowest time (also in microseconds), spread,
   throughput (also in TFLOP/s), % of peak, the speedups and the share of the library rung
   that the program prints, its extra columns, the notes under a table, a sweep point's
   values, the device's peaks; or a ratio within one table of a report: one row's time over
   another's (a speedup, "1.54x"; the times of an extra "... ms" column count too), one row's throughput over another's (also as a percentage,
   "69.2% of a copy").
   Which reports: those the figure's section names (`basics.json`,
   `slides/data/h200/basics.json`, `-block16x20.json` beside `convolution-block16x8.json`; a
   table row that names one, that one), of the GPUs the section names; where the section names
   none, the reports of the text's own track, slides/data/*/<track>*.json (for README.md,
   every report). A figure of four significant digits or more may also come from any report of
   the track: few values match one that closely by chance, unlike a percentage or a ratio.
   **In README.md, a table row whose first cell names a track** (`| hgemm | ...`; a track is a
   folder lessons/<track>/ with a README.md) is that track's text: its figures come from the
   track's reports and exports alone, so a figure of four digits that another track's report
   holds by chance fails there. Where the row names a report (`hgemm.json`, `hgemm-8192.json`,
   `slides/data/h200/occupancy-profile.json`), the figures after that name, up to the next named
   report, quote that report (with the family of `-suffix` names, above), of the GPU of its
   parenthesis ("(H100: 96.8%)") or else of its path's, or any where it names none; a figure of
   four digits or more may also come from another report of the track ("0.1855 ms at 4096^3"
   after `hgemm-4095.json`). So a GPU's parenthesis stands in the part of the report it quotes:
   `hgemm.json`: ... 96.4% (H100: 95.4%) ...; `hgemm-8192.json`: 98.1% (H100: 96.8%).
   **A table that says which GPU a figure is of** takes it from that GPU's reports alone (and
   that GPU's exports, below), so a figure copied from the other GPU's report fails: a column
   whose header names one GPU ("H100 ms", "H200: step 01 ms"), and the columns after it until a
   header names another, both ("H100 / H200") or the original material's ("8800 GT ms", "the
   talk"): `| step | H100 ms | vs prev | H200 ms | vs prev |`; a row with a cell that names one
   GPU and holds no figure ("H100", "H200, 2048x2048", "loops, H100"), but for a column of the
   original material's. A cell whose row and column name different GPUs is neither's. There,
   a row whose first cell is a step ("03") shows that step's values (in a lesson's README, so
   does a row whose first cell is a GPU, "| H100 | 0.3205 | 1.46x |": the lesson's step, and a
   figure there that only a committed Nsight Compute export holds fails): those of the rungs of
   that step in those reports (in the reports the section names, or else the track's), its
   speedup over another row (the other's time over its own) and its throughput's share of
   another row's; a ratio of two other rows, which often matches a percentage by chance, fails.
   So does a parenthesis of one GPU's figures beside the other's, in prose or in a cell: "(H100:
   2.81x, 106.9%)", up to a semicolon, "(H100: SM 64.3%; H200: SM 66.4%)" each GPU's part
   ("(H100, Nsight Compute; H200: 17.4%)": the H200's part), and a figure followed by its GPU
   in parentheses, "49.02% (H100) and 50.25% (H200)".
   **A section that names one GPU** as the GPU of its figures, its first paragraph beginning
   with that GPU's name and its first sentence naming no other ("NVIDIA H200 (sm_90, ...), CUDA
   13.0.": README.md's measured results; "NVIDIA H100 80GB HBM3 and NVIDIA H200, ..." names
   both, so neither), takes every figure outside the other GPU's parentheses from that GPU's
   reports and exports alone, where its table's row or column does not name a GPU (in a track's
   row of README.md quoting a report that a path names, `slides/data/h100/...`, the path's GPU's):
   the H100's value beside "(H100: 95.4%)" fails there, even of four digits, as the H200's inside
   the parenthesis does.
   A ladder copied into a code block, as the program prints it, is checked more strictly: its
   problem line must be that of a ladder of a report of the GPU named beside the block (a
   `slides/data/<gpu>/` path, or "H100"/"H200" in the lines around it), and each row a row of
   that ladder, with the same step and title, and that row's numbers, column by column.
   **A percentage after the word "spread"** on its line ("step 04's on the H200 over 10.0%",
   "its `spread` column: 10.0%") must be a row's spread in the reports the line may quote, not
   any value that rounds to it: a stale spread often matches another field by chance. Likewise
   **a percentage just before the library's name** ("96.2% of cuBLAS", "of CUB", "of NPP") must
   be a row's share of the library's speed, and **one just before "of the copy"** ("55.6% of the
   copy's bandwidth", "of a copy") a row's "% of copy" (or its share of the library, where the
   library rung is the copy), and one just before "of the DRAM peak" ("of its DRAM peak", "88.5% of
   the H200's." after "DRAM" in its sentence, also where the words wrap) a row's "% peak", unless
   listed as computed.
   **A figure that names its --profile column** ("SM 62.0%", "DRAM 37.4%", "occupancy falls to
   25.8%") must be a value of that column in the reports the line may quote (a rung's, or a kernel's
   note under a ladder) or of the text's Nsight Compute exports, and a pair of them ("SM 55.0% and
   55.6%") one step's values in two reports (its two GPUs, or two sizes): "occupancy 35.0%" where
   the step's is 35.1% once passed by matching another field.
2. **a value of a committed Nsight Compute export**, slides/data/<gpu>/ncu/<track>-<NN>[-<k>].csv
   (what slides/data/profile.sh wrote from the lesson README's own ncu command, on that GPU), at
   the precision the text shows: a metric's value (bytes also in KB, MB, GB, KiB, MiB, GiB; ns
   also in us and ms; a count also in thousands, millions, billions), sectors per request,
   shared wavefronts per shared load instruction, threads per instruction, or one kernel's
   value over another's of the same metric (also as a percentage). A lesson README is checked
   against its lesson's exports, a track's other texts against the track's, README.md against
   all (a table row of a track's, above, its track's); a section that names a GPU ("H200",
   `slides/data/h200/...`) against that GPU's alone (a section of one GPU's figures, above:
   outside the other GPU's parentheses, that GPU's).
   A figure listed below for another reason than ncu is not looked for there. In a lesson
   README's "See it in Nsight Compute" section that names no report, once the lesson has
   exports for the GPUs the section names, a figure is looked for in the exports alone (a
   report value that matches an ncu figure by chance does not count).
   In a track's texts (not a lesson README), one GPU's parenthesis beside the other GPU's
   Nsight Compute figure, "tensor pipe active 42.73% of cycles (H200: 43.46%)", quotes the same
   value: the parenthesis's k-th figure (of n) pairs with the k-th of the n figures said before
   it in its paragraph or list item, outside that GPU's parentheses ("62.63% ... 30.32% (H200:
   50.13% and 22.17%)", "(H100: 6.04%; H200: 6.11%)"), and where the other GPU's figure is an
   export's value, this one must be its GPU's export's value of the same lesson, metric and
   kernel row (or scale, or ratio of the same two rows): the other GPU's own figure, or another
   kernel's or metric's that matches by chance, fails.
   **A table of exports** is checked more strictly, whole numbers included: a table whose header
   names an export in each of its value columns (`h100/ncu/occupancy-03.csv`, as a link or not)
   and whose every row names one metric of them in backticks in its first cell
   (`launch__registers_per_thread`); each number of a cell must be that metric's value in that
   column's export (a kernel row's, at the precision shown, bytes also in KB ... GiB, times also
   in us and ms). A value of another metric, or a count off by one, fails. Quote counts such as
   registers, blocks and instructions in such a table: outside one, whole numbers are not
   checked, except in that Nsight Compute section a count written with thousands separators
   (58,720,256), which must be an export's value or listed (computed: 131,072 passes of a warp).
3. **listed in tests/figures_not_in_reports.txt**, with why it is not from a report: cited
   (the talk's, the slides', the post's), computed (a bound, a count from the code), ncu (an
   Nsight Compute count or a --profile column, no export committed yet) or example. An entry
   that no longer appears in its file, or appears only where a report or an export holds it,
   fails the check too, so the list stays the list of what is unchecked (`--prune` removes it).
   An entry is that only where every occurrence passes on its own merits: a figure listed as
   `computed` is never a report's value (its why names the data it comes from, checked below), nor
   one listed as `ncu` (but for a --profile column), and in a track's texts, checked
   against all the track's exports, only an export of a lesson its paragraph or list item names
   (step 05, 05_fused/, `pipeline-05`, a kernel in backticks that it profiles), or the same
   metric beside the other GPU's figure (above), makes its entry unneeded: one that matches
   another lesson's value by chance keeps it. Once exports are
   committed for a lesson (for a track's texts: for the track), of the GPU its section names
   if it names one, an `ncu` entry there whose
   figure no export holds fails: the text is corrected from the export (an entry whose why
   names `--profile` is exempt: those columns come from the JSON reports). With no exports
   committed, `ncu` entries are accepted as listed. An export must be of its README's command
   as the README writes it now (the export's first line): one measured with a command since
   changed, or for a command the README no longer has, fails.
   A why that quotes committed data names the file beside the numbers it takes from it
   ("68,356,120 warp instructions (h200/ncu/pipeline-09-2.csv)", "(h200/ncu/matmul-07-2.csv,
   matmul-08-2.csv)", "(... and -1.csv)"): each count with thousands separators, whole number of
   five digits or more and decimal of three places or more between the file and the place named
   before it (after the last `;`, `:` or `=`, before which numbers are derived) must be in one of
   the files it names at the precision written, and the files must be committed: a why, and the
   figure computed from it, cannot go stale when the data are measured again.

A figure equal to a threshold of tests/speed_verdict.h (`inline constexpr double ... = 0.85;`) is
the grading rule, not a measurement, and passes where the words before it say so ("at least
0.85x as fast", "the minimum is 0.85": RULE_CONTEXT; in a table, in its own cell); elsewhere, in
a ladder's table or a sentence of measurements, it is checked like any figure; not the
reference's largest spread (kMaxReferenceSpread), which texts write as a percentage ("50%"), so
that a measured 0.5 is still checked.

Grading sections are checked like the rest: a race figure typed from a run fails (a text names
the command that measures it, tests/check-grading). Not checked: the tables tests/check-grading
--starters --write-readmes writes between its `<!-- starters-table: begin ... -->` and
`<!-- starters-table: end -->` markers (written from its grading log), numbers
without a decimal point (counts such as 1,876,241, whole percentages) outside a table of
exports and the counts of an Nsight Compute section above, and versions (CUDA 13.0).

The texts also must not narrate how the figures were made ("in this run", "an earlier
session", "the same day": NARRATION below): a figure names its GPU, its report and the command
that measures it again.

A number that is neither fails the check, with its file and line: a figure copied by hand
that no report holds, a stale figure after the reports were measured again, or a typing
mistake. Fix the text from the report, or, if the figure is not a measurement, add it to
the list with its reason.

**A lesson's "GPU, size" table** (header `| GPU, size | step 07 ms | step 08 ms | 08 vs 07 | ...`,
rows `| H200, 8192x8192 | ...`) is checked cell by cell (check_size_table): each column shows
its field of the ladder of that GPU's report of the track at that size (`<track>.json` or
`<track>-<width>.json`, whose problem says the size; `DRAM %`, `SM %`, `occupancy`, `limiter` and
a kernel's `` `name` `` column, "0.0427 ms, latency", from its `-profile` twin and its notes): a
row's own time, the named steps' ratio, its % of copy and share of the library. A stale cell that
happens to equal another field or another row's ratio, which the rules above accept, fails.
So is a lesson's **"| GPU | 4096^3: ms | vs prev | % of cuBLAS | 8192^3: ms | ..."** table
(check_cube_table): each size's cells of a GPU's row are the fields of the lesson's step in that
GPU's report of the track whose problem is that size. So is **a track's two-GPU ladder table**
(header `| step | H100 ms | vs prev | % of copy | H200 ms | ...`, or `| step | H100 DRAM % | SM % |
occupancy | limiter | H200 DRAM % | ...`; rows of a step, the copy, NPP)
(check_gpu_ladder_table): each GPU's cells of a row must be the fields of that step's rung in
one report of that GPU that the section names (or of the track's); a column that names its size
(`| H200 vs prev (2^22) | H200 vs prev (2^26) |`) takes the rung from a ladder of that size. So is
**a track's one-GPU ladder table** (`| step | 4096^3: ms | vs prev | % of cuBLAS | % peak | 8192^3:
ms | ...`) after a sentence that names its GPU ("On the NVIDIA H100 ..."; check_step_cube_table):
each cell of a step's row is its column's field of that step in that GPU's report of that size;
such a table after a sentence that names no GPU, or both, fails, and so do a row that is no step,
a column of no known field and a header that names a size in another form (their cells would go
unchecked). A figure in a paragraph that names a committed sweep's file of its GPU
(`h200/hgemm-sweep-order.txt`, slides/data/<gpu>/*.txt) may be one of that file's numbers with the
same unit ("0.618x" one followed by "x"); a named file that is not committed fails.
"""

import bisect
import importlib.util
import json
import math
import re
import sys
from pathlib import Path

PRUNE = "--prune" in sys.argv[1:]
ARGS = [a for a in sys.argv[1:] if a != "--prune"]
ROOT = Path(ARGS[0]) if ARGS else Path(__file__).resolve().parent.parent
LIST = ROOT / "tests" / "figures_not_in_reports.txt"

NUMBER = re.compile(r"(?<![\w.^/-])(\d[\d,]*\.\d+)(?![\w.]*\d)")
LINK = re.compile(r"(h100|h200)/([a-z0-9-]+)\.json")
# The Nsight Compute exports, slides/data/<gpu>/ncu/<track>-<NN>[-<k>].csv (slides/data/profile.sh)
EXPORT = re.compile(r"^([a-z0-9]+)-(\d\d)(?:-\d+)?\.csv$")
LESSON_README = re.compile(r"^lessons/([a-z0-9]+)/(\d\d)_[^/]+/README\.md$")


# The grading rule's thresholds (tests/speed_verdict.h: `inline constexpr double kName = 0.85;`): a
# rule, not a measurement, so a text may state them anywhere ("at least 0.85x as fast").
RULE_CONSTANT = re.compile(r"^\s*inline\s+constexpr\s+double\s+(\w+)\s*=\s*(\d+\.\d+)\s*;", re.M)
# Thresholds that texts write as a percentage ("more than 50%"), never as the constant: exempting
# their value (0.5) would let any measured 0.5 pass unchecked.
PERCENT_CONSTANTS = {"kMaxReferenceSpread"}


# Where a threshold's value is the rule, not a measurement: the words before it say so ("at least
# 0.85x as fast", "the minimum is 0.85"), on its line or at the end of the line above; in a table,
# in its own cell. The same value in a ladder's table
# or a sentence of measurements ("step 02 at 0.85x") is a figure like any other.
RULE_CONTEXT = re.compile(r"\bat\s+(?:least|most)\b|\bminimum\b|\bmaximum\b|\bthreshold|\brule\b", re.I)


def rule_constants():
    """The thresholds tests/speed_verdict.h defines, as the strings a text writes them ("0.85")."""
    header = ROOT / "tests" / "speed_verdict.h"
    if not header.exists():
        return set()
    return {value for name, value in RULE_CONSTANT.findall(header.read_text()) if name not in PERCENT_CONSTANTS}

# A lesson README's section of Nsight Compute commands (slides/data/ncu_commands.py reads them there)
NCU_SECTION = "See it in Nsight Compute"
# A percentage with a decimal point after the word "spread" on its line: a row's spread
SPREAD_FIGURE = re.compile(r"(?<![\w.])(\d+\.\d+)%")
# A percentage of the library rung, written just before its name ("96.2% of cuBLAS"): a row's
# share of the library's speed
LIBRARY_FIGURE = re.compile(r"(?<![\w.])(\d+\.\d+)% of (?:the )?(?:cuBLAS|CUB|NPP)\b")
# A percentage just before "of the copy" ("55.6% of the copy's bandwidth", "of a copy", "of its
# faster copy"): a rung's "% of copy" column, or a figure listed as computed
COPY_FIGURE = re.compile(r"(?<![\w.])(\d+\.\d+)% of (?:the|a|its)(?: faster)? copy\b")
# A percentage just before "of the DRAM peak" ("69.9% of the DRAM peak", "of its theoretical DRAM
# peak", "of the DRAM's peak", "92.0% of the H100's DRAM peak and 88.5% of the H200's."), also where
# the words wrap onto the next line: a rung's "% peak" column (its throughput over the GPU's DRAM
# peak), or a figure listed as computed. "88.5% of the H200's." counts only after "DRAM" in the
# same sentence, so that "55.0% of the H200's" after "of the H100's copy" is not taken for one.
PEAK_FIGURE = re.compile(r"(?<![\w.])(\d+\.\d+)% of (?:the|its|an?) (?:(?:GPU|H100|H200)'s )?(?:theoretical )?"
                         r"DRAM(?:'s)? peak\b|(?<![\w.])(\d+\.\d+)% of the (?:H100|H200)'s(?=[.;,)])")


def peak_figures(previous_line, line, next_line):
    """The percentages of `line` before "of the DRAM peak" (PEAK_FIGURE), reading on into
    `next_line` where the words wrap, and back into `previous_line` for the sentence's "DRAM"."""
    before = previous_line.strip() + " "
    text = before + line + " " + next_line.strip()
    found = []
    for match in PEAK_FIGURE.finditer(text):
        if match.start() < len(before):
            continue
        if match.start() >= len(before) + len(line):
            break
        if match.group(1):
            found.append(match.group(1))
        elif "DRAM" in text[text.rfind(". ", 0, match.start()) + 1:match.start()]:
            found.append(match.group(2))
    return found


# A --profile column's figure, named by its column: "SM 62.0%", "DRAM 37.4%", "occupancy falls to
# 25.8%", and a pair of them, "SM 55.0% and 55.6%" (one step's values on two GPUs or at two sizes).
PROFILE_FIGURE = re.compile(r"\b(SM|DRAM|[Oo]ccupancy)(?: (?:falls|rises|drops|is|was|at|to|of|up)){0,2} "
                            r"(\d+\.\d+)%(?: and (\d+\.\d+)%)?")
PROFILE_COLUMNS = {"SM": "SM %", "DRAM": "DRAM %", "occupancy": "occupancy"}
# A count with thousands separators: 58,720,256
COUNT = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+)(?![\d,]*\d|\.\d)")

# Texts for students say what was measured, on which GPU, in which report, with which command;
# never the story of the runs (which session, which day, which build, what is not measured
# yet). These phrases tell that story.
NARRATION = re.compile(
    r"\b(in|of) this run\b|this run's|earlier session|that session|same session|console log|the same day|"
    r"not measured (in|yet)|was not measured|were not measured|lease ended|GPU lease|grading run|an earlier run|"
    r"the next run|was not profiled|in these runs|as it landed",
    re.I,
)

# The reasons a figure may have for not being in a report (tests/figures_not_in_reports.txt).
REASONS = ("cited", "computed", "ncu", "example")

# A number that names a version or a model, not a measurement: CUDA 13.0, sm_90, compute
# capability 7.5, driver 580.159.04, Meson 1.0.1.
NOT_A_FIGURE = re.compile(r"(CUDA|capability|capabilities|driver|Meson|sm_|version|clang-format|C\+\+)[ -]*$", re.I)


def figures_in(line):
    """The figures of a line of text: numbers with a decimal point, not versions."""
    return [token for token, _ in figures_at(line)]


def figures_at(line):
    """The figures of a line of text with where each starts."""
    found = []
    for m in NUMBER.finditer(line):
        if NOT_A_FIGURE.search(line[: m.start()]):
            continue
        found.append((m.group(1), m.start()))
    return found


def numbers_in(text):
    """Every number with a decimal point in a string, as floats."""
    return [float(m.replace(",", "")) for m in re.findall(r"-?\d[\d,]*\.\d+|-?\d+", text)]


class Report:
    """One committed report: every value a text may quote from it."""

    def __init__(self, path):
        self.path = path
        self.gpu = path.parent.name
        self.name = path.stem
        data = json.loads(path.read_text())
        self.data = data
        values = []
        device = data.get("device", {})
        for key in ("peak_dram_gbps", "peak_fp32_gflops", "sm_clock_mhz", "sm_count"):
            if isinstance(device.get(key), (int, float)):
                values.append(device[key])
        if isinstance(device.get("peak_fp32_gflops"), (int, float)):
            values.append(device["peak_fp32_gflops"] / 1000.0)
        self.ladders = data.get("ladders", [])
        tables = []
        for ladder in self.ladders:
            values.append(ladder.get("peak") or 0)
            tables.append(ladder["rungs"])
            for note in ladder.get("notes", []):
                values += numbers_in(note)
            for rung in ladder["rungs"]:
                values += self.rung_values(rung)
        for sweep in data.get("sweeps", []):
            values.append(sweep.get("peak") or 0)
            tables.append(sweep["points"])
            for note in sweep.get("notes", []):
                values += numbers_in(note)
            for point in sweep["points"]:
                values += self.rung_values(point)
                for v in point.get("values", {}).values():
                    if isinstance(v, (int, float)):
                        values += [v, 100.0 * v]
        # Ratios within one table: every row's time over every other's, and throughputs.
        for rows in tables:
            times = [r["median_ms"] for r in rows if r.get("median_ms")]
            # and the times of extra columns (a memory-only variant's ms), against each other
            # and against the rows' own
            times += [float(v) for r in rows for k, v in (r.get("extra") or {}).items()
                      if k.endswith(" ms") and re.fullmatch(r"\d+\.\d+", str(v))]
            rates = [r["throughput"] for r in rows if r.get("throughput")]
            for a in times:
                for b in times:
                    values.append(a / b)
            for a in rates:
                for b in rates:
                    values += [a / b, 100.0 * a / b]
        self.values = sorted(v for v in values if isinstance(v, (int, float)) and math.isfinite(v))

    @staticmethod
    def rung_values(rung):
        values = []
        for key in ("median_ms", "min_ms", "max_ms", "throughput", "speedup_vs_previous", "speedup_vs_first"):
            v = rung.get(key)
            if isinstance(v, (int, float)):
                values.append(v)
        if isinstance(rung.get("throughput"), (int, float)):
            values.append(rung["throughput"] / 1000.0)  # GFLOP/s as TFLOP/s
        if isinstance(rung.get("median_ms"), (int, float)):
            values.append(rung["median_ms"] * 1000.0)  # microseconds
        for key in ("spread", "percent_of_peak", "fraction_of_library"):
            v = rung.get(key)
            if isinstance(v, (int, float)):
                values += [100.0 * v, v]
        for v in (rung.get("extra") or {}).values():
            values += numbers_in(str(v))
        return values


def rounding_to(shown, decimals, values):
    """The slice (start, stop) of the sorted `values` that round to the figure as shown (within
    half a unit of its last digit)."""
    tolerance = 0.5 * 10.0 ** -decimals * (1 + 1e-9) + 1e-12
    return bisect.bisect_left(values, shown - tolerance), bisect.bisect_right(values, shown + tolerance)


def matches(shown, decimals, values):
    """Whether some value rounds to the figure as shown."""
    start, stop = rounding_to(shown, decimals, values)
    return start < stop


def token_matches(token, values):
    """matches() for a figure as the text writes it ("1,234.5", "0.1147"): at its decimals."""
    plain = token.replace(",", "")
    return matches(float(plain), len(plain.split(".")[1]) if "." in plain else 0, values)


def load_reports():
    return [Report(p) for p in sorted((ROOT / "slides" / "data").glob("*/*.json"))]


def ncu_commands_module():
    """slides/data/ncu_commands.py of this checkout, which writes the exports and reads them."""
    path = Path(__file__).resolve().parent.parent / "slides" / "data" / "ncu_commands.py"
    spec = importlib.util.spec_from_file_location("ncu_commands", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Units ncu writes under --print-units base, and the scales a text shows them in: bytes as KB, MB,
# GB (and KiB, MiB, GiB), times in ns as us and ms. Any count may also be shown in thousands,
# millions or billions ("56.6 million instructions").
UNIT_SCALES = {"byte": [1e-3, 1e-6, 1e-9, 2.0**-10, 2.0**-20, 2.0**-30], "nsecond": [1e-3, 1e-6],
               "usecond": [1e-3, 1e3], "msecond": [1e3]}
UNIT_SCALES.update({"B": UNIT_SCALES["byte"], "ns": UNIT_SCALES["nsecond"], "us": UNIT_SCALES["usecond"],
                    "ms": UNIT_SCALES["msecond"]})
COUNT_SCALES = [1e-3, 1e-6, 1e-9]


def per(name, names):
    """The metrics a text divides this one by, in one row: sectors per request, shared-memory
    wavefronts per shared load instruction, threads per warp instruction."""
    if "sectors" in name and name.replace("sectors", "requests") in names:
        yield name.replace("sectors", "requests")
    if "wavefronts" in name and "shared" in name:
        yield from (n for n in names if "inst_executed_op_shared" in n)
    if "thread_inst_executed" in name and name.replace("thread_inst_executed", "inst_executed") in names:
        yield name.replace("thread_inst_executed", "inst_executed")


class Export:
    """One lesson's Nsight Compute exports on one GPU: every value a text may quote from them,
    each also kept with what it is (its key: the metric, and which kernel row, scale, or ratio of
    two rows), so that the other GPU's figure of the same metric can be found (keys_of, of_keys)."""

    def __init__(self, gpu, track, step, paths, read_export):
        self.gpu, self.track, self.step = gpu, track, step
        self.paths = paths
        keyed = []  # (value, key)
        by_metric = {}
        for path in paths:
            _, columns = read_export(path)
            names = {name: (unit, rows) for name, unit, rows in columns}
            for name, unit, rows in columns:
                by_metric.setdefault(name, []).extend(((path.name, r), v) for r, v in enumerate(rows))
                for r, v in enumerate(rows):
                    row = (path.name, r)
                    keyed.append((v, (name, row, 1.0)))
                    keyed += [(v * f, (name, row, f)) for f in UNIT_SCALES.get(unit, [])]
                    if unit != "%" and unit not in UNIT_SCALES or unit in ("byte", "B"):
                        keyed += [(v * f, (name, row, "count", f)) for f in COUNT_SCALES]
                for other in per(name, names):
                    for r, (a, b) in enumerate(zip(rows, names[other][1])):
                        if b:
                            keyed.append((a / b, (name, (path.name, r), "per", other)))
        # Ratios of one metric between the kernels the lesson profiles ("4.0x the sectors"), also as
        # a percentage.
        for name, rows in by_metric.items():
            for i, a in rows:
                for j, b in rows:
                    if b and i != j:
                        keyed += [(a / b, (name, i, "over", j)), (100.0 * a / b, (name, i, "over", j, "%"))]
        self.keyed = sorted(((v, k) for v, k in keyed if math.isfinite(v)), key=lambda vk: vk[0])
        self.values = [v for v, _ in self.keyed]

    def keys_of(self, shown, decimals):
        """The keys of the values that round to the figure as shown."""
        start, stop = rounding_to(shown, decimals, self.values)
        return {key for _, key in self.keyed[start:stop]}

    def profiles(self, kernel):
        """Whether one of the exports profiled that kernel (its name in a kernel row or a regex)."""
        if not hasattr(self, "text"):
            self.text = "\n".join(p.read_text() for p in self.paths)
        return re.search(r"\b%s\b" % re.escape(kernel), self.text) is not None

    def of_keys(self, keys):
        """The values of those keys."""
        return sorted(v for v, k in self.keyed if k in keys)


def load_exports(problems):
    """The committed Nsight Compute exports, one Export per lesson and GPU. Each must be of its
    lesson README's command as the README writes it now (its first line): an export of a
    command since changed, or of one the README no longer has, is stale."""
    paths = {}
    for path in sorted((ROOT / "slides" / "data").glob("*/ncu/*")):
        m = EXPORT.match(path.name)
        if not m:
            problems.append("%s: not an export's name (<track>-<NN>[-<k>].csv)" % path.relative_to(ROOT))
            continue
        paths.setdefault((path.parent.parent.name, m.group(1), m.group(2)), []).append(path)
    if not paths:
        return []
    module = ncu_commands_module()
    commands = {c.name: c for c in module.all_commands(ROOT)}
    for group in paths.values():
        for path in group:
            command = commands.get(path.stem)
            written, _ = module.read_export(path)
            if command is None:
                problems.append("%s: its README has no such ncu command (%s): measure the lesson again with "
                                "slides/data/profile.sh, which removes it" % (path.relative_to(ROOT), path.stem))
            elif written != command.text:
                old, new = written.split(), command.text.split()
                at = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
                problems.append("%s: measured with `... %s ...`, but %s:%d now says `... %s ...`: measure it again "
                                "with slides/data/profile.sh BUILD_DIR %s %s"
                                % (path.relative_to(ROOT), " ".join(old[at:at + 2])[:100], command.readme,
                                   command.line, " ".join(new[at:at + 2])[:100], path.parent.parent.name,
                                   command.lesson))
    return [Export(gpu, track, step, group, module.read_export) for (gpu, track, step), group in sorted(paths.items())]


def export_values(exports, rel, track, gpus):
    """The export values a text may quote: a lesson README its lesson's, a track's other texts
    the track's, README.md every export's, of the GPUs its section names (all where it names
    none); None when there are none (nothing committed yet for that lesson, track or GPU)."""
    lesson = LESSON_README.match(rel)
    if lesson:
        chosen = [e for e in exports if (e.track, e.step) == lesson.groups()]
    else:
        chosen = [e for e in exports if track is None or e.track == track]
    if gpus:
        chosen = [e for e in chosen if e.gpu in gpus]
    if not chosen:
        return None
    return sorted(v for e in chosen for v in e.values)


def gpus_named(text):
    """The GPUs a section names ("on the H200", slides/data/h100/...)."""
    return frozenset({g for g, _ in LINK.findall(text)} |
                     {g for g, word in (("h200", "H200"), ("h100", "H100")) if word in text})


def texts():
    yield ROOT / "README.md", None
    for deck in sorted((ROOT / "slides").glob("*.md")):
        yield deck, deck.stem
    for track_dir in sorted((ROOT / "lessons").iterdir()):
        if not track_dir.is_dir() or not (track_dir / "README.md").exists():
            continue
        yield track_dir / "README.md", track_dir.name
        if (track_dir / "NOTES.md").exists():
            yield track_dir / "NOTES.md", track_dir.name
        for lesson in sorted(track_dir.iterdir()):
            if lesson.is_dir() and re.match(r"\d\d_", lesson.name) and (lesson / "README.md").exists():
                yield lesson / "README.md", track_dir.name


STYLE = re.compile(r"<style\b[^>]*>.*?</style>", re.S)
IMAGE_SIZE = re.compile(r"!\[[^\]]*\]\(")


def deck_lines(text):
    """A Marp deck's lines with its syntax blanked, so that only what the slides say is
    checked: the front matter (between the first two `---` lines: the theme's CSS), `<style>`
    blocks and scoped style tags (CSS sizes), and image alt texts (Marp's size attributes,
    `![h:590](...)`). Blanked, not removed, so that line numbers stay the file's."""
    lines = text.splitlines()
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if end is not None:
            lines[: end + 1] = [""] * (end + 1)
    text = STYLE.sub(lambda m: "\n" * m.group(0).count("\n"), "\n".join(lines))
    return [IMAGE_SIZE.sub("![](", line) for line in text.splitlines()]


def load_list():
    """tests/figures_not_in_reports.txt: `path | figure | why` lines."""
    entries = {}
    if not LIST.exists():
        return entries
    for number, line in enumerate(LIST.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3 or not parts[2].startswith(tuple(r + ":" for r in REASONS)):
            raise SystemExit("%s:%d: expected `path | figure | why`, the why starting with one of %s and a colon, "
                             "got %r" % (LIST, number, ", ".join(REASONS), line))
        entries.setdefault((parts[0], parts[1]), [number, parts[2], 0])
    return entries


# A listed entry's why that quotes committed data names the file beside the numbers it takes from
# it: "68,356,120 warp instructions (h200/ncu/pipeline-09-2.csv)", "0.063728 ms
# (h200/pipeline-8192.json)", "167,802,012 in h200/ncu/matmul-04-2.csv". A parenthesis may name
# several files, the later ones by their name alone, in the first one's folder
# ("(h200/ncu/matmul-07-2.csv, matmul-08-2.csv)"), or by a new ending ("(h200/ncu/pipeline-09-2.csv
# and -1.csv)").
DATA_FILE = re.compile(r"(?:slides/data/)?\b(h100|h200)/((?:ncu/)?[a-z0-9-]+\.(?:csv|json|txt))")
# In a parenthesis, each file in turn: a full one, or a name or an ending taken against the one
# named just before it
NAMED_FILE = re.compile(DATA_FILE.pattern + r"|(?<![\w/.-])(-?[a-z0-9][a-z0-9-]*\.(?:csv|json|txt))\b")
# The numbers a why quotes from data rather than derives: counts with thousands separators, whole
# numbers of five digits or more, decimals of four digits before the point (3352.3) or of three
# places or more (not 1.50 or 66.9)
QUOTED = re.compile(r"(?<![\w.,^/-])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{4,}\.\d+|\d+\.\d{3,}|\d{5,})(?![\w.,]*\d)")
DATA_NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_data_numbers = {}


def data_numbers(path):
    """Every number in a committed data file (thousands grouped by commas or not), as floats."""
    if path not in _data_numbers:
        _data_numbers[path] = [float(m.replace(",", "")) for m in DATA_NUMBER.findall(path.read_text(errors="replace"))]
    return _data_numbers[path]


def after_last_break(text):
    """What follows the last `;`, `:` or `=` of a text: what comes before them is said of something
    else, or derived."""
    return text[max(text.rfind(";"), text.rfind(":"), text.rfind("=")) + 1:]


def quoted_data(why):
    """(the numbers quoted, the files they are quoted from) for each place a why names committed
    data: a file, or a parenthesis that names one or more. The numbers are those between the place
    before (or the why's start) and the first file named, after the last `;`, `:` or `=`; of a
    parenthesis, those before it and those in it before its first file."""
    groups = []
    start = position = 0
    while True:
        ref = DATA_FILE.search(why, position)
        if ref is None:
            return groups
        opened, closed = why.rfind("(", 0, ref.start()), why.find(")", ref.end())
        if opened > why.rfind(")", 0, ref.start()) and closed >= 0:
            files = []
            for named in NAMED_FILE.finditer(why, ref.start(), closed):
                if named.group(1):
                    files.append(named.group(1) + "/" + named.group(2))
                elif named.group(3).startswith("-"):
                    files.append(files[-1][: files[-1].rfind("-")] + named.group(3))
                else:
                    files.append(files[-1].rsplit("/", 1)[0] + "/" + named.group(3))
            text = after_last_break(why[start:opened]) + " " + after_last_break(why[opened + 1:ref.start()])
            end = closed + 1
        else:
            files = [ref.group(1) + "/" + ref.group(2)]
            text = after_last_break(why[start:ref.start()])
            end = ref.end()
        groups.append((QUOTED.findall(text), files))
        start = position = end


def check_listed_data(listed, problems):
    """Each number a listed entry's why quotes from a committed data file is in one of the files
    it names there, at the precision written (a why goes stale with the data it quotes); a file
    named that is not committed fails. Returns how many numbers were found."""
    found = 0
    for (rel, token), (number, why, _) in sorted(listed.items(), key=lambda item: item[1][0]):
        for numbers, files in quoted_data(why):
            paths = [ROOT / "slides" / "data" / f for f in files]
            missing = [f for f, path in zip(files, paths) if not path.is_file()]
            if missing:
                problems.append("%s:%d: %s | %s: the why names %s, which %s not committed"
                                % (LIST.name, number, rel, token, ", ".join("slides/data/" + f for f in missing),
                                   "is" if len(missing) == 1 else "are"))
                continue
            values = [v for path in paths for v in data_numbers(path)]
            for quoted in numbers:
                decimals = len(quoted.split(".")[1]) if "." in quoted else 0
                shown = float(quoted.replace(",", ""))
                if any(abs(round(v, decimals) - shown) < 10 ** -(decimals + 3) for v in values):
                    found += 1
                else:
                    problems.append("%s:%d: %s | %s: the why quotes %s from %s, which does not hold it: correct "
                                    "the why (and the figure, if it is computed from it) from the file"
                                    % (LIST.name, number, rel, token, quoted, ", ".join(files)))
    return found


def ladder_blocks(lines):
    """(first line index, lines) of each code block that holds a ladder as the program prints it."""
    blocks, start = [], None
    for i, line in enumerate(lines):
        if line.startswith("```"):
            if start is None:
                start = i + 1
            else:
                block = lines[start:i]
                if any(re.match(r"\s+step\s+kernel\s", l) for l in block):
                    blocks.append((start, block))
                start = None
    return blocks


ROW = re.compile(r"^(?:you >)?\s*(\S+)\s{2,}(.*)$")


def check_ladder_block(start, block, lines, reports, rel, problems):
    """Ladders copied into a code block, each a problem line, the header and rows: each must be
    the same ladder of one report of the GPU named beside the block (or in the block's device
    line), row by row: its step, its title and its numbers."""
    near = "\n".join(lines[max(0, start - 12) : start] + block[:2] + lines[start + len(block) : start + len(block) + 3])
    gpus = {g for g, _ in LINK.findall(near)} or {g for g, word in (("h200", "H200"), ("h100", "H100")) if word in near}
    checked = set()
    headers = [i for i, l in enumerate(block) if re.match(r"\s+step\s+kernel\s", l)]
    for h in headers:
        rows = []
        for i in range(h + 1, len(block)):
            if not block[i].strip() or (i + 1 < len(block) and re.match(r"\s+step\s+kernel\s", block[i + 1])):
                break
            rows.append(i)
        if not rows:
            continue  # a header shown alone, to explain its columns
        head = block[h - 1] if h > 0 else ""
        problem = head.split(": ", 1)[1] if ": " in head else head
        candidates = [(r, ladder) for r in reports if not gpus or r.gpu in gpus for ladder in r.ladders
                      if ladder["problem"] == problem]
        if not candidates:
            problems.append("%s:%d: no report of %s holds this ladder (%s)"
                            % (rel, start + h, "/".join(sorted(gpus)) or "any GPU", problem[:80]))
            continue
        first_failures = None
        for report, ladder in candidates:
            failures = []
            for i in rows:
                m = ROW.match(block[i])
                if not m or "|" in block[i]:
                    continue  # a note or a timeline under the table
                step, rest = m.group(1), m.group(2)
                rung = next((r for r in ladder["rungs"] if r["step"] == step and rest.startswith(r["title"][:30])), None)
                if rung is None:
                    failures.append("%s:%d: ladder row %r is no row of %s/%s.json"
                                    % (rel, start + i + 1, step, report.gpu, report.name))
                    continue
                shown = NUMBER.findall(rest[len(rung["title"]) :])
                values = sorted(Report.rung_values(rung))
                wrong = [t for t in shown if not matches(float(t.replace(",", "")), len(t.split(".")[1]), values)]
                if wrong:
                    failures.append("%s:%d: ladder row %s: %s not in %s/%s.json's row"
                                    % (rel, start + i + 1, step, " ".join(wrong), report.gpu, report.name))
            if not failures:
                checked |= {start + i for i in rows if ROW.match(block[i]) and "|" not in block[i]}
                checked.add(start + h - 1)  # the problem line: the report's, word for word
                break
            if first_failures is None:
                first_failures = failures
        else:
            problems.extend(first_failures)
    return checked


# A table of Nsight Compute values names its exports in its header, one a column
# (`h100/ncu/occupancy-03.csv`, as a link or not), and its metric in each row's first cell, in
# backticks (`launch__registers_per_thread`).
EXPORT_COLUMN = re.compile(r"\b(h100|h200)/ncu/([a-z0-9]+-\d\d(?:-\d+)?)\.csv\b")
METRIC = re.compile(r"`([a-z0-9]+__[A-Za-z0-9_.]+)`")
CELL_NUMBER = re.compile(r"(?<![\w.^/-])(\d[\d,]*(?:\.\d+)?)(?![\w.]*\d)")


def cells(line):
    """The cells of a Markdown table row."""
    return [c.strip() for c in line.strip().strip("|").split("|")]


def export_tables(lines):
    """(index of the header, column -> (gpu, export name), body line indexes) of each table whose
    header names Nsight Compute exports, one a column."""
    tables, i = [], 0
    while i < len(lines):
        if not lines[i].startswith("|"):
            i += 1
            continue
        start = i
        while i < len(lines) and lines[i].startswith("|"):
            i += 1
        columns = {}
        for c, cell in enumerate(cells(lines[start])):
            m = EXPORT_COLUMN.search(cell)
            if m:
                columns[c] = m.groups()
        if columns:
            body = [j for j in range(start + 1, i) if not re.fullmatch(r"[|\s:-]+", lines[j])]
            tables.append((start, columns, body))
    return tables


EXPORT_COLUMNS = {}


def export_columns(gpu, name):
    """One export's numeric columns, metric -> (unit, [value per kernel row]); None if there is no
    such export."""
    if (gpu, name) not in EXPORT_COLUMNS:
        path = ROOT / "slides" / "data" / gpu / "ncu" / (name + ".csv")
        EXPORT_COLUMNS[(gpu, name)] = (
            {metric: (unit, rows) for metric, unit, rows in ncu_commands_module().read_export(path)[1]}
            if path.exists() else None)
    return EXPORT_COLUMNS[(gpu, name)]


def check_export_table(header, columns, body, lines, rel, problems):
    """A table of Nsight Compute values, checked strictly: each row names one metric, and every
    number of a column is that metric's value in that column's export (a kernel row's, at the
    precision shown, bytes also in KB ... GiB, times in us or ms), whole numbers included.
    Returns (lines checked, values checked)."""
    checked, values = set(), 0
    for c, (gpu, name) in sorted(columns.items()):
        if export_columns(gpu, name) is None:
            problems.append("%s:%d: the table's column %d names slides/data/%s/ncu/%s.csv, which is not committed"
                            % (rel, header + 1, c + 1, gpu, name))
            return checked, values
    for j in body:
        row = cells(lines[j])
        metrics = METRIC.findall(row[0]) if row else []
        known = [m for m in metrics if any(m in export_columns(*e) for e in columns.values())]
        if len(known) != 1:
            problems.append("%s:%d: a row of a table of Nsight Compute exports names %s: name one metric of its "
                            "exports in backticks in its first cell" % (rel, j + 1, "no metric of them" if not known
                                                                         else "several metrics (%s)" % ", ".join(known)))
            continue
        metric, wrong = known[0], []
        for c, cell in enumerate(row):
            if c == 0:
                continue
            shown = CELL_NUMBER.findall(cell)
            if c not in columns:
                if shown:
                    wrong.append("%s (column %d names no export)" % (" ".join(shown), c + 1))
                continue
            found = export_columns(*columns[c]).get(metric)
            if found is None:
                if shown:
                    wrong.append("%s (%s.csv has no %s)" % (" ".join(shown), columns[c][1], metric))
                continue
            unit, rows = found
            allowed = sorted(v * f for v in rows for f in [1.0] + UNIT_SCALES.get(unit, []))
            for token in shown:
                decimals = len(token.split(".")[1]) if "." in token else 0
                if matches(float(token.replace(",", "")), decimals, allowed):
                    values += 1
                else:
                    wrong.append("%s (%s/ncu/%s.csv: %s)" % (token, columns[c][0], columns[c][1], ", ".join(
                        "{:,.0f}".format(v) if v == int(v) else "{:,}".format(v) for v in rows)))
        if wrong:
            problems.append("%s:%d: `%s`: %s" % (rel, j + 1, metric, "; ".join(wrong)))
        else:
            checked.add(j)
    checked.add(header)  # its figures name the point profiled, not a measurement
    return checked, values


# A GPU a table's cell names: "H100", "H200 ms", "H100, 2048x2048", `slides/data/h200/...`
GPU_WORD = re.compile(r"\bH(100|200)\b|\bh(100|200)/")
# A table's column of another GPU's figures, the original material's ("8800 GT ms", "GT200, the
# slides", "the talk, GTX Titan X")
OTHER_GPU = re.compile(r"\b(8800|GT200|G80|GTX|Titan|GeForce|Pascal|talk|slides|post)\b", re.I)


def gpus_in(text):
    """The GPUs (h100, h200) a piece of text names."""
    return {"h" + (a or b) for a, b in GPU_WORD.findall(text)}


def table_gpus(lines):
    """For each body row of a Markdown table that says which GPU its figures are of, a function
    from a cell's index to that GPU (None where the table does not say). A header cell that
    names one GPU ("H100 ms", "H200: step 01 ms") makes its column that GPU's, and the columns
    after it too until a header cell names another (or both: "H100 / H200", or the original
    material's: "8800 GT ms"): "| H100 ms | vs prev | % of copy | H200 ms | ..." A row with a
    cell that names one GPU and holds no figure ("H100", "H200, 2048x2048", "loops, H100") is
    that GPU's, but for a column of the original material's. Where a row and its column name
    different GPUs, the cell is neither's."""
    result, i, fenced = {}, 0, False
    while i < len(lines):
        if lines[i].startswith("```"):
            fenced = not fenced
        if fenced or not lines[i].startswith("|"):
            i += 1
            continue
        start = i
        while i < len(lines) and lines[i].startswith("|"):
            i += 1
        columns, gpu = {}, None
        for c, cell in enumerate(cells(lines[start])):
            named = gpus_in(cell)
            if named:
                gpu = next(iter(named)) if len(named) == 1 else None
            elif OTHER_GPU.search(cell):
                gpu = None
                columns[c] = "other"
            if gpu:
                columns[c] = gpu
        for j in range(start + 1, i):
            if re.fullmatch(r"[|\s:-]+", lines[j]):
                continue
            labels = set()
            for cell in cells(lines[j]):
                if not figures_in(cell):
                    labels |= gpus_in(cell)
            row = next(iter(labels)) if len(labels) == 1 else None
            if not [g for g in columns.values() if g != "other"] and row is None:
                continue
            result[j] = (lambda c, columns=columns, row=row:
                         None if columns.get(c) == "other" or row and columns.get(c, row) != row
                         else columns.get(c, row))
    return result


# A parenthesis of the other GPU's figures beside this one's: "(H100: 2.81x, 106.9%)", "(H100:
# SM 64.3%, DRAM 50.4%; H200: SM 66.4%, DRAM 33.9%)", or one whose part after a semicolon begins
# with a GPU's name and a colon: "(H100, Nsight Compute; H200: 17.4% and 17.6%)"
GPU_ASIDE = re.compile(r"\((?:[^()]*;)?\s*(H100|H200)\b[^():;]{0,20}:[^()]*\)")
GPU_PART = re.compile(r"^\s*(H100|H200)\b[^():;]{0,20}:")


def aside_gpus(line):
    """(start, end, gpu) of each part of a line whose figures are one GPU's: a parenthesis that
    begins with the GPU's name and a colon ("(H100: 2.81x, 106.9%)"), up to a semicolon (or whose
    part after a semicolon does: "(H100, Nsight Compute; H200: 17.4%)"); a part
    after a semicolon that begins with a GPU's name and a colon is that GPU's ("; H200: SM
    66.4%"), any other part no GPU's."""
    parts = []
    for m in GPU_ASIDE.finditer(line):
        start = m.start() + 1
        for part in m.group(0)[1:-1].split(";"):
            named = GPU_PART.match(part)
            if named:
                parts.append((start, start + len(part), "h" + named.group(1)[1:]))
            start += len(part) + 1
    return parts


# A figure followed by the GPU it is of: "49.02% of its peak (H100) and 50.25% (H200)"
FIGURE_OF_GPU = re.compile(r"(?<![\w.^/-])\d[\d,]*\.\d+(?:%|x| ?ms| ?us)?\s*\((H100|H200)\)")


def gpu_parts(line):
    """(start, end, gpu) of each part of a line whose figures are one GPU's: a parenthesis of its
    figures (aside_gpus), or a figure followed by its GPU's name in parentheses ("50.25% (H200)")."""
    return aside_gpus(line) + [(m.start(), m.end(), "h" + m.group(1)[1:]) for m in FIGURE_OF_GPU.finditer(line)]


def section_gpus(lines):
    """For each line, the one GPU its section (from a `## ` heading to the next) is of, or None: a
    section whose first paragraph begins with a GPU's name and whose first sentence names no
    other ("NVIDIA H200 (sm_90, ...), CUDA 13.0. ...", README.md's measured results) gives that
    GPU's figures, the other GPU's standing in their parentheses ("(H100: 95.4%)"). A first
    sentence that names both ("NVIDIA H100 80GB HBM3 and NVIDIA H200, ...") names no one GPU."""
    result, gpu = [None] * len(lines), None
    for i, line in enumerate(lines):
        if line.startswith("## "):
            gpu, j = None, i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            first = []
            while j < len(lines) and lines[j].strip() and not lines[j].startswith(("#", "|", "```")):
                first.append(lines[j].strip())
                j += 1
            sentence = re.split(r"(?<=\.)\s", " ".join(first), maxsplit=1)[0]
            named = gpus_in(sentence)
            if len(named) == 1 and re.match(r"\**(NVIDIA\s+)?H(100|200)\b", sentence):
                gpu = next(iter(named))
        elif line.startswith("# "):
            gpu = None
        result[i] = gpu
    return result


def cell_at(line, position):
    """The index of a table row's cell that holds the character at position."""
    return line[:position].count("|") - line[:position].count("\\|") - 1


def paragraph_of(lines):
    """For each line, the text that names its reports: its table row, for a table row that
    names one; otherwise its section (from one heading to the next)."""
    result, start = [None] * len(lines), 0
    for i in range(len(lines) + 1):
        if i == len(lines) or lines[i].startswith("#"):
            text = "\n".join(lines[start:i])
            for j in range(start, i):
                result[j] = text
            start = i
    for i, line in enumerate(lines):
        if line.startswith("|") and ".json" in line:
            result[i] = line
    return result


# A line that begins a unit of text of its own: a list item ("- ", "* ", "1. "), a table row, a
# heading or a code fence.
UNIT_START = re.compile(r"\s*([-*]\s|\d+\.\s|[|#]|```)")


def unit_of(lines, index):
    """The first line of the paragraph, list item or table row that holds line `index`: what a
    figure is said beside ("DRAM at 62.63% ... (H200: 50.13%)" may span two lines)."""
    start = index
    while (start > 0 and not UNIT_START.match(lines[start]) and lines[start - 1].strip()
           and not lines[start - 1].startswith(("#", "|", "```"))):
        start -= 1
    return start


# A committed text file of slides/data/ that a paragraph names (a sweep's table:
# `h200/hgemm-sweep-order.txt`, or a link to it).
SWEEP_FILE = re.compile(r"\b(h100|h200)/([\w.-]+\.txt)\b")
# a number with a decimal point, its thousands grouped by commas or not ("0.1133", "191,347.67")
SWEEP_NUMBER = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+|\d+)\.\d+")
# a number's unit in a sweep's file or a text: "x" right after it; "%", "ms", ... after a space or not
SWEEP_UNIT = re.compile(r"(x)(?!\w)|\s?(%(?!\w)|(?:ms|us|GB/s|[GT]FLOP/s)\b)")
_sweep_values = {}


def sweep_path(gpu, name):
    """Where a sweep's file that a text names (`h200/hgemm-sweep-order.txt`) is committed."""
    return ROOT / "slides" / "data" / gpu / name


def unit_after(text, end):
    """The unit right after a number that ends at `end`: "x", "%", "ms", "GB/s", ... or ""."""
    unit = SWEEP_UNIT.match(text, end)
    return (unit.group(1) or unit.group(2)) if unit else ""


def paragraph_around(lines, index):
    """The whole paragraph, list item or table row that holds line `index`."""
    start, end = unit_of(lines, index), index
    while (end + 1 < len(lines) and lines[end + 1].strip() and not UNIT_START.match(lines[end + 1])
           and not lines[end].startswith("|")):
        end += 1
    return "\n".join(lines[start:end + 1])


def sweep_values(text, gpu=None):
    """The numbers of the committed slides/data/<gpu>/*.txt files that `text` names, of `gpu`'s
    alone if given, by the unit that follows each ("x": [0.582, ...], "ms": [...]); None where it
    names none. Lines of a file's header (#) do not count."""
    files = sorted({(g, name) for g, name in SWEEP_FILE.findall(text) if gpu is None or g == gpu})
    if not files:
        return None
    values = {}
    for g, name in files:
        if (g, name) not in _sweep_values:
            path = sweep_path(g, name)
            found = {}
            if path.is_file():
                for line in path.read_text(errors="replace").splitlines():
                    if line.startswith("#"):
                        continue
                    for number in SWEEP_NUMBER.finditer(line):
                        found.setdefault(unit_after(line, number.end()), []).append(float(number.group(0).replace(",", "")))
            _sweep_values[g, name] = found
        for unit, numbers in _sweep_values[g, name].items():
            values.setdefault(unit, []).extend(numbers)
    return {unit: sorted(numbers) for unit, numbers in values.items()}


# The lessons a text names: "step 06", "steps 05 and 06", "lesson 03", 06_tma/, `hgemm-06`
STEPS_NAMED = re.compile(r"\b(?:steps?|lessons?)\s+((?:\d\d(?:,\s*|\s+(?:and|to|or)\s+|-)?)+)", re.I)


def lessons_named(text, track, exports):
    """The (track, step) of each lesson a piece of text names, by number, folder, export name or
    a kernel (in backticks) that its exports profile."""
    steps = {n for m in STEPS_NAMED.finditer(text) for n in re.findall(r"\d\d", m.group(1))}
    steps |= set(re.findall(r"\b(\d\d)_[a-z0-9_]+", text))
    if track:
        steps |= set(re.findall(r"\b%s-(\d\d)\b" % track, text))
    named = {(track, n) for n in steps} if track else set()
    for kernel in set(re.findall(r"`([A-Za-z_]\w*)`", text)):
        named |= {(e.track, e.step) for e in exports if (track is None or e.track == track) and e.profiles(kernel)}
    return named


def beside_values(lines, index, position, gpu, track, exports, reported):
    """For a figure of one GPU's parenthesis at `position` of line `index` ("(H200: 43.46%)"), the
    export values it may be, from the other GPU's figure said beside it: of the figures before
    it in its paragraph or list item, outside this GPU's parentheses, those a parenthesis of n
    figures follows, the k-th for its k-th ("DRAM at 62.63% ... at 30.32% (H200: 50.13% and
    22.17%)", "(H100: 6.04%; H200: 6.11%)"). The figure must be a value of this GPU's export of
    the same lesson with the same metric (and kernel row, scale or ratio) as the other GPU's has
    in its export. Returns (values, whether the other GPU's figure is a report's, by
    `reported`), or None where it is no export's value (or where fewer figures precede)."""
    other = {"h100": "h200", "h200": "h100"}[gpu]
    before = []
    for i in range(unit_of(lines, index), index + 1):
        parts = gpu_parts(lines[i])
        for token, at in figures_at(lines[i]):
            if i == index and at >= position:
                break
            if not any(a <= at < b and g == gpu for a, b, g in parts):
                before.append(token)
    part = next((a, b) for a, b, g in gpu_parts(lines[index]) if a <= position < b)
    ours = [at for _, at in figures_at(lines[index]) if part[0] <= at < part[1]]
    if len(before) < len(ours):
        return None
    token = before[len(before) - len(ours) + ours.index(position)]
    shown, decimals = float(token.replace(",", "")), len(token.split(".")[1])
    keys = {(e.track, e.step): e.keys_of(shown, decimals) for e in exports
            if e.gpu == other and (track is None or e.track == track)}
    if not any(keys.values()):
        return None
    return sorted(v for e in exports if e.gpu == gpu and keys.get((e.track, e.step)) for v in e.of_keys(
        keys[(e.track, e.step)])), reported(shown, decimals)


# A table row of one step of a ladder: its first cell is the step ("03"; not "ref" or "copy",
# whose rows may show the steps' share of them)
STEP_CELL = re.compile(r"^\**(\d\d)\**$")
GPU_CELL = re.compile(r"^\**H[12]00\**$")


def step_row_values(reports, step):
    """The values a table row of one step may show, from the rungs of that step in the reports'
    ladders: the rung's own (Report.rung_values), its speedup over each other row (the other's
    time over its own, the extra "... ms" columns too) and its throughput's share of each other
    row's; not a ratio of two other rows, which may match a figure of the row by chance."""
    values = []
    for report in reports:
        for ladder in report.ladders:
            rungs = ladder["rungs"]
            for rung in (r for r in rungs if r["step"] == step):
                values += Report.rung_values(rung)
                for times in (lambda r: [r.get("median_ms")],
                              lambda r: [float(v) for k, v in (r.get("extra") or {}).items()
                                         if k.endswith(" ms") and re.fullmatch(r"\d+\.\d+", str(v))]):
                    for b in (t for t in times(rung) if t):
                        values += [a / b for other in rungs for a in times(other) if a]
                if rung.get("throughput"):
                    for other in rungs:
                        if other.get("throughput"):
                            ratio = rung["throughput"] / other["throughput"]
                            values += [ratio, 100.0 * ratio]
    return sorted(v for v in values if isinstance(v, (int, float)) and math.isfinite(v))


def chosen_reports(text, scope, gpu=None):
    """The reports a text names (`basics.json`, `slides/data/h200/basics.json`, of any track), of
    the GPUs it names if it names a path, or of `gpu` alone if given (a table's row or column
    that names its GPU); [] when it names none."""
    names = set(re.findall(r"([a-z0-9-]+)\.json", text))
    # `-block16x20.json` beside `convolution-block16x8.json`: the same report's family
    families = {"-".join(n.split("-")[:i]) for n in names if not n.startswith("-") for i in range(1, n.count("-") + 1)}
    names |= {f + n for n in names if n.startswith("-") for f in families}
    gpus = {g for g, _ in LINK.findall(text)}
    if gpu is not None:
        return [r for r in scope if r.name in names and r.gpu == gpu]
    return [r for r in scope if r.name in names and (not gpus or r.gpu in gpus or "H100" in text or "H200" in text)]


def track_names():
    """The course's tracks: the folders lessons/<track>/ that have a README.md."""
    folder = ROOT / "lessons"
    return {d.name for d in folder.iterdir() if d.is_dir() and (d / "README.md").exists()} if folder.is_dir() else set()


def track_rows(lines, tracks):
    """For README.md: index -> track of each table row whose first cell names a track ("| hgemm |
    4096^3 ... |"): its figures are that track's."""
    rows = {}
    for index, line in enumerate(lines):
        if line.startswith("|"):
            first = cells(line)[0].strip("*` ")
            if first in tracks:
                rows[index] = first
    return rows


# A report a text names: `hgemm.json`, `slides/data/h200/occupancy-profile.json`, `-block16x20.json`
REPORT_NAME = re.compile(r"(?:\b(h100|h200)/)?(?<![a-z0-9-])([a-z0-9-]+)\.json\b")


def quoted_report(line, position):
    """(gpu or None, name) of the last report a table row names before `position`: the one its
    figures there quote, up to the next named; None before the first."""
    found = [m for m in REPORT_NAME.finditer(line) if m.end() <= position]
    return (found[-1].group(1), found[-1].group(2)) if found else None


def row_reports(row, quoted, scope, gpu):
    """The values a figure of a track's row of README.md may quote: of the report `quoted`
    (quoted_report; with the family of the names the row gives, `-block16x20.json` beside
    `convolution-block16x8.json`), or before any, of every report the row names, among its
    track's reports (`scope`), of `gpu` (its parenthesis's GPU) if given, else of the GPU of the
    path that names it; None where the row names no report."""
    if quoted is None:
        chosen = chosen_reports(row, scope, gpu)
        return sorted(v for r in chosen for v in r.values) if chosen else None
    path_gpu, name = quoted
    # chosen_reports(row, ...) applies the row's GPU rules and the family of `-suffix` names
    chosen = chosen_reports(row, scope, gpu)
    chosen = [r for r in chosen if (r.name == name or name.startswith("-") and r.name.endswith(name))
              and (gpu is not None or path_gpu is None or r.gpu == path_gpu)]
    return sorted(v for r in chosen for v in r.values)


def named_reports(text, scope, gpu=None):
    """The values of the reports a text names (chosen_reports); None when it names none."""
    chosen = chosen_reports(text, scope, gpu)
    if not chosen:
        return None
    return sorted(v for r in chosen for v in r.values)


def table_rows(lines, start):
    """(index, cells) of each row of the Markdown table whose header is lines[start], after its
    separator line, to the table's end."""
    for index in range(start + 2, len(lines)):
        if not lines[index].startswith("|"):
            return
        yield index, cells(lines[index])


# A lesson's table of measurements per GPU and size: its header starts "| GPU, size |", each row
# "| H200, 8192x8192 | ...": every cell is one field of the ladder of that GPU's report of the
# track at that size, the column's header says which (check_size_table).
SIZE_ROW = re.compile(r"^\**(H100|H200), (\d+)x(\d+)\**$")
SIZE_COLUMNS = (
    (re.compile(r"^step (\d\d) ms$"), "ms"),
    (re.compile(r"^(\d\d) vs (\d\d)$"), "speedup"),
    (re.compile(r"^(?:(\d\d) )?GB/s$"), "throughput"),
    (re.compile(r"^(?:(\d\d) )?% of copy$"), "copy"),
    (re.compile(r"^(?:(\d\d) )?% of (?:NPP|CUB|cuBLAS)$"), "library"),
    (re.compile(r"^(DRAM %|SM %)$"), "profile"),
    (re.compile(r"^(occupancy|limiter)$"), "profile"),
    (re.compile(r"^`(\w+)`$"), "kernel"),
)
KERNEL_NOTE = re.compile(r"(?P<kernel>\w+) \([\d, ]+\) (?P<ms>[\d.]+) ms, DRAM (?P<dram>[\d.]+)%, SM (?P<sm>[\d.]+)%, "
                         r"occupancy (?P<occupancy>[\d.]+)%, (?P<limiter>[\w+]+)")


def ladder_of(reports, gpu, names, problem):
    """(report, ladder): the first ladder of `gpu`'s reports named in `names` whose problem holds
    the text `problem` (its size: "8192x8192", "4096 x 4096 x 4096"); (None, None) if none."""
    for r in reports:
        if r.gpu == gpu and r.name in names:
            for ladder in r.ladders:
                if problem in ladder.get("problem", ""):
                    return r, ladder
    return None, None


def size_reports(reports, track, gpu, width, height):
    """The ladders (plain, profiled) of `gpu`'s reports of `track` at width x height: the report
    named after the track (or track-<width>) and its -profile twin, whose ladder's problem says
    the size."""
    names = (track, "%s-%d" % (track, width))
    size = "%dx%d" % (width, height)
    return ladder_of(reports, gpu, names, size), ladder_of(reports, gpu, tuple(n + "-profile" for n in names), size)


def check_size_table(rel, lines, start, reports, problems):
    """Rule of the "| GPU, size |" tables of a lesson's README (SIZE_COLUMNS): a cell must show its
    column's field of its row's report, at the precision shown; a value that only another field
    or another row holds (a stale time that happens to round to another step's) fails. Returns
    the number of cells checked."""
    match = LESSON_README.match(rel)
    track, own = match.group(1), match.group(2)
    header = cells(lines[start])
    count = 0
    for index, row in table_rows(lines, start):
        line = lines[index]
        where = SIZE_ROW.match(row[0])
        if not where or len(row) < 2 or not NUMBER.search(" ".join(row[1:])):
            continue  # a row of words ("| H100 | still to come |")
        gpu, width, height = where.group(1).lower(), int(where.group(2)), int(where.group(3))
        (plain, ladder), (profiled, profile) = size_reports(reports, track, gpu, width, height)
        if ladder is None:
            problems.append("%s:%d: no report of the %s holds the %s ladder at %dx%d for this row: %s"
                            % (rel, index + 1, gpu.upper(), track, width, height, line.strip()[:100]))
            continue
        rungs = {r["step"]: r for r in ladder["rungs"]}
        prungs = {r["step"]: r for r in profile["rungs"]} if profile else {}
        notes = {k.group("kernel"): (k.group("ms"), k.group("limiter")) for note in (profile or {}).get("notes", [])
                 for k in KERNEL_NOTE.finditer(note)}
        for head, cell in zip(header[1:], row[1:]):
            text = cell.replace("*", "").strip()
            kind = next(((m, k) for pattern, k in SIZE_COLUMNS for m in [pattern.match(head)] if m), None)
            if kind is None or not text or text == "-":
                continue
            column, kind = kind
            step = column.group(1) if column.groups() and column.group(1) and column.group(1)[:1].isdigit() else own
            want = None
            if kind == "kernel":
                entry = notes.get(column.group(1))
                want = entry and "%s ms, %s" % entry
                ok = want == text
            elif kind == "profile":
                rung = prungs.get(own)
                want = rung and str((rung.get("extra") or {}).get(column.group(1), ""))
                ok = want is not None and text.rstrip("%") == want.rstrip("%")
            else:
                number = NUMBER.search(text)
                shown = number and number.group(0)
                if kind == "speedup":
                    a, b = rungs.get(column.group(1)), rungs.get(column.group(2))
                    value = b and a and b["median_ms"] / a["median_ms"]
                elif kind == "copy":
                    value = rungs.get(step) and float(str(rungs[step]["extra"].get("% of copy", "nan")).rstrip("%"))
                else:
                    field = {"ms": "median_ms", "throughput": "throughput", "library": "fraction_of_library"}[kind]
                    value = rungs.get(step) and rungs[step].get(field)
                    if field in PERCENT_FIELDS and value is not None:
                        value = 100.0 * value
                want = value
                ok = shown is not None and value is not None and token_matches(shown, [value])
            count += 1
            if not ok:
                problems.append("%s:%d: column \"%s\" of the %s row shows %s, but %s/%s.json holds %s there: %s"
                                % (rel, index + 1, head, row[0].replace("*", ""), text, gpu,
                                   (profiled if kind in ("profile", "kernel") else plain).name if
                                   (profiled if kind in ("profile", "kernel") else plain) else track, want,
                                   line.strip()[:100]))
    return count


# A track's table of both GPUs' ladders: its header starts "| step |" and names a GPU in a column
# ("H100 ms", "H200 DRAM %"); that column and the ones after it, up to the next GPU's, are that
# GPU's (check_gpu_ladder_table).
GPU_COLUMN = re.compile(r"^(H100|H200) (.+)$")
SIZED_COLUMN = re.compile(r"^(.+?) \(([^)]+)\)$")  # "vs prev (2^22)": a field at one problem size
LADDER_FIELDS = {"ms": "median_ms", "vs prev": "speedup_vs_previous", "% of copy": "% of copy", "DRAM %": "DRAM %",
                 "SM %": "SM %", "occupancy": "occupancy", "limiter": "limiter", "GFLOP/s": "throughput",
                 "GB/s": "throughput", "% of cuBLAS": "fraction_of_library", "% of CUB": "fraction_of_library",
                 "% of NPP": "fraction_of_library", "% of FP32 peak": "percent_of_peak", "% peak": "percent_of_peak"}
# The rung's fields that are numbers (the others are strings of its extra columns), and those
# that the texts show as percentages of a fraction
NUMBER_FIELDS = ("median_ms", "speedup_vs_previous", "throughput", "fraction_of_library", "percent_of_peak")
PERCENT_FIELDS = ("fraction_of_library", "percent_of_peak")


def check_gpu_ladder_table(rel, lines, start, scope, section, problems):
    """Rule of a track's two-GPU ladder tables: in each row of a step ("05 fused"), the copy or the
    library ("NPP", "ref"), each GPU's group of cells (LADDER_FIELDS: ms, vs prev, % of copy,
    GFLOP/s, % of cuBLAS, DRAM %, SM %, occupancy, limiter...; "0.0870 (3085.2 GB/s)" a time and
    its throughput) must be the fields of
    one rung of that step in one of that GPU's reports that the section names (or of the track's,
    where it names none): a stale cell that another field or row holds fails. A header cell that
    names its size ("H200 vs prev (2^22)") takes its rung from a ladder of that problem size, so
    a cell of the other size (or the other GPU) fails. Returns the number of groups checked."""
    header = cells(lines[start])
    owner, fields = [], []
    gpu = None
    for head in header:
        named = GPU_COLUMN.match(head)
        if named:
            gpu, head = named.group(1).lower(), named.group(2)
            sized = SIZED_COLUMN.match(head)
            head, size = (sized.group(1), sized.group(2)) if sized else (head, None)
        elif head.startswith(("8800", "the talk", "G80")):
            gpu = None
        owner.append((gpu, size) if gpu else None)
        fields.append(LADDER_FIELDS.get(head))
    gpus = sorted({g for g in owner if g}, key=lambda g: (g[0], g[1] or ""))
    count = 0
    for index, row in table_rows(lines, start):
        line = lines[index]
        label = row[0].replace("*", "").strip()
        step = label[:2] if re.match(r"^\d\d\b", label) else {"copy": "copy", "NPP": "ref", "ref": "ref"}.get(label)
        if step is None:
            continue
        for group in gpus:
            gpu, size = group
            shown = [(fields[c], row[c].replace("*", "").strip()) for c in range(1, min(len(row), len(fields)))
                     if owner[c] == group and fields[c] and row[c].replace("*", "").strip() not in ("", "-")]
            if not shown:
                continue
            candidates = chosen_reports(section, scope, gpu) or [r for r in scope if r.gpu == gpu]

            def holds(rung):
                extra = rung.get("extra") or {}
                for field, text in shown:
                    if field in NUMBER_FIELDS:
                        numbers = NUMBER.findall(text)
                        if not numbers:
                            return False
                        value = rung.get(field)
                        if value is not None and field in PERCENT_FIELDS:
                            value = 100.0 * value
                        if value is None or not token_matches(numbers[0], [value]):
                            return False
                        if field == "median_ms" and "GB/s" in text and len(numbers) > 1:
                            if not token_matches(numbers[1], [rung.get("throughput") or 0]):
                                return False
                    elif str(extra.get(field, "")).rstrip("%") != text.rstrip("%"):
                        return False
                return True

            rungs = [rung for r in candidates for ladder in r.ladders
                     if size is None or re.search(r"\b%s\b" % re.escape(size), ladder.get("problem", ""))
                     for rung in ladder["rungs"] if rung["step"] == step]
            count += 1
            if not any(holds(rung) for rung in rungs):
                problems.append("%s:%d: the %s's cells of row %s (%s) are not the fields of step %s's row in any one "
                                "of %s: %s" % (
                    rel, index + 1, gpu.upper() + (" (%s)" % size if size else ""), label, ", ".join(t for _, t in shown), step,
                    ", ".join(sorted("%s/%s.json" % (r.gpu, r.name) for r in candidates)) or "no report",
                    line.strip()[:100]))
    return count


# A lesson's table of its step per GPU and problem size: its header starts "| GPU |", and a
# column "4096^3: ms" starts the group of that size ("vs prev", "% of cuBLAS", "% peak" after it
# are of that size too); each row "| H100 |" shows the lesson's step (check_cube_table).
CUBE_COLUMN = re.compile(r"^(\d+)\^3: (.+)$")
CUBE_FIELDS = {"ms": "median_ms", "vs prev": "speedup_vs_previous", "% peak": "percent_of_peak",
               "% of peak": "percent_of_peak",
               "% of cuBLAS": "fraction_of_library", "% of CUB": "fraction_of_library",
               "% of NPP": "fraction_of_library"}


def cube_cells(rel, lines, start, reports, names, gpu_and_step, problems):
    """The cells of a "| ... | 4096^3: ms | vs prev | ..." table (a column "N^3: ..." starts the
    group of that size): for each body row that gpu_and_step(its first cell) takes to (gpu, step),
    and each cell of a field, (line index, gpu, step, size, field, text, problem, value, ok):
    value is the field of that step's rung in the ladder of that size in the GPU's reports named
    in `names` (None where there is none), ok whether the cell shows it (a cell with no number,
    "-", where the rung has a value does not). A header cell of a size group that is no known
    field ("% of cuBLAS", "% peak", ...), or that looks like a size but is not "N^3: field", is a
    problem: its column would go unchecked."""
    columns, size = [], None
    for head in cells(lines[start]):
        cube = CUBE_COLUMN.match(head)
        if cube:
            size, head = int(cube.group(1)), cube.group(2)
        elif re.search(r"\d\^3", head):
            problems.append("%s:%d: the header \"%s\" names a size but not as \"N^3: field\" (\"4096^3: ms\"): its "
                            "column is not checked" % (rel, start + 1, head))
        field = CUBE_FIELDS.get(head)
        if size is not None and field is None:
            problems.append("%s:%d: the column \"%s\" of the %d^3 group is none of %s: its cells are not checked"
                            % (rel, start + 1, head, size, ", ".join(sorted(CUBE_FIELDS))))
        columns.append((size, field))
    for index, row in table_rows(lines, start):
        key = gpu_and_step(row[0].replace("*", "").strip())
        if key is None:
            continue
        gpu, step = key
        for (size, field), cell in zip(columns[1:], row[1:]):
            text = cell.replace("*", "").strip()
            if size is None or field is None:
                continue
            number = CELL_NUMBER.search(text)
            problem = "%d x %d x %d" % (size, size, size)
            _, ladder = ladder_of(reports, gpu, names, problem)
            rung = next((r for r in ladder["rungs"] if r["step"] == step), None) if ladder else None
            value = rung and rung.get(field)
            if value is not None and field in PERCENT_FIELDS:
                value = 100.0 * value
            if not number and value is None:
                continue
            yield (index, gpu, step, size, field, text or "nothing", problem, value,
                   bool(number) and value is not None and token_matches(number.group(0), [value]))


def check_cube_table(rel, lines, start, reports, problems):
    """Rule of the "| GPU | 4096^3: ms | vs prev | ..." tables of a lesson's README: each cell is
    its column's field of the lesson's step in the ladder of the row's GPU's report of the track
    whose problem is that size (M x N x K = 4096 x 4096 x 4096). Returns the cells checked."""
    match = LESSON_README.match(rel)
    track, own = match.group(1), match.group(2)
    track_reports = {r.name for r in reports if r.name == track or r.name.startswith(track + "-")}
    count = 0
    for index, gpu, _, size, field, text, problem, value, ok in cube_cells(
            rel, lines, start, reports, track_reports,
            lambda label: (label.lower(), own) if label in ("H100", "H200") else None, problems):
        count += 1
        if not ok:
            problems.append("%s:%d: the %s row's %s at %d^3 shows %s, but step %s's row of the %s's %s report at "
                            "%s holds %s: %s" % (rel, index + 1, gpu.upper(), field, size, text, own, gpu.upper(), track,
                                                 problem, "nothing" if value is None else "%.4g" % value,
                                                 lines[index].strip()[:100]))
    return count


def paragraph_before(lines, start):
    """The paragraph or list item just above line `start` (blank lines between skipped): the
    sentence that introduces a table; "" where a heading, a table or code comes first."""
    i = start - 1
    while i >= 0 and not lines[i].strip():
        i -= 1
    if i < 0 or lines[i].startswith(("#", "|", "```")):
        return ""
    return paragraph_around(lines, unit_of(lines, i))


def check_step_cube_table(rel, lines, start, scope, problems):
    """Rule of a track's one-GPU ladder tables, "| step | 4096^3: ms | vs prev | % of cuBLAS | ...",
    whose GPU is named by the sentence that introduces the table ("On the NVIDIA H100 ..."): each
    cell of a step's row ("05", "ref") is its column's field of that step's rung in that GPU's
    report of the track whose problem is that size (M x N x K = 4096 x 4096 x 4096): the other
    GPU's row, or another step's, fails. A table whose sentence names no GPU, or both, fails too.
    Returns the cells checked."""
    sentence = paragraph_before(lines, start)
    named = gpus_in(sentence)
    if len(named) != 1:
        problems.append("%s:%d: a ladder table of one GPU (\"| step | 4096^3: ms | ...\") must follow a sentence "
                        "that names its GPU, and only that one (the sentence just above it names %s; a heading "
                        "does not count)" % (rel, start + 1, " and ".join(sorted(g.upper() for g in named)) or "none"))
        return 0
    gpu = next(iter(named))
    # the reports the sentence names ("On the NVIDIA H200 (`hgemm.json` and `hgemm-8192.json`)"), else the track's
    chosen = chosen_reports(sentence, scope, gpu) or [r for r in scope if r.gpu == gpu]
    count = 0

    def step_of(label):
        if not re.fullmatch(r"\d\d|ref", label):
            problems.append("%s:%d: a row of a one-GPU ladder table is labelled \"%s\", not a step (\"05\") or "
                            "\"ref\": its cells are not checked" % (rel, start + 1, label))
            return None
        return gpu, label

    for index, _, step, size, field, text, problem, value, ok in cube_cells(
            rel, lines, start, chosen, {r.name for r in chosen}, step_of, problems):
        count += 1
        if not ok:
            problems.append("%s:%d: the %s's table shows %s as step %s's %s at %d^3, but step %s's row of the "
                            "%s's report at %s (%s) holds %s: %s" % (
                                rel, index + 1, gpu.upper(), text, step, field, size, step, gpu.upper(), problem,
                                ", ".join(sorted(r.name + ".json" for r in chosen)),
                                "nothing" if value is None else "%.4g" % value, lines[index].strip()[:100]))
    return count


def profile_columns(scope):
    """The --profile columns' values in the reports `scope`: ({column: sorted values} of the rungs
    and of the kernels' notes under the ladders, {(column, step): [(report, value)]} of the rungs)."""
    columns = {name: [] for name in PROFILE_COLUMNS}
    by_step = {}  # a pair is one step's values in two reports
    for report in scope:
        for ladder in report.ladders:
            for rung in ladder.get("rungs", []):
                extra = rung.get("extra") or {}
                for name, key in PROFILE_COLUMNS.items():
                    if re.fullmatch(r"\d+\.\d+%?", str(extra.get(key, ""))):
                        value = float(str(extra[key]).rstrip("%"))
                        columns[name].append(value)
                        by_step.setdefault((name, rung.get("step")), []).append((report.path, value))
            for note in ladder.get("notes", []):
                for kernel in KERNEL_NOTE.finditer(note):
                    columns["DRAM"].append(float(kernel.group("dram")))
                    columns["SM"].append(float(kernel.group("sm")))
                    columns["occupancy"].append(float(kernel.group("occupancy")))
    return {name: sorted(values) for name, values in columns.items()}, by_step


def check_profile_figures(profiles, profile, track, rel, index, line, listed, counts, problems, exported):
    """A figure that names its --profile column (PROFILE_FIGURE) must be a value of that column in
    the reports the line may quote (`profile`: profile_columns of them), not any value that rounds
    to it: "occupancy 35.0%" where the reports hold 35.1% for that step once passed by matching
    another field. A value of the text's Nsight Compute exports (`exported`: the same indicators,
    measured by the lesson's own ncu command) and a listed figure pass too."""
    columns, by_step = profile
    for column, first, second in profiles:
        name = "occupancy" if column.lower() == "occupancy" else column
        values = columns[name]
        if second and not (token_matches(first, exported) and token_matches(second, exported)):
            # A pair: one step's values, in two different reports (two GPUs, or two sizes).
            pairs = [(a, b) for (n, _), found in by_step.items() if n == name
                     for a in found for b in found if a[0] != b[0]]
            if not any(token_matches(first, [a[1]]) and token_matches(second, [b[1]]) for a, b in pairs) and \
                    listed.get((rel, first)) is None and listed.get((rel, second)) is None:
                problems.append("%s:%d: %s %s%% and %s%% are not one step's --profile %s values in two reports "
                                "(two GPUs or two sizes) of %s: %s" % (
                                    rel, index + 1, column, first, second, PROFILE_COLUMNS[name],
                                    "slides/data/*/%s*.json" % track if track else "the reports", line.strip()[:140]))
                continue
        for token in (t for t in (first, second) if t):
            entry = listed.get((rel, token))
            if token_matches(token, values):
                counts["profile"] += 1
            elif token_matches(token, exported):
                counts["ncu export"] += 1
            elif entry is not None:
                entry[2] += 1
                counts["listed"] += 1
            else:
                problems.append("%s:%d: %s %s%% is no --profile %s value in %s: %s" % (
                    rel, index + 1, column, token, PROFILE_COLUMNS[name],
                    "slides/data/*/%s*.json" % track if track else "the reports", line.strip()[:140]))


def main():
    reports = load_reports()
    reports_by_key = {(r.gpu, r.name): r for r in reports}
    listed = load_list()
    problems = []
    exports = load_exports(problems)
    rules = rule_constants()
    tracks = track_names()
    counts = {"rule": 0, "report": 0, "ladder rows": 0, "listed": 0, "ncu export": 0, "ncu table": 0, "one GPU": 0,
              "spread": 0, "fraction_of_library": 0, "size table": 0, "gpu ladder": 0, "step table": 0, "sweep": 0,
              "% of copy": 0, "% of peak": 0, "profile": 0}
    for path, track in texts():
        rel = str(path.relative_to(ROOT))
        scope = [r for r in reports if track is None or r.name == track or r.name.startswith(track + "-")]
        values = sorted(v for r in scope for v in r.values)
        ncu_scopes = {}  # the GPUs a section names -> the export values it may quote
        profile_scopes = {}  # a line's track -> profile_columns of its reports
        if path.parent.name == "slides":
            lines = deck_lines(path.read_text())
        else:
            lines = path.read_text().splitlines()
        ladder_lines = set()
        for start, block in ladder_blocks(lines):
            rows = check_ladder_block(start, block, lines, reports, rel, problems)
            counts["ladder rows"] += len(rows)
            ladder_lines |= rows
        sections = paragraph_of(lines)
        for start, line in enumerate(lines):
            if line.startswith("| step |") and any(GPU_COLUMN.match(c) for c in cells(line)):
                counts["gpu ladder"] += check_gpu_ladder_table(rel, lines, start, scope, sections[start], problems)
            elif line.startswith("| step |") and any(CUBE_COLUMN.match(c) for c in cells(line)):
                counts["step table"] += check_step_cube_table(rel, lines, start, scope, problems)
        if LESSON_README.match(rel):
            for start, line in enumerate(lines):
                if line.startswith("| GPU, size |"):
                    counts["size table"] += check_size_table(rel, lines, start, reports, problems)
                elif line.startswith("| GPU |") and any(CUBE_COLUMN.match(c) for c in cells(line)):
                    counts["size table"] += check_cube_table(rel, lines, start, reports, problems)
        for header, columns, body in export_tables(lines):
            rows, found = check_export_table(header, columns, body, lines, rel, problems)
            counts["ncu table"] += found
            ladder_lines |= rows
        section = ""
        paragraphs = paragraph_of(lines)
        # A table's row or column that names its GPU takes its figures from that GPU's reports
        cell_gpus = table_gpus(lines)
        # A section of one GPU's figures (README.md's measured results: "NVIDIA H200 ...") takes
        # those outside the other GPU's parentheses, where its table does not say, from that GPU's
        section_gpu = section_gpus(lines)
        values_of = {None: values}
        step_rows = {}
        for gpu in ("h100", "h200"):
            values_of[gpu] = sorted(v for r in scope if r.gpu == gpu for v in r.values)
        # In README.md, a table row whose first cell names a track quotes that track's reports
        row_tracks = track_rows(lines, tracks) if track is None else {}
        row_scopes = {}
        generated = False
        fenced = False
        for index, line in enumerate(lines):
            if line.startswith("## "):
                section = line[3:].strip()
            # tests/check-grading writes the starters' table between these markers
            if line.startswith("<!-- starters-table: begin"):
                generated = True
            if line.startswith("<!-- starters-table: end"):
                generated = False
            if generated:
                continue
            for named_gpu, name in SWEEP_FILE.findall(line):
                if not sweep_path(named_gpu, name).is_file():
                    problems.append("%s:%d: names slides/data/%s/%s, which is not committed" % (
                        rel, index + 1, named_gpu, name))
            story = NARRATION.search(line)
            if story:
                problems.append("%s:%d: \"%s\": say what was measured and where it is reported, not how the run "
                                "went" % (rel, index + 1, story.group(0)))
            if line.startswith("```"):
                fenced = not fenced
            if index in ladder_lines:
                continue
            line_track = row_tracks.get(index, track)
            if line_track != track and line_track not in row_scopes:
                line_scope = [r for r in reports if r.name == line_track or r.name.startswith(line_track + "-")]
                row_scopes[line_track] = (line_scope, {g: sorted(v for r in line_scope if g is None or r.gpu == g
                                                                 for v in r.values) for g in (None, "h100", "h200")})
            line_scope, line_values_of = row_scopes[line_track] if line_track != track else (scope, values_of)
            # A percentage after "spread" is a rung's spread, one just before the library's name a
            # rung's share of the library's speed, and one just before "of the copy" a rung's % of
            # copy (or share of the library where that is the copy), in the reports the line may
            # quote: not any value that happens to round to it ("step 05's on the H200 over 8.1%",
            # "96.2% of cuBLAS", "55.6% of the copy"). A figure before "of the copy" may also be
            # listed as computed.
            at = line.lower().find("spread")
            spreads = SPREAD_FIGURE.findall(line[at:]) if at >= 0 and not fenced else []
            shares = LIBRARY_FIGURE.findall(line) if not fenced else []
            copies = COPY_FIGURE.findall(line) if not fenced else []
            following = lines[index + 1] if index + 1 < len(lines) and not lines[index + 1].startswith("```") else ""
            preceding = lines[index - 1] if index > 0 and not lines[index - 1].startswith("```") else ""
            peaks = peak_figures(preceding, line, following) if not fenced else []
            profiles = PROFILE_FIGURE.findall(line) if not fenced else []
            if profiles:
                if line_track not in profile_scopes:
                    profile_scopes[line_track] = profile_columns(line_scope)
                if (line_track, None) not in ncu_scopes:
                    ncu_scopes[line_track, None] = export_values(exports, rel, line_track, None)
                check_profile_figures(profiles, profile_scopes[line_track], line_track, rel, index, line, listed,
                                      counts, problems, ncu_scopes[line_track, None] or [])
            if spreads or shares or copies or peaks:
                ladders = [ladder for r in line_scope for ladder in r.ladders]
                rungs = [rung for ladder in ladders for rung in ladder.get("rungs", [])]
                where = "slides/data/*/%s*.json" % line_track if line_track else "the reports"

                def percents(field, of=rungs):
                    return [100.0 * rung[field] for rung in of if isinstance(rung.get(field), (int, float))]

                of_copy = [float(rung["extra"]["% of copy"].rstrip("%")) for rung in rungs
                           if re.fullmatch(r"\d+\.\d+%", str((rung.get("extra") or {}).get("% of copy")))]
                of_copy += percents("fraction_of_library", [rung for ladder in ladders if ladder.get("library") == "copy"
                                                            for rung in ladder.get("rungs", [])])
                for count, tokens, values, what in (
                        ("spread", spreads, percents("spread"), "follows \"spread\" but is no row's spread"),
                        ("fraction_of_library", shares, percents("fraction_of_library"),
                         "before the library's name is no row's share of the library's speed"),
                        ("% of copy", copies, of_copy, "before \"of the copy\" is no row's % of copy"),
                        ("% of peak", peaks, percents("percent_of_peak"),
                         "before \"of the DRAM peak\" is no row's % of peak")):
                    values.sort()
                    listable = count in ("% of copy", "% of peak")  # may be listed as computed instead
                    for token in tokens:
                        entry = listed.get((rel, token)) if listable else None
                        if token_matches(token, values):
                            counts[count] += 1
                        elif entry is not None and not entry[1].startswith("ncu"):
                            entry[2] += 1
                        else:
                            problems.append("%s:%d: %s%% %s in %s%s: %s" % (
                                rel, index + 1, token, what, where,
                                ", nor listed as computed in %s" % LIST.name if listable else "",
                                line.strip()[:140]))
            # In the Nsight Compute section of a lesson with exports, a count written with thousands
            # separators (58,720,256 divergent branches) is an export's value or listed (computed)
            if section == NCU_SECTION and LESSON_README.match(rel) and not fenced:
                gpus = gpus_named(paragraphs[index])
                if (line_track, gpus) not in ncu_scopes:
                    ncu_scopes[line_track, gpus] = export_values(exports, rel, line_track, gpus)
                for token in (COUNT.findall(line) if ncu_scopes[line_track, gpus] is not None else []):
                    entry = listed.get((rel, token))
                    if (entry is None or entry[1].startswith("ncu")) and matches(
                            float(token.replace(",", "")), 0, ncu_scopes[line_track, gpus]):
                        counts["ncu export"] += 1
                    elif entry is not None and not entry[1].startswith("ncu"):
                        entry[2] += 1
                        counts["listed"] += 1
                    else:
                        problems.append("%s:%d: %s, a count in the Nsight Compute section, is in no committed export of "
                                        "this lesson (slides/data/*/ncu/%s*.csv), nor listed in %s as computed: %s"
                                        % (rel, index + 1, token, "-".join(LESSON_README.match(rel).groups()),
                                           LIST.name, line.strip()[:140]))
            asides = gpu_parts(line)
            for token, position in figures_at(line):
                if line.lstrip().startswith("|"):
                    before = line[line.rfind("|", 0, position) + 1:position]
                else:
                    before = (lines[index - 1][-60:] + " " if index and position < 60 else "") + line[:position][-60:]
                if token in rules and RULE_CONTEXT.search(before):
                    counts["rule"] += 1
                    continue
                decimals = len(token.split(".")[1])
                gpu = cell_gpus[index](cell_at(line, position)) if index in cell_gpus else None
                aside = next((g for a, b, g in asides if a <= position < b), None)
                gpu = aside or gpu
                quoted = quoted_report(line, position) if index in row_tracks else None
                of_section = not gpu and index not in cell_gpus and section_gpu[index] is not None
                if of_section:
                    # the section's GPU, or the one of the path that names the report quoted
                    gpu = quoted and quoted[0] or section_gpu[index]
                named = named_reports(paragraphs[index], reports, gpu)
                if index in row_tracks:
                    # a track's row quotes its track's reports; after a report's name, up to the
                    # next, that report's alone
                    named = row_reports(paragraphs[index], quoted, line_scope, gpu)
                values = line_values_of[gpu]
                shown = float(token.replace(",", ""))
                # A paragraph that names its reports is checked against those. A figure of four
                # digits or more may also come from another report of the track: few values
                # match one that closely by chance, unlike a percentage or a ratio of three.
                digits = len(token.replace(",", "").replace(".", "").lstrip("0"))
                # A lesson's Nsight Compute section that names no report quotes the lesson's
                # exports: once they are committed, its figures are looked for there alone.
                gpus = frozenset({gpu}) if gpu else gpus_named(paragraphs[index])
                if (line_track, gpus) not in ncu_scopes:
                    ncu_scopes[line_track, gpus] = export_values(exports, rel, line_track, gpus)
                exported_only = (section == NCU_SECTION and named is None and LESSON_README.match(rel)
                                 and ncu_scopes[line_track, gpus] is not None)
                # In a track's text (not a lesson's, whose exports are its own lesson's), one GPU's
                # parenthesis beside the other GPU's Nsight Compute figure quotes the same metric of
                # the same lesson's export: "tensor pipe active 42.73% (H200: 43.46%)"; the other
                # GPU's 42.73% there, or a value of another metric or lesson, fails. It is a report's
                # value only if a figure beside it is one.
                beside = None
                if aside and not LESSON_README.match(rel):
                    other = {"h100": "h200", "h200": "h100"}[aside]
                    other_named = (named_reports(paragraphs[index], reports, other) if index not in row_tracks
                                   else row_reports(paragraphs[index], quoted, line_scope, other))
                    beside = beside_values(lines, index, position, aside, line_track, exports, lambda v, d: matches(
                        v, d, line_values_of[other]) or (other_named is not None and matches(v, d, other_named)))
                    exported_only = exported_only or (beside is not None and not beside[1])
                # A row of one step in a table of one GPU's figures shows that step's values
                step = STEP_CELL.match(cells(line)[0]) if gpu is not None else None
                # In a lesson's README, a row whose first cell is a GPU ("| H100 | 0.3205 | 1.46x
                # |") shows the lesson's own step on that GPU
                lesson = LESSON_README.match(rel)
                own_step = step is None and gpu is not None and lesson and GPU_CELL.match(cells(line)[0])
                if own_step:
                    step = STEP_CELL.match(lesson.group(2))
                if step:
                    key = (paragraphs[index], gpu, step.group(1))
                    if key not in step_rows:
                        candidates = chosen_reports(paragraphs[index], reports, gpu) or [
                            r for r in line_scope if r.gpu == gpu]
                        step_rows[key] = step_row_values(candidates, step.group(1))
                    step = step if step_rows[key] else None
                # A figure listed as an Nsight Compute one is no report's value (one that a report
                # holds by chance does not make its entry unneeded)
                entry = listed.get((rel, token))
                # A figure listed as computed keeps its entry where a report happens to hold the same
                # value: its why names the data it comes from, and check_listed_data checks those
                if entry is not None and entry[1].startswith("computed"):
                    entry[2] += 1
                    counts["listed"] += 1
                    continue
                listed_ncu = entry is not None and entry[1].startswith("ncu") and "--profile" not in entry[1]
                exported_only = exported_only or listed_ncu
                if step and not exported_only:
                    if matches(shown, decimals, step_rows[key]):
                        counts["report"] += 1
                        counts["one GPU"] += 1
                        continue
                    if own_step and (rel, token) not in listed:
                        # the ladder row of the lesson's step: an Nsight Compute export that
                        # holds the figure by chance does not make it the step's
                        problems.append("%s:%d: %s is not step %s's on the %s in %s: %s" % (
                            rel, index + 1, token, step.group(1), gpu.upper(),
                            ", ".join(r.name + ".json" for r in (chosen_reports(paragraphs[index], reports, gpu)
                                                                  or [r for r in line_scope if r.gpu == gpu])),
                            line.strip()[:140]))
                        continue
                elif not exported_only and (matches(shown, decimals, named if named is not None else values) or (
                    named is not None and digits >= 4 and matches(shown, decimals, values)
                )):
                    counts["report"] += 1
                    counts["one GPU"] += gpu is not None
                    continue
                ncu_values = ncu_scopes[line_track, gpus] if beside is None else beside[0]
                # An Nsight Compute figure (or one not listed) may come from the committed ncu
                # exports of the text's lesson or track; one listed for another reason is not
                # looked for there (a cited figure that an export matches by chance stays cited).
                from_ncu = entry is None or entry[1].startswith("ncu")
                held = from_ncu and ncu_values is not None and matches(shown, decimals, ncu_values)
                if held and listed_ncu and not LESSON_README.match(rel) and beside is None:
                    # A track's text is checked against all the track's exports, where a figure
                    # may match another lesson's value or another metric's by chance: its entry
                    # is unneeded only where an export of a lesson its paragraph names holds it
                    # (step 05, 05_fused/, `pipeline-05`, a kernel `fused_v5` they profile).
                    named_lessons = lessons_named("\n".join(lines[unit_of(lines, index): index + 1]), line_track,
                                                  exports)
                    held = matches(shown, decimals, sorted(v for e in exports if (e.track, e.step) in named_lessons
                                                           and (not gpus or e.gpu in gpus) for v in e.values))
                    if not held:
                        entry[2] += 1
                        counts["listed"] += 1
                        continue
                if held:
                    counts["ncu export"] += 1
                    continue
                # A figure of a paragraph that names a committed sweep's file of its GPU may be one
                # of that file's numbers with the same unit ("row by row 0.582x to 0.602x
                # ([order](.../h200/hgemm-sweep-order.txt))")
                swept = sweep_values(paragraph_around(lines, index), gpu)
                if swept and matches(shown, decimals, swept.get(unit_after(line, position + len(token)), [])):
                    counts["sweep"] += 1
                    continue
                if entry is not None:
                    entry[2] += 1
                    counts["listed"] += 1
                    # Once the exports are committed, an Nsight Compute figure listed as such must
                    # be one of theirs (the --profile columns come from the JSON reports instead).
                    if from_ncu and ncu_values is not None and "--profile" not in entry[1]:
                        problems.append("%s:%d: %s is listed as an Nsight Compute figure, but no committed ncu export "
                                        "of %s holds it (slides/data/*/ncu/%s*.csv): correct it from the export"
                                        % (rel, index + 1, token, "this lesson" if LESSON_README.match(rel) else
                                           "the track", "-".join(LESSON_README.match(rel).groups())
                                           if LESSON_README.match(rel) else line_track or ""))
                    continue
                problems.append("%s:%d: %s is %s slides/data/%s/%s%s%s%s, nor in %s: %s"
                                % (rel, index + 1, token, "in no report of" if quoted is None else "not in",
                                   gpu or (quoted or [None])[0] or "*",
                                   line_track or "" if quoted is None else quoted[1],
                                   "*.json" if quoted is None else ".json (the report its row names before it; "
                                   "of four digits or more, of %s*.json)" % line_track,
                                   "" if gpu is None else " (%s names the %s%s)" % (
                                       "its parenthesis" if aside else "its section" if of_section
                                       else "its table's row or column", gpu.upper(),
                                       "; its row, step %s's values" % step.group(1) if step else ""),
                                   ("" if ncu_values is None else " nor in its ncu exports") + (
                                       "" if swept is None else " nor in the sweep files its paragraph names"),
                                   LIST.name,
                                   line.strip()[:140]))
    counts["listed data"] = check_listed_data(listed, problems)
    unneeded = set()
    for (rel, token), (number, why, seen) in sorted(listed.items()):
        if not seen:
            unneeded.add(number)
            problems.append("%s:%d: %s | %s is no longer in %s, or only where a report or an ncu export holds it: "
                            "remove the entry%s" % (LIST.name, number, rel, token, rel, " (removed)" if PRUNE else ""))
    if PRUNE and unneeded:
        kept = [line for number, line in enumerate(LIST.read_text().splitlines(), 1) if number not in unneeded]
        LIST.write_text("\n".join(kept) + "\n")
        problems = [p for p in problems if not p.endswith("(removed)")]
        print("%s: %d entries removed" % (LIST.name, len(unneeded)))
    for p in problems:
        print(p)
    print("figures: %d ladder rows checked against their reports, %d figures found in the reports, "
          "%d in the Nsight Compute exports (%d of them), %d listed as not from a report, %d values of tables of "
          "exports checked metric by metric, %d figures in the reports of the one GPU that their table row or "
          "column, a parenthesis \"(H100: ...)\" or their section names, %d thresholds of tests/speed_verdict.h, "
          "%d spreads that are a row's spread, %d shares of the library that are a row's, %d cells of lessons' "
          "\"GPU, size\" and \"GPU | 4096^3: ms\" tables that are their column's field of their row's report, %d GPUs' cells of a row of a "
          "two-GPU ladder table that are one rung's, %d cells of one-GPU \"step | 4096^3: ms\" ladder tables that are "
          "their step's field in the report of the GPU their sentence names, %d percentages before \"of the copy\" "
          "that are a row's, %d before \"of the DRAM peak\" that are a row's %% peak, %d --profile figures named by their column that are that column's, %d figures "
          "of a committed sweep's file that their paragraph names, %d numbers that the list's whys quote from "
          "committed data files, found there; %d problem(s)"
          % (counts["ladder rows"], counts["report"], counts["ncu export"], sum(len(e.paths) for e in exports),
             counts["listed"], counts["ncu table"], counts["one GPU"], counts["rule"], counts["spread"],
             counts["fraction_of_library"], counts["size table"], counts["gpu ladder"], counts["step table"],
             counts["% of copy"], counts["% of peak"],
             counts["profile"], counts["sweep"], counts["listed data"], len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
