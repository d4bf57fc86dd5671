#!/usr/bin/env python3
"""Tests of tests/check_figures.py's Nsight Compute exports, and of slides/data/ncu_commands.py.

    python3 tests/test_check_figures.py

Each test writes a small course into a scratch folder (a track `demo`, one lesson whose README
has an ncu command and quotes its figures, tests/figures_not_in_reports.txt) with the made-up
exports of tests/data/ncu/ committed or not, and runs check_figures.py on it: a figure an export
holds passes, a planted wrong one fails, an `ncu` entry an export now holds is reported as
removable, and without exports nothing changes; a table of exports is checked metric by metric,
whole numbers included; in the Nsight Compute section a report's value is no ncu figure; a
table's row or column that names a GPU takes its figures from that GPU's reports alone, and
its row of one step that step's values (in a lesson's README, a row that names a GPU is the
lesson's step: an export's value that matches by chance fails there); so does a parenthesis "(H100: ...)", and in a track's
text it quotes the same metric as the other GPU's figure beside it; an `ncu` entry of a track's
text is unneeded only where an export of a lesson its paragraph names holds it; a race figure in a
Grading section fails, unless it is in the starters table or a threshold of tests/speed_verdict.h
worded as the rule ("at least 0.85x", the line before included; a measured 0.85x is a figure); in
README.md, a row naming a track takes its figures from that track's reports alone, and after a
report's name from that report: another track's figure fails there, even one of four digits; and
in a section whose first sentence names one GPU ("NVIDIA H200 ..."), a figure outside the other
GPU's parenthesis is that GPU's: the H100's figure there fails; and a percentage after "spread"
is a row's spread, and one just before the library's name a row's share of the library's speed: a
value of another field that rounds to it fails; and a figure that names its --profile column ("SM
55.0%", "occupancy falls to 35.1%") is that column's value, a pair ("SM 55.0% and 55.6%") one
step's values in two reports; and a track's one-GPU ladder table ("| step | 4096^3: ms |") shows,
cell by cell, its step's fields in the report of the GPU its introducing sentence names (a row
that is no step, a column of no known field, a dash for a value fail); and a figure of a
paragraph that names a committed sweep's file of its GPU (slides/data/<gpu>/*.txt) may be one of
that file's numbers with the same unit (thousands grouped by commas or not); a file named but not
committed fails; and a number that a listed entry's why quotes from a committed data file it names
(one file or several in a parenthesis) must be in it, derived numbers before a `:` or `=` aside.
"""

import importlib.util
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECK = HERE / "check_figures.py"
DATA = HERE / "data" / "ncu"

spec = importlib.util.spec_from_file_location("ncu_commands", HERE.parent / "slides" / "data" / "ncu_commands.py")
ncu_commands = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ncu_commands)

METRICS = ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
           "dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,gpu__time_duration.sum")

# The exports' values (tests/data/ncu/demo-01-*.csv): copy_naive 8,388,608 sectors over 2,097,152
# requests (4.0 per request), DRAM 68.13%, 67,108,864 bytes (67.1 MB), 31,520.5 ns (31.5 us);
# copy_wide 524,288 requests (16.0 per request), DRAM 86.02%, 24,960 ns (1.26x faster).
LESSON = """# Demo 01: a copy

## See it in Nsight Compute

```sh
m={metrics}
ncu --metrics $m -k regex:'^copy_naive$' -c 1 build/lessons/demo-01 --reps 1   # step 00
ncu --metrics $m \\
    -k regex:'^copy_wide$' -c 1 build/lessons/demo-01 --reps 1      # yours
```

{gpu}The naive copy reads 4.0 sectors per request at {dram}% of DRAM's peak, 67.1 MB in 31.5 us;
the wide one 16.0 sectors per request at 86.0%, 1.26x faster.
""".replace("{metrics}", METRICS)


