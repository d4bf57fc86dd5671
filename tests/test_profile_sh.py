#!/usr/bin/env python3
"""Tests of slides/data/profile.sh without a GPU: a made-up `ncu` and `nvidia-smi` on the PATH.

    python3 tests/test_profile_sh.py

Each test copies profile.sh and ncu_commands.py into a scratch course with one lesson (its
README's two ncu commands, its kernel.cu the solution's) and a made-up Meson build of it, and
checks what the script promises: the exports written after a complete run, a lesson's committed
ones untouched when one of its commands fails (the other lessons' written), exit 77 without ncu or a GPU, a build of the starters refused,
and --budget replacing only the lessons it finished.
"""

import os
import shutil
import stat
import subprocess
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "slides" / "data"

README = """# Demo {n}

## See it in Nsight Compute

```sh
m=dram__bytes_read.sum,gpu__time_duration.sum
ncu --metrics $m -k regex:'^copy_{n}$' -c 1 build/lessons/demo-{n} --reps 1   # step 00
ncu --metrics $m -k regex:'^wide_{n}$' -c 2 build/lessons/demo-{n} --reps 1   # yours
```
"""

# What `ncu --csv --page raw --print-units base --log-file F` writes to F: its messages, the
# header, the units, a row per kernel (-c); FAKE_NCU_FAIL names a regex to fail on,
# FAKE_NCU_SLOW one to take a minute on.
FAKE_NCU = r"""#!/usr/bin/env python3
import os, sys, time
a = sys.argv[1:]
if a == ["--version"]:
    print("Version 0.0 (made up)")
    sys.exit(0)
regex = next(w for w in a if w.startswith("regex:"))
if os.environ.get("FAKE_NCU_FAIL") and os.environ["FAKE_NCU_FAIL"] in regex:
    print("==ERROR== failed", file=sys.stderr)
    sys.exit(1)
if os.environ.get("FAKE_NCU_SLOW") and os.environ["FAKE_NCU_SLOW"] in regex:
    time.sleep(60)
metrics = a[a.index("--metrics") + 1].split(",")
count = int(a[a.index("-c") + 1])
head = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
        "Grid Size", "Device", "CC", "device__attribute_display_name"] + metrics
with open(a[a.index("--log-file") + 1], "w") as log:
    log.write("==PROF== Connected to process 1\n")
    log.write(",".join('"%s"' % h for h in head) + "\n")
    log.write(",".join('"%s"' % u for u in [""] * 12 + ["byte", "ns"]) + "\n")
    for i in range(count):
        row = [str(i), "1", "demo", "h", "void %s()" % regex[6:].strip("^$"), "1", "7", "(256, 1, 1)",
               "(8, 1, 1)", "0", "9.0", "GPU", "67,108,864", "31,520.5"]
        log.write(",".join('"%s"' % v for v in row) + "\n")
"""


