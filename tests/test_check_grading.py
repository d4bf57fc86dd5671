#!/usr/bin/env python3
"""Tests of tests/check-grading's reading of the grading log, without a GPU.

    python3 tests/test_check_grading.py

The log has one JSON line per measure of each ladder a speed race ran (tests/speed_rule.cpp),
with that ladder's verdict: passed, slow, or unsteady (the reference's own times spread more than
tests/speed_verdict.h allows, so its fraction decided nothing). What check-grading quotes, in its
summary and in the starters' tables it writes into the READMEs, is the fraction of the ladder
that decided; where none did, it says so with the widest spread, never an undecided fraction.
"""

import importlib.machinery
import importlib.util
import json
import shutil
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load_check_grading():
    loader = importlib.machinery.SourceFileLoader("check_grading", str(HERE / "check-grading"))
    spec = importlib.util.spec_from_loader("check_grading", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


check_grading = load_check_grading()


def line(lesson, attempt, fraction, spread, verdict, measure="time", ladder_spread=None):
    """One log line; `ladder_spread`, the widest spread of the ladder's references, is `spread`
    unless the ladder has another measure."""
    return {"lesson": lesson, "graded": "solution", "device": "GPU", "attempt": attempt, "measure": measure,
            "fraction": fraction, "minimum": 0.85, "reference_spread": spread,
            "ladder_reference_spread": spread if ladder_spread is None else ladder_spread, "verdict": verdict}


class SpeedFractions(unittest.TestCase):
    def fractions(self, *records):
        folder = Path(tempfile.mkdtemp(prefix="check-grading-"))
        self.addCleanup(shutil.rmtree, folder)
        log = folder / "speed.jsonl"
        log.write_text("".join(json.dumps(record) + "\n" for record in records))
        return check_grading.speed_fractions(log)

    def test_the_last_ladder_decides(self):
        fractions = self.fractions(line("matmul 02", 1, 0.80, 0.01, "slow"),
                                   line("matmul 02", 2, 0.97, 0.02, "passed"))
        self.assertEqual(fractions, {"matmul 02": [("time", 0.97, 2, None)]})

    def test_an_unsteady_ladder_after_a_slow_one_is_not_quoted(self):
        # The reference ran at two speeds in ladder 2: its 1.847x decided nothing, ladder 1's 0.6x did.
        fractions = self.fractions(line("hgemm 09", 1, 0.6, 0.02, "slow"),
                                   line("hgemm 09", 2, 1.847, 0.869, "unsteady"),
                                   line("hgemm 09", 3, 1.9, 0.7, "unsteady"))
        self.assertEqual(fractions, {"hgemm 09": [("time", 0.6, 1, None)]})

    def test_no_ladder_decided(self):
        fractions = self.fractions(line("hgemm 08", 1, 1.8, 0.869, "unsteady"),
                                   line("hgemm 08", 2, 1.9, 0.7, "unsteady"))
        self.assertEqual(fractions, {"hgemm 08": [("time", 1.9, 2, 0.7)]})

    def test_an_unsteady_measure_leaves_its_ladders_other_measures_undecided(self):
        # convolution 07's memory-only reference ran at two speeds: both measures say 90%.
        fractions = self.fractions(line("convolution 07", 1, 1.0, 0.02, "unsteady", ladder_spread=0.9),
                                   line("convolution 07", 1, 1.0, 0.9, "unsteady", "memory-only time"))
        self.assertEqual(fractions, {"convolution 07": [("time", 1.0, 1, 0.9), ("memory-only time", 1.0, 1, 0.9)]})

    def test_a_log_without_verdicts_reads_as_before(self):
        old = dict(line("basics 01", 3, 0.4, 0.0, None))
        del old["verdict"], old["reference_spread"], old["ladder_reference_spread"]
        self.assertEqual(self.fractions(old), {"basics 01": [("time", 0.4, 3, None)]})

    def test_no_log(self):
        self.assertEqual(check_grading.speed_fractions(Path("/nonexistent/speed.jsonl")), {})


class StarterTables(unittest.TestCase):
    CASE = "step 09 runs at least 0.85x as fast as the reference solution of step 09"

    def table(self, fractions):
        records = [{"name": "course:hgemm / hgemm 09 async", "result": "FAIL", "returncode": 1,
                    "stdout": "TEST CASE:  " + self.CASE + "\n\nERROR: the kernel is slower\n"}]
        original = check_grading.failed_cases
        check_grading.failed_cases = lambda record: [self.CASE]
        self.addCleanup(setattr, check_grading, "failed_cases", original)
        return check_grading.starter_tables(records, fractions)["hgemm"]

    def test_a_decided_race_quotes_its_fraction(self):
        self.assertIn(self.CASE + " (time 0.600x) |", self.table({"hgemm 09": [("time", 0.6, 1, None)]}))

    def test_an_undecided_race_says_so(self):
        table = self.table({"hgemm 09": [("time", 1.9, 3, 0.7)]})
        self.assertIn(self.CASE + " (time undecided: the reference's times spread 70.0%) |", table)
        self.assertNotIn("1.900x", table)


class SanitizerRows(unittest.TestCase):
    """What the sanitizer tests add to a starter's row: their errors, and a case only they failed."""

    def table(self):
        failed = "TEST CASE:  step 05 sums exactly at every grading size\n\nERROR: wrong sum\n"
        records = [
            {"name": "course:reduction / reduction 05 unroll_last_warp racecheck", "result": "FAIL", "returncode": 1,
             "stdout": failed + "========= RACECHECK SUMMARY: 12 hazards displayed (12 errors, 0 warnings)\n"},
            {"name": "course:reduction / reduction 05 unroll_last_warp memcheck", "result": "OK", "returncode": 0,
             "stdout": "========= ERROR SUMMARY: 0 errors\n"},
            {"name": "course:reduction / reduction 05 unroll_last_warp", "result": "FAIL", "returncode": 1,
             "stdout": failed},
        ]
        return check_grading.starter_tables(records, {})["reduction"]

    def test_races_get_their_count_and_a_repeated_case_is_listed_once(self):
        self.assertEqual(self.table().splitlines()[-1],
                         "| 05 | step 05 sums exactly at every grading size; "
                         "shared-memory races under compute-sanitizer racecheck (12) |")

    def test_the_tool_is_read_from_the_name(self):
        self.assertEqual(check_grading.sanitizer_of("matmul 08 warp_tiling racecheck"), "racecheck")
        self.assertEqual(check_grading.sanitizer_of("matmul 08 warp_tiling memcheck"), "memcheck")
        self.assertIsNone(check_grading.sanitizer_of("matmul 08 warp_tiling"))


if __name__ == "__main__":
    unittest.main()