class CheckFigures(unittest.TestCase):
    def course(self, dram="68.1", listed=(), exports=True, gpu="", readme_edit=("", ""), prune=False, extra="",
               report=None, speed_rule=None):
        """A scratch course; returns (exit status, output) of check_figures.py on it. `extra` is added
        to the lesson's Nsight Compute section; `report`, a time, is written as the one row of a
        report slides/data/h100/demo.json; `speed_rule`, the text of tests/speed_verdict.h."""
        root = Path(tempfile.mkdtemp(prefix="check-figures-"))
        self.addCleanup(shutil.rmtree, root)
        (root / "lessons" / "demo" / "01_first").mkdir(parents=True)
        (root / "tests").mkdir()
        if speed_rule is not None:
            (root / "tests" / "speed_verdict.h").write_text(speed_rule)
        (root / "README.md").write_text("# A course\n")
        (root / "lessons" / "demo" / "README.md").write_text("# Demo\n")
        (root / "lessons" / "demo" / "01_first" / "README.md").write_text(
            LESSON.replace("{dram}", dram).replace("{gpu}", gpu).replace(*readme_edit) + extra)
        if report is not None:
            (root / "slides" / "data" / "h100").mkdir(parents=True, exist_ok=True)
            (root / "slides" / "data" / "h100" / "demo.json").write_text(
                '{"ladders": [{"problem": "a copy", "rungs": [{"step": "01", "title": "x", "median_ms": %s}]}]}'
                % report)
        (root / "tests" / "figures_not_in_reports.txt").write_text(
            "".join("lessons/demo/01_first/README.md | %s | %s\n" % entry for entry in listed))
        if exports:
            (root / "slides" / "data" / "h100" / "ncu").mkdir(parents=True)
            for csv in DATA.glob("demo-01-*.csv"):
                shutil.copy(csv, root / "slides" / "data" / "h100" / "ncu" / csv.name)
        run = subprocess.run([sys.executable, str(CHECK)] + (["--prune"] if prune else []) + [str(root)],
                             capture_output=True, text=True)
        self.list_after = (root / "tests" / "figures_not_in_reports.txt").read_text().strip()
        return run.returncode, run.stdout + run.stderr

    # A lesson's Grading section, checked like the rest of its README: a race figure typed from a
    # run fails; the starters table tests/check-grading writes between its markers is left alone;
    # a threshold of tests/speed_verdict.h is the rule, not a measurement.
    GRADING = "\n## Grading\n\nYour kernel must run at least 0.85x as fast as the reference solution.\n"
    RULE = ("inline constexpr double kMinimumFractionOfReference = 0.85;\ninline constexpr int kSpeedAttempts = 3;\n"
            "inline constexpr double kMaxReferenceSpread = 0.5;\n")
    STARTERS = ("<!-- starters-table: begin (written by tests/check-grading --starters --write-readmes) -->\n"
                "| step | the untouched starter fails |\n| --- | --- |\n| 01 | the speed rule (0.455x) |\n"
                "<!-- starters-table: end -->\n")

    def test_a_race_figure_in_a_grading_section_fails(self):
        status, out = self.course(speed_rule=self.RULE,
                                  extra=self.GRADING + "\nThe untouched starter ran at 0.455x, the solution at 0.993x.\n")
        self.assertEqual(status, 1, out)
        self.assertIn("README.md:19: 0.455 is in no report", out)
        self.assertIn("README.md:19: 0.993 is in no report", out)

    def test_a_race_figure_in_the_starters_table_passes(self):
        status, out = self.course(speed_rule=self.RULE, extra=self.GRADING + "\n" + self.STARTERS)
        self.assertEqual(status, 0, out)
        self.assertIn("1 thresholds of tests/speed_verdict.h, 0 spreads that are a row's spread, 0 shares of the library "
                      "that are a row's, 0 cells of lessons' \"GPU, size\" and \"GPU | 4096^3: ms\" tables that are "
                      "their column's "
                      "field of their row's report, 0 GPUs' cells of a row of a two-GPU ladder table that are one "
                      "rung's, 0 cells of one-GPU \"step | 4096^3: ms\" ladder tables that are their step's field in "
                      "the report of the GPU their sentence names, 0 percentages before \"of the copy\" that are a "
                      "row's, 0 before \"of the DRAM peak\" that are a row's % peak, 0 --profile figures named by their column that are that column's, 0 figures of a "
                      "committed sweep's file that their paragraph names, 0 numbers that the list's whys quote from "
                      "committed data files, found there; 0 problem(s)", out)

    def test_a_rule_threshold_passes_as_the_rule_of_tests_speed_verdict_h(self):
        status, out = self.course(speed_rule=self.RULE, extra=self.GRADING)
        self.assertEqual(status, 0, out)
        # without the header's constant, the same 0.85 is a figure no report holds
        status, out = self.course(extra=self.GRADING)
        self.assertEqual(status, 1, out)
        self.assertIn("0.85 is in no report", out)

    def test_a_threshold_in_a_sentence_of_measurements_is_a_figure(self):
        # the rule's value passes where its words say it is the rule, the line before included ...
        status, out = self.course(speed_rule=self.RULE, extra="\nYour kernel must run at\nleast 0.85x as fast.\n")
        self.assertEqual(status, 0, out)
        # ... and is checked like any figure where it reads as a measurement
        status, out = self.course(speed_rule=self.RULE, extra="\nThe starter ran at 0.85x of the reference.\n")
        self.assertEqual(status, 1, out)
        self.assertIn("0.85 is in no report", out)
        # the rule's words after it, or in a table's header, do not make a measured value the rule
        for extra in ("\nThe starter measured 0.85x, under the rule.\n",
                      "\n| step | must run at least |\n| --- | ---: |\n| 02 | 0.85x |\n"):
            status, out = self.course(speed_rule=self.RULE, extra=extra)
            self.assertEqual(status, 1, out)
            self.assertIn("0.85 is in no report", out)

    def test_the_spread_threshold_exempts_no_figure(self):
        # kMaxReferenceSpread is written "50%" in texts: a 0.5 is a measurement like any other
        status, out = self.course(speed_rule=self.RULE, exports=False,
                                  extra=self.GRADING + "\nThe starter ran at 0.5x.\n")
        self.assertEqual(status, 1, out)
        self.assertIn("README.md:19: 0.5 is in no report", out)
        self.assertIn("1 thresholds of tests/speed_verdict.h", out)

    def test_figures_held_by_an_export_pass(self):
        status, out = self.course()
        self.assertEqual(status, 0, out)
        self.assertIn("7 in the Nsight Compute exports (2 of them)", out)

    def test_a_planted_wrong_figure_fails(self):
        status, out = self.course(dram="68.4")
        self.assertEqual(status, 1, out)
        self.assertIn("68.4 is in no report of slides/data/*/demo*.json nor in its ncu exports", out)

    def test_a_lessons_gpu_row_shows_its_own_steps_values(self):
        # a lesson's "| H100 | ..." row is its step on that GPU: 68.13, an export's value (DRAM %),
        # is no figure of step 01's ladder row, though the lesson's exports hold it
        table = "## Measured\n\n| GPU | ms |\n| --- | ---: |\n| H100 | %s |\n\n## See it in Nsight Compute"
        status, out = self.course(report="0.2883", readme_edit=("## See it in Nsight Compute", table % "0.2883"))
        self.assertEqual(status, 0, out)
        status, out = self.course(report="0.2883", readme_edit=("## See it in Nsight Compute", table % "68.13"))
        self.assertEqual(status, 1, out)
        self.assertIn("lessons/demo/01_first/README.md:7: 68.13 is not step 01's on the H100 in demo.json", out)

    def test_a_wrong_figure_listed_as_ncu_fails_once_exported(self):
        status, out = self.course(dram="68.4", listed=[("68.4", "ncu: an Nsight Compute figure; no committed export")])
        self.assertEqual(status, 1, out)
        self.assertIn("68.4 is listed as an Nsight Compute figure, but no committed ncu export of this lesson "
                      "holds it (slides/data/*/ncu/demo-01*.csv)", out)

    def test_an_ncu_entry_the_export_holds_is_removable(self):
        status, out = self.course(listed=[("68.1", "ncu: an Nsight Compute figure; no committed export")])
        self.assertEqual(status, 1, out)
        self.assertIn("lessons/demo/01_first/README.md | 68.1 is no longer in", out)
        self.assertIn("or an ncu export holds it: remove the entry", out)

    def test_prune_removes_the_entries_no_longer_needed(self):
        status, out = self.course(prune=True, listed=[("68.1", "ncu: an Nsight Compute figure; no committed export"),
                                                      ("99.9", "cited: gone from the text")])
        self.assertEqual(status, 0, out)
        self.assertIn("figures_not_in_reports.txt: 2 entries removed", out)
        self.assertEqual(self.list_after, "")

    def test_without_exports_an_ncu_entry_is_accepted_as_today(self):
        status, out = self.course(dram="68.4", exports=False, listed=[
            ("68.4", "ncu: an Nsight Compute figure; no committed export"),
            ("4.0", "ncu: x"), ("67.1", "ncu: x"), ("31.5", "ncu: x"), ("16.0", "ncu: x"), ("86.0", "ncu: x"),
            ("1.26", "ncu: x")])
        self.assertEqual(status, 0, out)
        self.assertIn("0 in the Nsight Compute exports (0 of them), 7 listed", out)

    def test_a_section_naming_a_gpu_is_checked_against_that_gpus_exports(self):
        # the exports are the H100's: a section about the H200 has none yet, so its ncu entries
        # stay accepted as listed, and a figure that only the H100's export holds is not the H200's
        listed = [(f, "ncu: x") for f in ("68.4", "4.0", "67.1", "31.5", "16.0", "86.0", "1.26")]
        status, out = self.course(dram="68.4", gpu="On the H200: ", listed=listed)
        self.assertEqual(status, 0, out)
        self.assertIn("0 in the Nsight Compute exports (2 of them), 7 listed", out)
        status, out = self.course(gpu="On the H200: ")
        self.assertEqual(status, 1, out)
        self.assertIn("68.1 is in no report", out)
        status, out = self.course(dram="68.4", gpu="On the H100: ", listed=listed)
        self.assertEqual(status, 1, out)
        self.assertIn("68.4 is listed as an Nsight Compute figure, but no committed ncu export", out)

    def test_an_export_of_a_command_since_changed_is_stale(self):
        status, out = self.course(readme_edit=("--reps 1   # step 00", "--reps 2   # step 00"))
        self.assertEqual(status, 1, out)
        self.assertIn("slides/data/h100/ncu/demo-01-1.csv: measured with `... 1 ...`, but "
                      "lessons/demo/01_first/README.md:7 now says `... 2 ...`", out)
        self.assertIn("measure it again with slides/data/profile.sh BUILD_DIR h100 demo-01", out)
        status, out = self.course(readme_edit=("ncu --metrics $m \\\n    -k regex:'^copy_wide$' -c 1 "
                                               "build/lessons/demo-01 --reps 1      # yours\n", ""))
        self.assertEqual(status, 1, out)
        self.assertIn("demo-01-1.csv: its README has no such ncu command (demo-01-1)", out)

    def test_a_figure_listed_for_another_reason_stays_listed(self):
        status, out = self.course(listed=[("68.1", "cited: the talk's figure")])
        self.assertEqual(status, 0, out)
        self.assertIn("6 in the Nsight Compute exports", out)


# A table of the exports' values, one column per export, one metric per row
TABLE = """
| metric | naive ([`h100/ncu/demo-01-1.csv`](../../../slides/data/h100/ncu/demo-01-1.csv)) | wide (`h100/ncu/demo-01-2.csv`) |
| --- | --- | --- |
| requests, `l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum` | 2,097,152 | 524,288 |
| DRAM, `dram__throughput.avg.pct_of_peak_sustained_elapsed` | 68.13% | **86.0%** |
| bytes read, `dram__bytes_read.sum` | 67,108,864 (64 MiB) | 67.1 MB |
"""