class ProfileSh(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="profile-sh-"))
        self.addCleanup(shutil.rmtree, self.root)
        (self.root / "slides" / "data").mkdir(parents=True)
        for name in ("profile.sh", "ncu_commands.py"):
            shutil.copy(DATA / name, self.root / "slides" / "data" / name)
        build = self.root / "solved"
        (build / "meson-info").mkdir(parents=True)
        (build / "meson-info" / "meson-info.json").write_text('{"directories": {"source": "%s"}}' % self.root)
        (build / "lessons").mkdir()
        for n in ("01", "02"):
            for tree in ("lessons", "solutions"):
                (self.root / tree / "demo" / (n + "_step")).mkdir(parents=True)
                (self.root / tree / "demo" / (n + "_step") / "kernel.cu").write_text("// the solution\n")
            (self.root / "lessons" / "demo" / (n + "_step") / "README.md").write_text(README.replace("{n}", n))
            program = build / "lessons" / ("demo-" + n)
            program.write_text("#!/bin/sh\n")
            program.chmod(0o755)
        self.bin = self.root / "bin"
        self.bin.mkdir()
        self.tool("ncu", FAKE_NCU)
        self.tool("nvidia-smi", '#!/bin/sh\n[ "$1" = -L ] && echo "GPU 0: made up" || echo "Made-up GPU, 0.0"\n')
        self.out = self.root / "slides" / "data" / "h100" / "ncu"

    def tool(self, name, text):
        (self.bin / name).write_text(text)
        (self.bin / name).chmod(0o755 | stat.S_IXUSR)

    def run_script(self, *args, env=None, path=None):
        environment = dict(os.environ, PATH="%s:%s" % (self.bin, os.environ["PATH"]) if path is None else path,
                           TMPDIR=str(self.root))
        environment.update(env or {})
        run = subprocess.run(["bash", str(self.root / "slides" / "data" / "profile.sh")] + list(args),
                             capture_output=True, text=True, env=environment, cwd=self.root)
        return run.returncode, run.stdout + run.stderr

    def test_a_complete_run_writes_every_export(self):
        status, out = self.run_script("solved", "h100")
        self.assertEqual(status, 0, out)
        self.assertEqual(sorted(p.name for p in self.out.iterdir()),
                         ["demo-01-1.csv", "demo-01-2.csv", "demo-02-1.csv", "demo-02-2.csv"])
        lines = (self.out / "demo-01-2.csv").read_text().splitlines()
        self.assertEqual(lines[0], "# ncu --metrics dram__bytes_read.sum,gpu__time_duration.sum -k 'regex:^wide_01$' "
                                   "-c 2 build/lessons/demo-01 --reps 1")
        self.assertTrue(lines[2].endswith('"CC","dram__bytes_read.sum","gpu__time_duration.sum"'), lines[2])
        self.assertEqual(len(lines), 6)  # two comments, header, units, the two kernels -c 2 asks for
        self.assertNotIn("device__attribute_display_name", lines[2])  # only the metrics named

    def test_a_failed_command_keeps_its_lessons_exports_and_writes_the_others(self):
        self.out.mkdir(parents=True)
        for name in ("demo-01-1.csv", "demo-02-1.csv", "demo-02-2.csv"):
            (self.out / name).write_text("committed\n")
        status, out = self.run_script("solved", "h100", env={"FAKE_NCU_FAIL": "copy_02"})
        self.assertEqual(status, 1, out)
        self.assertIn("the exports of demo-02 are as committed", out)
        self.assertIn("h100/ncu/demo-02-1: ncu exited 1", out)
        self.assertNotIn("demo-02-2.csv", out)  # the broken lesson's other command is skipped
        # demo-02 (broken) untouched, both of its files kept; demo-01 complete, written
        self.assertEqual(sorted(p.name for p in self.out.iterdir()),
                         ["demo-01-1.csv", "demo-01-2.csv", "demo-02-1.csv", "demo-02-2.csv"])
        self.assertEqual((self.out / "demo-02-1.csv").read_text(), "committed\n")
        self.assertEqual((self.out / "demo-02-2.csv").read_text(), "committed\n")
        self.assertNotEqual((self.out / "demo-01-1.csv").read_text(), "committed\n")
        # the scratch folder with ncu's logs is kept
        self.assertTrue(list(self.root.glob("profile-h100.*")), out)

    def test_without_ncu_or_a_gpu_nothing_changes(self):
        status, out = self.run_script("solved", "h100", path="/usr/bin:/bin")
        self.assertEqual(status, 77, out)
        self.assertIn("ncu (Nsight Compute) is not on the PATH", out)
        self.tool("nvidia-smi", "#!/bin/sh\nexit 9\n")
        status, out = self.run_script("solved", "h100")
        self.assertEqual(status, 77, out)
        self.assertIn("no GPU", out)
        self.assertFalse(self.out.exists())

    def test_a_build_of_the_starters_is_refused(self):
        (self.root / "lessons" / "demo" / "02_step" / "kernel.cu").write_text("// TODO(step 02)\n")
        status, out = self.run_script("solved", "h100")
        self.assertEqual(status, 2, out)
        self.assertIn("the starters of demo-02 are not their solutions", out)
        status, out = self.run_script("solved", "h100", "demo-01")  # the one lesson that holds its solution
        self.assertEqual(status, 0, out)

    def test_the_budget_replaces_the_lessons_it_finished(self):
        # demo-01 takes no time, demo-02's first command longer than the budget: it is stopped
        status, out = self.run_script("--budget", "4", "solved", "h100", env={"FAKE_NCU_SLOW": "copy_02"})
        self.assertEqual(status, 3, out)
        self.assertEqual(sorted(p.name for p in self.out.iterdir()), ["demo-01-1.csv", "demo-01-2.csv"])
        self.assertIn("profile them next: ", out)
        self.assertIn(" solved h100 demo-02", out)

    def test_a_lesson_no_readme_names_is_a_usage_mistake(self):
        status, out = self.run_script("solved", "h100", "demo-07")
        self.assertEqual(status, 2, out)
        self.assertIn("no lesson with an Nsight Compute command is called demo-07", out)


if __name__ == "__main__":
    unittest.main()