class ExportTables(unittest.TestCase):
    def test_a_table_of_exports_passes_value_by_value(self):
        status, out = CheckFigures.course(self, extra=TABLE)
        self.assertEqual(status, 0, out)
        self.assertIn("7 values of tables of exports checked metric by metric", out)

    def test_a_wrong_whole_number_fails(self):
        status, out = CheckFigures.course(self, extra=TABLE.replace("| 524,288 |", "| 524,289 |"))
        self.assertEqual(status, 1, out)
        self.assertIn("`l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum`: 524,289 (h100/ncu/demo-01-2.csv: 524,288)",
                      out)

    def test_another_metrics_value_fails(self):
        # 8,388,608 is the naive copy's sectors: an export value, but not this row's metric
        status, out = CheckFigures.course(self, extra=TABLE.replace("| 2,097,152 |", "| 8,388,608 |"))
        self.assertEqual(status, 1, out)
        self.assertIn("8,388,608 (h100/ncu/demo-01-1.csv: 2,097,152)", out)

    def test_a_row_without_its_metric_and_an_export_not_committed_fail(self):
        status, out = CheckFigures.course(self, extra=TABLE.replace("requests, `l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum`",
                                                     "requests"))
        self.assertEqual(status, 1, out)
        self.assertIn("names no metric of them: name one metric of its exports in backticks", out)
        status, out = CheckFigures.course(self, extra=TABLE.replace("`h100/ncu/demo-01-2.csv`", "`h200/ncu/demo-01-2.csv`"))
        self.assertEqual(status, 1, out)
        self.assertIn("names slides/data/h200/ncu/demo-01-2.csv, which is not committed", out)


class NsightSection(unittest.TestCase):
    def test_a_report_value_is_not_an_ncu_figure(self):
        # 99.5 is a report's value (a time), not an export's: in the Nsight Compute section of a
        # lesson whose exports are committed it fails; with none committed the reports still count
        extra = "\nThe copy reaches 99.5% of the peak.\n"
        status, out = CheckFigures.course(self, extra=extra, report="99.5")
        self.assertEqual(status, 1, out)
        self.assertIn("99.5 is in no report of slides/data/*/demo*.json nor in its ncu exports", out)
        listed = [(f, "ncu: x") for f in ("68.1", "4.0", "67.1", "31.5", "16.0", "86.0", "1.26")]
        status, out = CheckFigures.course(self, extra=extra, report="99.5", exports=False, listed=listed)
        self.assertEqual(status, 0, out)


    def test_a_count_in_the_nsight_section_is_an_exports_or_listed(self):
        # 8,388,608 is both copies' sectors; 8,388,609 no export's; 4,096 listed as computed
        status, out = CheckFigures.course(self, extra="\nThe copies read 8,388,608 sectors.\n")
        self.assertEqual(status, 0, out)
        status, out = CheckFigures.course(self, extra="\nThe copies read 8,388,609 sectors.\n")
        self.assertEqual(status, 1, out)
        self.assertIn("8,388,609, a count in the Nsight Compute section, is in no committed export of this lesson", out)
        status, out = CheckFigures.course(self, extra="\nIn blocks of 4,096 elements.\n",
                                          listed=[("4,096", "computed: from the code")])
        self.assertEqual(status, 0, out)


# Two GPUs' reports of the track `demo`: a ladder of two steps each (time, GB/s, speedup)
GPU_REPORT = ('{"ladders": [{"problem": "a copy", "rungs": ['
              '{"step": "01", "title": "one element", "median_ms": %s, "throughput": %s}, '
              '{"step": "02", "title": "grid-stride", "median_ms": %s, "throughput": %s, "speedup_vs_previous": %s}]}]}')
REPORTS = {"h100": GPU_REPORT % (0.2883, 2793.1, 0.2694, 2989.3, 1.07),
           "h200": GPU_REPORT % (0.2300, 3500.6, 0.1902, 4233.1, 1.21)}
# A table of a row per GPU, and one of a column per GPU (the columns after "H100 ms" are the
# H100's until "H200 ms"), each figure from its own GPU's report
ROWS = """| GPU | step 01 ms | step 02 ms | step 02 GB/s |
| --- | --- | --- | --- |
| H100 | 0.2883 | 0.2694 | 2989.3 |
| H200, n = 2^26 | 0.2300 | 0.1902 | 4233.1 |
"""
COLUMNS = """| step | H100 ms | vs prev | H200 ms | vs prev |
| --- | --- | --- | --- | --- |
| 01 | 0.2883 | - | 0.2300 | - |
| 02 | 0.2694 | 1.07x | 0.1902 | 1.21x |
"""


class GpuTables(unittest.TestCase):
    def course(self, text, reports=None):
        """A scratch course of the track `demo` with both GPUs' reports (or `reports`, GPU -> JSON)
        and `text` as its README; returns (exit status, output) of check_figures.py on it."""
        root = Path(tempfile.mkdtemp(prefix="check-figures-"))
        self.addCleanup(shutil.rmtree, root)
        (root / "lessons" / "demo").mkdir(parents=True)
        (root / "tests").mkdir()
        (root / "README.md").write_text("# A course\n")
        (root / "lessons" / "demo" / "README.md").write_text("# Demo\n\n" + text)
        (root / "tests" / "figures_not_in_reports.txt").write_text("")
        for gpu, report in (REPORTS if reports is None else reports).items():
            (root / "slides" / "data" / gpu).mkdir(parents=True)
            (root / "slides" / "data" / gpu / "demo.json").write_text(report)
        run = subprocess.run([sys.executable, str(CHECK), str(root)], capture_output=True, text=True)
        return run.returncode, run.stdout + run.stderr

    def assert_fails(self, text, message):
        """check_figures.py fails on `text` and says `message`."""
        status, out = self.course(text)
        self.assertEqual(status, 1, out)
        self.assertIn(message, out)

    def test_each_gpus_figures_pass(self):
        status, out = self.course(ROWS + "\n" + COLUMNS)
        self.assertEqual(status, 0, out)
        self.assertIn("12 figures in the reports of the one GPU that their table row or column", out)

    def test_a_figure_of_the_other_gpu_fails_in_a_row_per_gpu(self):
        # the H100's step 01 time in the H200's row: in a report of the track, but not the H200's
        self.assert_fails(ROWS.replace("| H200, n = 2^26 | 0.2300 |", "| H200, n = 2^26 | 0.2883 |"),
                          "lessons/demo/README.md:6: 0.2883 is in no report of slides/data/h200/demo*.json (its table's "
                          "row or column names the H200)")
        self.assert_fails(ROWS.replace("| H100 | 0.2883 | 0.2694 | 2989.3 |", "| H100 | 0.2883 | 0.2694 | 4233.1 |"),
                          "4233.1 is in no report of slides/data/h100/demo*.json (its table's row or column names the H100)")

    def test_a_figure_of_the_other_gpu_fails_in_a_column_per_gpu(self):
        # the H100's speedup under the H200's "vs prev": that column follows "H200 ms"
        self.assert_fails(COLUMNS.replace("| 0.1902 | 1.21x |", "| 0.1902 | 1.07x |"),
                          "lessons/demo/README.md:6: 1.07 is in no report of slides/data/h200/demo*.json")
        self.assert_fails(COLUMNS.replace("| 02 | 0.2694 |", "| 02 | 0.1902 |"),
                          "0.1902 is in no report of slides/data/h100/demo*.json")

    def test_a_step_row_shows_its_own_steps_values(self):
        # in a row of step 02, 120.9% is its throughput's share of step 01's; 82.7% is step 01's
        # share of step 02's, a ratio of the same report, but not this row's value
        steps = "| step | H200 ms | H200 % of step 01's GB/s |\n| --- | --- | --- |\n| 01 | 0.2300 | 100.0% |\n" \
                "| 02 | 0.1902 | 120.9% |\n"
        status, out = self.course(steps)
        self.assertEqual(status, 0, out)
        self.assert_fails(steps.replace("120.9%", "82.7%"),
                          "82.7 is in no report of slides/data/h200/demo*.json (its table's row or column names the H200; "
                          "its row, step 02's values)")
        status, out = self.course(steps.replace("| 02 | 0.1902 |", "| 02 | 0.2300 |"))
        self.assertEqual(status, 1, out)
        # without a GPU named, the table is checked as before: any value of the track's reports
        status, out = self.course(steps.replace("H200 ", "").replace("120.9%", "82.7%"))
        self.assertEqual(status, 0, out)

    def test_a_parenthesis_of_one_gpus_figures(self):
        # "(H100: ...)" beside the other GPU's figures is the H100's, up to a semicolon that
        # names another GPU
        prose = "Step 02 takes 0.1902 ms (H100: 0.2694 ms, 1.07x; H200: 1.21x).\n"
        status, out = self.course(prose)
        self.assertEqual(status, 0, out)
        self.assertIn("3 figures in the reports of the one GPU", out)
        self.assert_fails(prose.replace("(H100: 0.2694 ms", "(H100: 0.1902 ms"),
                          "0.1902 is in no report of slides/data/h100/demo*.json (its parenthesis names the H100)")
        self.assert_fails(prose.replace("H200: 1.21x", "H200: 1.07x"),
                          "1.07 is in no report of slides/data/h200/demo*.json")

    def test_a_table_that_names_no_single_gpu_is_checked_as_before(self):
        # a header naming both GPUs, or none, restricts nothing: either report's figure passes
        both = "| step | H100 / H200 ms |\n| --- | --- |\n| 01 | 0.2883 / 0.2300 |\n"
        status, out = self.course(both + "\n" + COLUMNS.replace("H100 ms", "ms").replace("H200 ms", "ms"))
        self.assertEqual(status, 0, out)
        self.assertIn("0 figures in the reports of the one GPU", out)
        # a column of the original material's GPU is not the row's GPU
        talk = "| step | 8800 GT ms (the talk) | GPU | ms |\n| --- | --- | --- | --- |\n| 01 | 0.2883 | H200 | 0.2300 |\n"
        status, out = self.course(talk)
        self.assertEqual(status, 0, out)
        status, out = self.course(talk.replace("| H200 | 0.2300 |", "| H200 | 0.2694 |"))
        self.assertEqual(status, 1, out)


# README.md's table of measured results: a row per track, each quoting its track's reports
RUNG = '{"step": "%s", "title": "x", "median_ms": %s%s}'
README_REPORTS = {
    ("h200", "hgemm"): [RUNG % ("01", 5.1437, ""), RUNG % ("09", 0.1924, ', "speedup_vs_first": 26.74')],
    ("h200", "hgemm-8192"): [RUNG % ("09", 1.4850, ', "fraction_of_library": 0.9814')],
    ("h100", "hgemm"): [RUNG % ("09", 0.1959, ', "fraction_of_library": 0.9541')],
    ("h100", "hgemm-8192"): [RUNG % ("09", 1.5167, ', "fraction_of_library": 0.968')],
    ("h200", "matmul"): [RUNG % ("05", 0.4888, ', "fraction_of_library": 0.9733')],
}
README_ROW = ("| track | size | ladder |\n| --- | --- | --- |\n"
              "| hgemm | 4096^3 | `hgemm.json`: step 01 5.144 ms, step 09 0.1924 ms (26.74x); `hgemm-8192.json`: "
              "step 09 at 98.1% of cuBLAS (H100: 96.8%) |\n")


class ReadmeRows(unittest.TestCase):
    """In README.md, a table row whose first cell names a track quotes that track's reports, and
    after a report's name, up to the next, that report (of its parenthesis's GPU): a figure of
    another track's report fails there even with four digits, which pass anywhere else in it."""

    def course(self, table):
        root = Path(tempfile.mkdtemp(prefix="check-figures-"))
        self.addCleanup(shutil.rmtree, root)
        for track in ("hgemm", "matmul"):
            (root / "lessons" / track).mkdir(parents=True)
            (root / "lessons" / track / "README.md").write_text("# %s\n" % track)
        (root / "tests").mkdir()
        (root / "tests" / "figures_not_in_reports.txt").write_text("")
        (root / "README.md").write_text("# A course\n\n## Measured results\n\n" + table)
        for (gpu, name), rungs in README_REPORTS.items():
            (root / "slides" / "data" / gpu).mkdir(parents=True, exist_ok=True)
            (root / "slides" / "data" / gpu / (name + ".json")).write_text(
                '{"ladders": [{"problem": "C = A * B", "rungs": [%s]}]}' % ", ".join(rungs))
        run = subprocess.run([sys.executable, str(CHECK), str(root)], capture_output=True, text=True)
        return run.returncode, run.stdout + run.stderr

    def passes(self, table):
        status, out = self.course(table)
        self.assertEqual(status, 0, out)

    def fails(self, table, *messages):
        status, out = self.course(table)
        self.assertEqual(status, 1, out)
        for message in messages:
            self.assertIn(message, out)

    def test_a_tracks_row_quotes_its_reports(self):
        self.passes(README_ROW)

    def test_a_figure_of_another_tracks_report_fails(self):
        # 0.4888 ms is matmul.json's: four digits, which anywhere else in README.md may come from
        # any report, but the row names hgemm
        stale = README_ROW.replace("step 09 0.1924 ms", "step 09 0.4888 ms")
        self.fails(stale, "README.md:7: 0.4888 is not in slides/data/*/hgemm.json")
        self.passes(stale.replace("| hgemm | 4096^3 |", "| all | 4096^3 |"))
        # a percentage of 97.3 is matmul.json's too
        self.fails(README_ROW.replace("98.1%", "97.3%"), "97.3 is not in slides/data/*/hgemm-8192.json")

    def test_a_figure_quotes_the_report_named_before_it(self):
        # 98.1% is hgemm-8192.json's, not hgemm.json's, before whose name it now stands
        self.fails(README_ROW.replace("(26.74x)", "(26.74x, 98.1%)"), "98.1 is not in slides/data/*/hgemm.json")
        # a figure of four digits may still come from another report of the track
        self.passes(README_ROW.replace("of cuBLAS (H100", "of cuBLAS, step 09 0.1924 ms at 4096^3 (H100"))
        # the H100's parenthesis after hgemm-8192.json quotes the H100's hgemm-8192.json: 95.4% is
        # its hgemm.json's
        self.fails(README_ROW.replace("(H100: 96.8%)", "(H100: 95.4%)"),
                   "95.4 is not in slides/data/h100/hgemm-8192.json")

    def test_a_section_of_one_gpu_takes_its_figures_outside_the_parentheses_from_that_gpus_reports(self):
        # the section's first sentence names the H200 alone: its figures outside "(H100: ...)" are
        # the H200's, those inside the H100's
        intro = ("NVIDIA H200 (sm_90), CUDA 13.0. Each row is taken from the reports it names in "
                 "`slides/data/h200/`; the same reports from an NVIDIA H100, in `slides/data/h100/`, give the "
                 "figures in parentheses.\n\n")
        self.passes(intro + README_ROW)
        # 96.8% is the H100's hgemm-8192.json's alone: outside the parenthesis it fails
        h100 = README_ROW.replace("step 09 at 98.1% of cuBLAS", "step 09 at 96.8% of cuBLAS")
        self.fails(intro + h100,
                   "README.md:9: 96.8 is not in slides/data/h200/hgemm-8192.json", "(its section names the H200)")
        # so does a time of four digits of the H100's hgemm.json
        self.fails(intro + README_ROW.replace("step 09 0.1924 ms", "step 09 0.1959 ms"),
                   "README.md:9: 0.1959 is not in slides/data/h200/hgemm.json")
        # and the H200's figure in the H100's parenthesis
        self.fails(intro + README_ROW.replace("(H100: 96.8%)", "(H100: 98.1%)"),
                   "98.1 is not in slides/data/h100/hgemm-8192.json")
        # a section whose first sentence names both GPUs is neither's: either GPU's report, as before
        both = intro.replace("NVIDIA H200 (sm_90)", "NVIDIA H100 and NVIDIA H200 (sm_90)")
        self.passes(both + h100)


class TrackTexts(unittest.TestCase):
    """A track's text quotes the exports of all its lessons, where a figure may match another
    kernel's or another metric's value by chance: one GPU's parenthesis beside the other GPU's
    figure is checked against the same metric's value, and an `ncu` entry is unneeded only where
    an export of a lesson its paragraph names holds the figure."""

    def course(self, text, listed=(), prune=False):
        """A scratch course: the lesson of CheckFigures with its exports on both GPUs (the H200's
        naive copy at 72.40% of DRAM's peak and its wide copy at 68.13%, the H100's naive copy's
        figure), `text` as the track's README; returns (exit status, output, the list after)."""
        root = Path(tempfile.mkdtemp(prefix="check-figures-"))
        self.addCleanup(shutil.rmtree, root)
        (root / "lessons" / "demo" / "01_first").mkdir(parents=True)
        (root / "tests").mkdir()
        (root / "README.md").write_text("# A course\n")
        (root / "lessons" / "demo" / "README.md").write_text("# Demo\n\n" + text)
        (root / "lessons" / "demo" / "01_first" / "README.md").write_text(
            LESSON.replace("{dram}", "68.1").replace("{gpu}", ""))
        (root / "tests" / "figures_not_in_reports.txt").write_text(
            "".join("lessons/demo/README.md | %s | %s\n" % entry for entry in listed))
        for gpu, edits in (("h100", {}), ("h200", {"demo-01-1.csv": ('"68.13"', '"72.40"'),
                                                  "demo-01-2.csv": ('"86.02"', '"68.13"')})):
            (root / "slides" / "data" / gpu / "ncu").mkdir(parents=True)
            for csv in DATA.glob("demo-01-*.csv"):
                (root / "slides" / "data" / gpu / "ncu" / csv.name).write_text(
                    csv.read_text().replace(*edits.get(csv.name, ("", ""))))
        run = subprocess.run([sys.executable, str(CHECK)] + (["--prune"] if prune else []) + [str(root)],
                             capture_output=True, text=True)
        return run.returncode, run.stdout + run.stderr, (root / "tests" / "figures_not_in_reports.txt").read_text()

    def test_a_parenthesis_beside_the_other_gpus_figure_is_the_same_metric(self):
        text = "On the H100, step 01's naive copy keeps DRAM at 68.13% of its peak (H200: 72.40%).\n"
        status, out, _ = self.course(text)
        self.assertEqual(status, 0, out)
        # the H100's figure copied into the H200's parenthesis: an H200 export holds 68.13%, but as
        # the wide copy's; the naive copy's is 72.40%
        status, out, _ = self.course(text.replace("(H200: 72.40%)", "(H200: 68.13%)"))
        self.assertEqual(status, 1, out)
        self.assertIn("lessons/demo/README.md:3: 68.13 is in no report of slides/data/h200/demo*.json (its "
                      "parenthesis names the H200) nor in its ncu exports", out)
        # a part of a parenthesis after a semicolon pairs with the other GPU's part before it
        text = "Step 01's naive copy keeps DRAM busy (H100: 68.13%; H200: 72.40%).\n"
        self.assertEqual(self.course(text)[0], 0)
        self.assertEqual(self.course(text.replace("H200: 72.40%", "H200: 68.13%"))[0], 1)
        # and a figure followed by its GPU's name
        text = "Step 01's naive copy keeps DRAM at 68.13% (H100) and 72.40% (H200) of its peak.\n"
        self.assertEqual(self.course(text)[0], 0)
        status, out, _ = self.course(text.replace("72.40% (H200)", "68.13% (H200)"))
        self.assertEqual(status, 1, out)
        self.assertIn("68.13 is in no report of slides/data/h200/demo*.json", out)
        # so does one after a semicolon of a parenthesis that does not begin with a GPU's figures
        text = "Step 01's naive copy keeps DRAM at 68.13% of its peak (H100, Nsight Compute; H200: 72.40%).\n"
        self.assertEqual(self.course(text)[0], 0)
        self.assertEqual(self.course(text.replace("H200: 72.40%", "H200: 68.13%"))[0], 1)

    def test_an_ncu_entry_is_unneeded_only_where_its_lessons_export_holds_it(self):
        entry = [("16.0", "ncu: an Nsight Compute figure; no committed export")]
        # step 01's export holds 16.0 sectors per request (the wide copy's): the entry goes
        status, out, after = self.course("Step 01's wide copy reads 16.0 sectors per request.\n", entry, prune=True)
        self.assertEqual(status, 0, out)
        self.assertIn("1 entries removed", out)
        self.assertEqual(after.strip(), "")
        # a paragraph about step 02, which has no export: 16.0 matches step 01's only by chance,
        # so its entry stays, and stays needed
        text = "Step 02's copy reads 16.0 sectors per request.\n"
        status, out, after = self.course(text, entry, prune=True)
        self.assertEqual(status, 0, out)
        self.assertNotIn("removed", out)
        self.assertIn("lessons/demo/README.md | 16.0 |", after)


class Commands(unittest.TestCase):
    def readme(self):
        root = Path(tempfile.mkdtemp(prefix="ncu-commands-"))
        self.addCleanup(shutil.rmtree, root)
        lesson = root / "lessons" / "demo" / "01_first"
        lesson.mkdir(parents=True)
        (lesson / "README.md").write_text(LESSON.replace("{dram}", "68.1").replace("{gpu}", ""))
        return root, ncu_commands.commands_of("demo", "01", lesson / "README.md", root)

    def test_the_readme_commands_as_written(self):
        _, commands = self.readme()
        self.assertEqual([c.name for c in commands], ["demo-01-1", "demo-01-2"])
        self.assertEqual(commands[1].text, "ncu --metrics %s -k 'regex:^copy_wide$' -c 1 build/lessons/demo-01 "
                         "--reps 1" % METRICS)
        self.assertEqual(commands[0].argv("/b")[:8], ["ncu", "--csv", "--page", "raw", "--print-units", "base",
                                                      "--log-file", "LOG"])
        self.assertIn("/b/lessons/demo-01", commands[0].argv("/b"))

    def test_an_export_is_checked_before_it_is_written(self):
        _, commands = self.readme()
        log = "==PROF== Connected to process 1\n" + "\n".join((DATA / "demo-01-1.csv").read_text().splitlines()[2:])
        text = ncu_commands.export(commands[0], log, "a GPU")
        self.assertEqual(text.splitlines()[0], "# " + commands[0].text)
        self.assertEqual(ncu_commands.read_export_text(text)[1][0][2], [8388608.0])
        commands[0].count = 2
        with self.assertRaisesRegex(ValueError, "1 kernel row"):
            ncu_commands.export(commands[0], log, "a GPU")
        commands[0].count = 1
        with self.assertRaisesRegex(ValueError, "gpu__time_duration.sum"):
            ncu_commands.export(commands[0], log.replace("gpu__time_duration.sum", "gpu__time_duration.avg"), "a GPU")
        with self.assertRaisesRegex(ValueError, "profiled no kernel"):
            ncu_commands.export(commands[0], "\n".join(log.splitlines()[:3]), "a GPU")


# Spreads: a report whose rows have a spread (step 01: 0.4%, step 02: 6.0%) and a time that
# happens to read 10.7 (a percentage of another field could too)
SPREAD_REPORT = ('{"ladders": [{"problem": "a copy", "library": "cuBLAS", "rungs": ['
                 '{"step": "01", "title": "one element", "median_ms": 10.7, "spread": 0.004, '
                 '"fraction_of_library": 0.5}, '
                 '{"step": "02", "title": "grid-stride", "median_ms": 9.1, "spread": 0.06, '
                 '"fraction_of_library": 0.587}]}]}')


class Spreads(unittest.TestCase):
    def course(self, text):
        return GpuTables.course(self, text, {"h200": SPREAD_REPORT})

    def test_a_rows_spread_passes(self):
        status, out = self.course("Step 02's times are the least steady (its `spread` column: 6.0%).\n")
        self.assertEqual(status, 0, out)
        self.assertIn("1 spreads that are a row's spread, 0 shares of the library that are a row's, 0 cells", out)

    def test_a_figure_after_spread_that_is_no_rows_spread_fails(self):
        # 10.7 is in the report (step 01's time), but no row spread over 10.7%
        status, out = self.course("Step 02's times are the least steady (its `spread` column: 10.7%).\n")
        self.assertEqual(status, 1, out)
        self.assertIn('README.md:3: 10.7% follows "spread" but is no row\'s spread in slides/data/*/demo*.json', out)

    def test_a_percentage_before_spread_is_checked_as_before(self):
        status, out = self.course("Step 01 takes 10.7 ms; its spread is 0.4%.\n")
        self.assertEqual(status, 0, out)

    def test_a_share_of_the_library_is_a_rows(self):
        status, out = self.course("Step 02 runs at 58.7% of cuBLAS.\n")
        self.assertEqual(status, 0, out)
        self.assertIn("1 shares of the library that are a row's, 0 cells", out)
        # 10.7 is step 01's time, no row's share of cuBLAS's speed
        status, out = self.course("Step 02 runs at 10.7% of cuBLAS.\n")
        self.assertEqual(status, 1, out)
        self.assertIn("README.md:3: 10.7% before the library's name is no row's share of the library's speed", out)


# A lesson's "| GPU, size |" table: the ladder of the track's report at that size, each column one
# field of it. Step 01 took 0.2000 ms, step 02 0.1000 ms: "02 vs 01" is 2.00x; 1.25 is another
# row's value (the copy's time over step 02's), which the loose check accepts.
SIZE_REPORT = ('{"ladders": [{"problem": "demo: 64x64 pixels", "library": "NPP", "rungs": ['
               '{"step": "01", "title": "one", "median_ms": 0.2, "fraction_of_library": 0.5, '
               '"extra": {"% of copy": "62.5%"}}, '
               '{"step": "02", "title": "two", "median_ms": 0.1, "speedup_vs_previous": 2.0, "fraction_of_library": 1.0, '
               '"extra": {"% of copy": "125.0%"}}, '
               '{"step": "copy", "title": "copy", "median_ms": 0.125, "extra": {"% of copy": "100.0%"}}]}]}')


def lesson_course(test, table, report, files=None):
    """A scratch course whose lesson demo 02's README holds `table`, with the H200's report
    `report` of the track (and `files`, path -> text); returns (exit status, output) of
    check_figures.py on it."""
    root = Path(tempfile.mkdtemp(prefix="check-figures-"))
    test.addCleanup(shutil.rmtree, root)
    lesson = root / "lessons" / "demo" / "02_two"
    lesson.mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "README.md").write_text("# A course\n")
    (root / "lessons" / "demo" / "README.md").write_text("# Demo\n")
    (lesson / "README.md").write_text("# Demo 02\n\n" + table + "\n")
    (root / "tests" / "figures_not_in_reports.txt").write_text("")
    (root / "slides" / "data" / "h200").mkdir(parents=True)
    (root / "slides" / "data" / "h200" / "demo.json").write_text(report)
    for path, text in (files or {}).items():
        (root / path).write_text(text)
    run = subprocess.run([sys.executable, str(CHECK), str(root)], capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr


class SweepFiles(unittest.TestCase):
    # A figure of a committed sweep's table (slides/data/<gpu>/*.txt), in a paragraph that names
    # the file, is that file's; the same figure with no file named, or one the file lacks, fails.
    SWEEP = {"slides/data/h200/demo-sweep.txt": "# a sweep\n64x64  0.3170 ms  0.618x NPP\n"
             "sm__cycles_active.avg  191,347.67 cycle\nsmsp__issue_active  69.50 %\n"}

    def course(self, text):
        return lesson_course(self, text, SIZE_REPORT, self.SWEEP)

    def test_a_figure_of_the_named_sweep_passes(self):
        status, out = self.course("Grouped, 0.618x of NPP\n([sweep](../../../slides/data/h200/demo-sweep.txt)).")
        self.assertEqual(status, 0, out)
        self.assertIn("1 figures of a committed sweep's file that their paragraph names", out)

    def test_a_number_with_grouped_thousands_passes(self):
        status, out = self.course("Warps in 191,347.67 cycles (`h200/demo-sweep.txt`).")
        self.assertEqual(status, 0, out)
        self.assertIn("1 figures of a committed sweep's file that their paragraph names", out)
        status, out = self.course("Warps in 191,347.68 cycles (`h200/demo-sweep.txt`).")
        self.assertEqual(status, 1, out)
        self.assertIn("191,347.68 is in no report", out)

    def test_a_percentage_after_a_space_is_a_percentage(self):
        # ncu's "69.50 %" in the file is the text's 69.50%; its 69.50x would be another unit
        status, out = self.course("Issued in 69.50% of them (`h200/demo-sweep.txt`).")
        self.assertEqual(status, 0, out)
        status, out = self.course("Issued in 69.50x of them (`h200/demo-sweep.txt`).")
        self.assertEqual(status, 1, out)

    def test_without_the_file_named_it_fails(self):
        status, out = self.course("Grouped, 0.618x of NPP.")
        self.assertEqual(status, 1, out)
        self.assertIn("0.618 is in no report", out)

    def test_a_figure_the_sweep_lacks_fails(self):
        status, out = self.course("Grouped, 0.619x of NPP (`h200/demo-sweep.txt`).")
        self.assertEqual(status, 1, out)
        self.assertIn("0.619 is in no report", out)

    def test_a_figure_of_another_unit_fails(self):
        # 0.3170 is the sweep's time in ms, not a ratio
        status, out = self.course("Grouped, 0.3170x of NPP (`h200/demo-sweep.txt`).")
        self.assertEqual(status, 1, out)
        self.assertIn("0.3170 is in no report", out)

    def test_the_other_gpus_sweep_does_not_count(self):
        # the parenthesis makes its figure the H100's: the H200's sweep does not hold it
        status, out = self.course("Grouped, 0.618x of NPP (H100: 0.618x; `h200/demo-sweep.txt`).")
        self.assertEqual(status, 1, out)
        self.assertIn("0.618 is in no report", out)

    def test_a_sweep_file_not_committed_fails(self):
        status, out = self.course("Grouped, 0.618x of NPP (`h200/demo-swep.txt`).")
        self.assertEqual(status, 1, out)
        self.assertIn("names slides/data/h200/demo-swep.txt, which is not committed", out)


class ListedData(unittest.TestCase):
    # A listed entry's why that quotes numbers from committed data names the file beside them; each
    # such number must be in the file (or in one of the files its parenthesis names), so that a
    # why, and the figure computed from it, cannot go stale when the data are measured again.
    FILES = {"slides/data/h200/demo-a.txt": "inst 68,356,120\ntime 0.0637281 ms\n",
             "slides/data/h200/demo-b.txt": "inst 83206320\n"}
    TEXT = "Step 02 issues 1.02 warp instructions a pixel."

    def course(self, why):
        files = dict(self.FILES)
        files["tests/figures_not_in_reports.txt"] = "lessons/demo/02_two/README.md | 1.02 | computed: %s\n" % why
        return lesson_course(self, self.TEXT, SIZE_REPORT, files)

    def test_a_number_the_file_holds_passes(self):
        status, out = self.course("68,356,120 warp instructions (h200/demo-a.txt) / 8192^2 pixels = 1.0186")
        self.assertEqual(status, 0, out)
        self.assertIn("1 numbers that the list's whys quote from committed data files", out)
        # at the precision written, and in a sentence that names the file without a parenthesis
        status, out = self.course("the copy's 0.063728 ms in slides/data/h200/demo-a.txt")
        self.assertEqual(status, 0, out)

    def test_a_computed_figure_that_a_report_holds_by_chance_keeps_its_entry(self):
        # 0.125 is the copy's median in SIZE_REPORT; the text's 0.125 is an eighth of the image
        files = dict(self.FILES)
        files["tests/figures_not_in_reports.txt"] = "lessons/demo/02_two/README.md | 0.125 | computed: 1 / 8\n"
        status, out = lesson_course(self, "Each block takes 0.125 of the image.", SIZE_REPORT, files)
        self.assertEqual(status, 0, out)
        self.assertNotIn("remove the entry", out)
        self.assertIn("1 listed as not from a report", out)

    def test_a_number_the_file_lacks_fails(self):
        status, out = self.course("68,356,121 warp instructions (h200/demo-a.txt) / 8192^2 pixels = 1.0186")
        self.assertEqual(status, 1, out)
        self.assertIn("the why quotes 68,356,121 from h200/demo-a.txt, which does not hold it", out)

    def test_a_parenthesis_may_name_several_files(self):
        for why in ("1 - 68,356,120 / 83,206,320 warp instructions (h200/demo-a.txt and -b.txt)",
                    "1 - 68,356,120 / 83,206,320 warp instructions (h200/demo-a.txt, demo-b.txt)"):
            status, out = self.course(why)
            self.assertEqual(status, 0, out)
            self.assertIn("2 numbers that the list's whys quote", out)
        # each number in one of them; one in neither fails
        status, out = self.course("1 - 68,356,120 / 83,206,321 warp instructions (h200/demo-a.txt and -b.txt)")
        self.assertEqual(status, 1, out)
        self.assertIn("quotes 83,206,321 from h200/demo-a.txt, h200/demo-b.txt", out)

    def test_what_comes_before_a_colon_or_an_equals_sign_is_not_quoted(self):
        # 129,462 and 0.0796 are derived; only the number just before the file is the file's
        status, out = self.course("over 0.0796 ms: 68,356,120 warp instructions (h200/demo-a.txt)")
        self.assertEqual(status, 0, out)
        status, out = self.course("129,462 cycles = 68,356,120 warp instructions (h200/demo-a.txt) / 528")
        self.assertEqual(status, 0, out)
        self.assertIn("1 numbers that the list's whys quote", out)

    def test_a_number_inside_the_parenthesis_is_quoted_too(self):
        status, out = self.course("8.4 / (4 x 1.50 a warp FMA: 68,356,120 in h200/demo-a.txt over 268,435,456)")
        self.assertEqual(status, 0, out)
        self.assertIn("1 numbers that the list's whys quote", out)
        status, out = self.course("8.4 / (4 x 1.50 a warp FMA: 68,356,999 in h200/demo-a.txt over 268,435,456)")
        self.assertEqual(status, 1, out)
        self.assertIn("quotes 68,356,999 from h200/demo-a.txt", out)

    def test_a_name_is_taken_against_the_file_named_just_before_it(self):
        # demo-b.txt after an h100 file is the H100's, which is not committed
        status, out = self.course("68,356,120 / 83,206,320 (h200/demo-a.txt, h100/demo-c.txt, demo-b.txt)")
        self.assertEqual(status, 1, out)
        self.assertIn("the why names slides/data/h100/demo-c.txt, slides/data/h100/demo-b.txt, which are not committed", out)

    def test_a_file_not_committed_fails(self):
        status, out = self.course("68,356,120 warp instructions (h200/demo-c.txt)")
        self.assertEqual(status, 1, out)
        self.assertIn("the why names slides/data/h200/demo-c.txt, which is not committed", out)


class SizeTables(unittest.TestCase):
    def course(self, row):
        """A scratch course whose lesson demo 02 shows `row` in its "GPU, size" table."""
        return lesson_course(self, "| GPU, size | step 01 ms | step 02 ms | 02 vs 01 | % of copy | % of NPP |\n"
                             "| --- | ---: | ---: | ---: | ---: | ---: |\n" + row, SIZE_REPORT)

    def test_each_column_shows_its_field(self):
        status, out = self.course("| H200, 64x64 | 0.2000 | 0.1000 | **2.00x** | 125.0% | 100.0% |")
        self.assertEqual(status, 0, out)
        self.assertIn("5 cells of lessons' \"GPU, size\" and", out)

    def test_another_rows_ratio_in_a_speedup_column_fails(self):
        # 1.25 is a ratio of the report's rows (the copy's time over step 02's), not 01's over 02's
        status, out = self.course("| H200, 64x64 | 0.2000 | 0.1000 | **1.25x** | 125.0% | 100.0% |")
        self.assertEqual(status, 1, out)
        self.assertIn('column "02 vs 01" of the H200, 64x64 row shows 1.25x, but h200/demo.json holds 2.0', out)

    def test_another_steps_time_fails(self):
        status, out = self.course("| H200, 64x64 | 0.1000 | 0.1000 | **2.00x** | 125.0% | 100.0% |")
        self.assertEqual(status, 1, out)
        self.assertIn('column "step 01 ms" of the H200, 64x64 row shows 0.1000', out)

    def test_a_size_no_report_holds_fails(self):
        status, out = self.course("| H200, 128x128 | 0.2000 | 0.1000 | **2.00x** | 125.0% | 100.0% |")
        self.assertEqual(status, 1, out)
        self.assertIn("no report of the H200 holds the demo ladder at 128x128", out)


class CubeTables(unittest.TestCase):
    # A lesson's "| GPU | 64^3: ms | vs prev |" table: step 02's row of the report at 64 x 64 x 64
    def course(self, row):
        return lesson_course(self, "| GPU | 64^3: ms | vs prev | % of NPP |\n| --- | ---: | ---: | ---: |\n" + row,
                             SIZE_REPORT.replace("demo: 64x64 pixels", "M x N x K = 64 x 64 x 64"))

    def test_the_lessons_step_passes(self):
        status, out = self.course("| H200 | 0.1000 | 2.00x | 100.0% |")
        self.assertEqual(status, 0, out)
        self.assertIn("3 cells of lessons'", out)

    def test_another_field_fails(self):
        # 0.1250 is the copy's time, a value of the report: not step 02's
        status, out = self.course("| H200 | 0.1250 | 2.00x | 100.0% |")
        self.assertEqual(status, 1, out)
        self.assertIn("the H200 row's median_ms at 64^3 shows 0.1250, but step 02's row", out)


class GpuLadderTables(unittest.TestCase):
    # A track's two-GPU ladder table, the H200's columns from SIZE_REPORT: step 02's "vs prev" is
    # 2.00x; 1.25x is the copy's time over step 02's, which the loose check of a step's row accepts.
    TABLE = "| step | H200 ms | vs prev | % of copy |\n| --- | ---: | ---: | ---: |\n| 01 one | 0.2000 | | 62.5% |\n" \
            "| 02 two | 0.1000 | SPEEDUP | 125.0% |\n| copy | 0.1250 | | 100.0% |\n"

    def course(self, speedup):
        return GpuTables.course(self, self.TABLE.replace("SPEEDUP", speedup), {"h200": SIZE_REPORT})

    def test_a_rows_own_fields_pass(self):
        status, out = self.course("**2.00x**")
        self.assertEqual(status, 0, out)
        self.assertIn("3 GPUs' cells of a row of a two-GPU ladder table that are one rung's", out)

    def test_another_rows_ratio_fails(self):
        status, out = self.course("1.25x")
        self.assertEqual(status, 1, out)
        self.assertIn("the H200's cells of row 02 two (0.1000, 1.25x, 125.0%) are not the fields of step 02's row", out)


class StepCubeTables(unittest.TestCase):
    # A track's one-GPU "| step | 64^3: ms | vs prev |" table: the GPU is the one its sentence
    # names, each cell step's field in that GPU's report at 64 x 64 x 64. The H100's report has
    # step 02 at 0.2000 ms and the copy at 0.2500; the H200's as SIZE_REPORT.
    CUBE = SIZE_REPORT.replace("demo: 64x64 pixels", "M x N x K = 64 x 64 x 64")
    H100 = CUBE.replace('"median_ms": 0.1,', '"median_ms": 0.2,').replace('"median_ms": 0.125', '"median_ms": 0.25')

    def course(self, sentence, row):
        text = sentence + "\n\n| step | 64^3: ms | vs prev |\n| --- | ---: | ---: |\n" + row + "\n"
        return GpuTables.course(self, text, {"h100": self.H100, "h200": self.CUBE})

    def test_the_named_gpus_step_passes(self):
        status, out = self.course("On the NVIDIA H200 (`demo.json`):", "| 02 | 0.1000 | 2.00x |")
        self.assertEqual(status, 0, out)
        self.assertIn("2 cells of one-GPU", out)

    def test_the_other_gpus_value_fails(self):
        # 0.2000 is the H100's step 02 (and the H200's step 01): not the H200's step 02
        status, out = self.course("On the NVIDIA H200 (`demo.json`):", "| 02 | 0.2000 | 2.00x |")
        self.assertEqual(status, 1, out)
        self.assertIn("the H200's table shows 0.2000 as step 02's median_ms at 64^3", out)

    def test_a_table_whose_sentence_names_no_single_gpu_fails(self):
        status, out = self.course("On the H100 and the H200:", "| 02 | 0.1000 | 2.00x |")
        self.assertEqual(status, 1, out)
        self.assertIn("must follow a sentence that names its GPU, and only that one (the sentence just above it "
                      "names H100 and H200", out)

    def test_a_heading_is_no_sentence(self):
        status, out = self.course("## On the NVIDIA H200", "| 02 | 0.1000 | 2.00x |")
        self.assertEqual(status, 1, out)
        self.assertIn("names none; a heading does not count", out)

    def test_a_row_that_is_no_step_fails(self):
        status, out = self.course("On the NVIDIA H200 (`demo.json`):", "| 02 (two) | 0.2000 | 2.00x |")
        self.assertEqual(status, 1, out)
        self.assertIn('is labelled "02 (two)", not a step', out)

    def test_a_column_of_no_known_field_fails(self):
        text = "On the NVIDIA H200:\n\n| step | 64^3: ms | GB/s |\n| --- | ---: | ---: |\n| 02 | 0.1000 | 5.0 |\n"
        status, out = GpuTables.course(self, text, {"h100": self.H100, "h200": self.CUBE})
        self.assertEqual(status, 1, out)
        self.assertIn('the column "GB/s" of the 64^3 group is none of', out)

    def test_a_dash_where_the_report_has_a_value_fails(self):
        status, out = self.course("On the NVIDIA H200 (`demo.json`):", "| 02 | 0.1000 | - |")
        self.assertEqual(status, 1, out)
        self.assertIn("the H200's table shows - as step 02's speedup_vs_previous", out)


class GpuLadderSizes(unittest.TestCase):
    # A two-GPU table whose columns name their size: each cell comes from a ladder of that size.
    TABLE = "| step | H200 vs prev (64x64) | H200 vs prev (128x128) |\n| --- | ---: | ---: |\nROW\n"

    def course(self, row):
        return GpuTables.course(self, self.TABLE.replace("ROW", row), {"h200": SIZE_REPORT})

    def test_a_cell_of_its_size_passes(self):
        status, out = self.course("| 02 two | 2.00x | |")
        self.assertEqual(status, 0, out)
        self.assertIn("1 GPUs' cells of a row of a two-GPU ladder table that are one rung's", out)

    def test_a_cell_under_another_size_fails(self):
        status, out = self.course("| 02 two | | 2.00x |")
        self.assertEqual(status, 1, out)
        self.assertIn("the H200 (128x128)'s cells of row 02 two (2.00x) are not the fields of step 02's row", out)


class CopyShares(unittest.TestCase):
    # SIZE_REPORT: step 02 at 125.0% of the copy; 50.0 is step 01's share of NPP, another field
    def course(self, text):
        return GpuTables.course(self, text, {"h200": SIZE_REPORT})

    def test_a_rows_share_of_the_copy_passes(self):
        status, out = self.course("Step 02 reaches 125.0% of the copy's bandwidth.\n")
        self.assertEqual(status, 0, out)
        self.assertIn("1 percentages before \"of the copy\" that are a row's", out)

    def test_another_fields_value_before_of_the_copy_fails(self):
        status, out = self.course("Step 01 reaches 50.0% of the copy.\n")
        self.assertEqual(status, 1, out)
        self.assertIn('50.0% before "of the copy" is no row\'s % of copy', out)


class DramPeakShares(unittest.TestCase):
    # Step 01 at 90.0% of the DRAM peak, step 02 at 42.5%; 62.5 is step 01's share of the copy, another field
    REPORT = ('{"ladders": [{"problem": "demo: 64x64 pixels", "rungs": ['
              '{"step": "01", "title": "one", "median_ms": 0.2, "percent_of_peak": 0.9, '
              '"extra": {"% of copy": "62.5%"}}, '
              '{"step": "02", "title": "two", "median_ms": 0.1, "percent_of_peak": 0.425, '
              '"extra": {"% of copy": "125.0%"}}]}]}')

    def course(self, text):
        return GpuTables.course(self, text, {"h200": self.REPORT})

    def test_a_rows_share_of_the_dram_peak_passes(self):
        for text, count in (("Step 02 reaches 42.5% of the DRAM peak.\n", 1),
                            ("Step 02 reaches 42.5% of its theoretical DRAM\npeak.\n", 1),
                            ("Step 01 reaches 90.0% of its DRAM\npeak, step 02 42.5% of the H200's.\n", 2)):
            status, out = self.course(text)
            self.assertEqual(status, 0, out)
            self.assertIn("%d before \"of the DRAM peak\" that are a row's %% peak" % count, out)

    def test_another_fields_value_before_of_the_dram_peak_fails(self):
        for text in ("The copy reaches 62.5% of the H200's DRAM peak.\n", "The copy reaches 62.5% of the\nH200's DRAM peak.\n",
                     "The copy reaches 42.5% of the DRAM peak, step 01 62.5% of the H200's.\n"):
            status, out = self.course(text)
            self.assertEqual(status, 1, out)
            self.assertIn('62.5% before "of the DRAM peak" is no row\'s % of peak', out)

    def test_a_share_of_something_else_of_a_gpu_is_not_taken_for_the_dram_peak(self):
        status, out = self.course("Step 02 reaches 125.0% of the copy on the H100, 62.5% of the H200's.\n")
        self.assertEqual(status, 0, out)
        self.assertIn("0 before \"of the DRAM peak\" that are a row's % peak", out)


def profile_report(sm, occupancy):
    """A report of the track `demo` whose steps 01 and 02 carry --profile columns: SM `sm` and
    occupancy `occupancy` (two values each, the steps'), DRAM 10.0% and 20.0%."""
    rungs = ", ".join('{"step": "%s", "title": "t", "median_ms": %s, "extra": {"DRAM %%": "%s", "SM %%": "%s", '
                      '"occupancy": "%s%%"}}' % (step, 0.2 / (i + 1), dram, sm[i], occupancy[i])
                      for i, (step, dram) in enumerate((("01", "10.0"), ("02", "20.0"))))
    return '{"ladders": [{"problem": "demo: 64x64 pixels", "rungs": [%s]}]}' % rungs


class ProfileFigures(unittest.TestCase):
    # H100: step 01 SM 55.0%, occupancy 24.0%; step 02 SM 77.3%, 35.1%. H200: step 01 SM 55.6%,
    # 23.9%; step 02 SM 78.0%, 35.1%. 55.3 and 35.0 are no value of those columns (55.3 is the
    # H200's DRAM of step 01 below, another column's).
    REPORTS = {"h100": profile_report(("55.0", "77.3"), ("24.0", "35.1")),
               "h200": profile_report(("55.6", "78.0"), ("23.9", "35.1")).replace('"DRAM %": "10.0"',
                                                                                  '"DRAM %": "55.3"')}

    def course(self, text):
        return GpuTables.course(self, text, self.REPORTS)

    def test_a_columns_values_and_one_steps_pair_pass(self):
        status, out = self.course("Step 01: SM 55.0% and 55.6%, occupancy 24.0% and 23.9%; step 02's occupancy "
                                  "falls to 35.1% on both, SM 78.0%.\n")
        self.assertEqual(status, 0, out)
        self.assertIn("6 --profile figures named by their column that are that column's", out)

    def test_another_columns_value_fails(self):
        status, out = self.course("Step 02's occupancy falls to 35.0% on both.\n")
        self.assertEqual(status, 1, out)
        self.assertIn("occupancy 35.0% is no --profile occupancy value", out)

    def test_a_pair_of_two_steps_fails(self):
        # 55.0 is step 01's SM on the H100 and 78.0 step 02's on the H200: each a value of the
        # column, but not one step's pair
        status, out = self.course("Step 01 reads latency bound (SM 55.0% and 78.0%).\n")
        self.assertEqual(status, 1, out)
        self.assertIn("SM 55.0% and 78.0% are not one step's --profile SM % values in two reports", out)

    def test_a_pair_with_another_columns_value_fails(self):
        status, out = self.course("Step 01 reads latency bound (SM 55.0% and 55.3%).\n")
        self.assertEqual(status, 1, out)
        self.assertIn("SM 55.0% and 55.3% are not one step's", out)


if __name__ == "__main__":
    unittest.main()
