#!/usr/bin/env python3
"""Checks that every lesson's starter and texts agree with the code (CPU only, no GPU).

Usage: check_lessons.py [PROJECT_ROOT]      (meson test runs it as "lessons (CPU)")

A lesson is lessons/<track>/<NN_name>/ (README.md, kernel.cu: the student's starter); its
reference solution is solutions/<track>/<NN_name>/kernel.cu. For every lesson it checks:

 1. Kernel names. The starter's __global__ kernels have exactly the names of this step's
    solution's kernels. The lesson program links the starter with the solutions of the earlier
    steps, so a starter kernel that kept an earlier step's name would leave `ncu -k
    regex:<this step's kernel>` with nothing to find, and the earlier name would profile the
    earlier step's solution. A step whose solution is host code only (the occupancy
    calculator) has no kernel in its starter either.

 2. Nsight Compute regexes. Every `regex:PATTERN` in the lesson's README.md and in the track's
    README.md and NOTES.md must match (Python re.search) the kernel names of exactly one step of the track:
    none would profile nothing, two would profile whichever launches first. In a lesson README,
    that step must be this one or an earlier one (a comparison, e.g. "# step 01"), and at least
    one of its regexes must match this step's kernel. The kernel regexes of .ci/gpu-check (its
    `profile TRACK SIZE METRICS REGEX...` calls and `for kernel in ...` lists) must each match
    one step of their track too, and every track with kernels must have a `profile` call or a
    `for kernel in ...` list there.
    A kernel name that contains another step's (`vector_add_float4` beside `vector_add`) makes
    every unanchored regex of the shorter name match two steps: the failure says so, and the
    patterns must be anchored (`vector_add$`).

 3. No drift. The starter of step NN (NN > 01) is the solution of step NN-1 plus TODO(step NN)
    markers; step 01's starter is step 01's solution with the student's code taken out. The
    rule, exactly:
      a. Both files lose their leading header comment (the lines before the first line that is
         neither blank nor a // comment): the headers say different things by design.
      b. (NN > 01) The previous solution's kernels are renamed to this step's (the i-th __global__ kernel
         to the i-th), and every identifier stepPP_X to this step's: stepNN_<this name><rest>
         if X is <previous name><rest>, else stepNN_X, whichever this step's solution defines.
      c. Both are cut into lines to compare: blank lines are dropped, whitespace runs count as
         one space, and a line that leaves a parenthesis open is joined with the next ones
         until it closes or a line ends in {, } or ; (so a rename that re-wraps an argument
         list changes nothing, and a lambda's body inside a call stays lines of its own).
      d. difflib compares the two line lists. Every differing hunk must be covered by a
         TODO(step NN) marker of the starter (NN = this step): a marker covers its own line and
         the lines after it through CODE_LINES (3) lines of code, comment lines (the rest of
         the TODO's text) not counted: the TODO and the code it talks about. A hunk is covered when one of its starter lines is; a hunk
         that only deletes is covered when the starter line just above or just below the
         deleted lines is. Where a starter gives the student something new that is not the
         student's to write (a new launcher, a template parameter), a TODO(step NN) comment
         says so ("done for you: ...").
    Every starter must also hold a TODO(step NN) marker, and no marker of another step.

 4. Length. A lesson README is read in about ten minutes: at most LESSON_README_LINES (150)
    lines; a track README at most TRACK_README_LINES (250). Tables for both GPUs and both sizes
    belong in the track README or its generated MEASURED.md, long analyses in the track's NOTES.md.

 5. Grading messages. doctest builds a message as `builder * first, second, ...`, so a top-level
    `*`, `/` or `%` in the first argument of a *_MESSAGE, INFO or CAPTURE macro binds to the
    builder: `CHECK_MESSAGE(ok, a * b, " threads")` prints a and then b ("1152" "64": 115264),
    not their product. Such an argument must be parenthesised. And doctest (2.4.9, whose
    DOCTEST_CONFIG_TREAT_CHAR_STAR_AS_STRING does not compile) prints a `const char*` variable as
    its address: an argument that names a `const char*` the file declares fails. Checked in every
    tests/ source.

 6. Test commands. Every `meson test` command in the course's texts (README.md, CONTRIBUTING.md,
    slides/data/README.md, the tracks' and lessons' markdown, the decks; in code blocks and in
    inline code, a command that wraps across lines included) names only test setups, suites and
    tests that the build defines: the setups of tests/meson.build, the suites `grade`,
    `solutions`, `harness`, `cpu`, `gpu`, each track and `<track>-solutions`, and the tests the
    tests' meson.build files name (their literal names), the benchmarks ("<track> ladder", "<track>
    targets") and the lessons' tests ("<track> NN name", its " memcheck" and " racecheck" twins, its " (solution)");
    and every `meson compile -C build TARGET` and every program or library under build/lessons/
    or build/tests/ that a text names is one the build makes (its meson.build files' targets and
    executables, the lessons' programs and libraries, the tests' programs). So renaming a suite,
    a test, a target or a lesson folder leaves no command in a text that runs nothing.
    Placeholders (`<track>`, `NN`, `...`) are skipped.

 7. Starters tables. The table of what each untouched starter fails, which tests/check-grading
    --starters --write-readmes writes into a track README between its starters-table markers
    from a grading run, names test cases: every one it names (the race's with the speed it
    measured after it, a sanitizer's after "under compute-sanitizer TOOL: ") is a TEST_CASE of
    that step's grading test, tests/<track>/test_NN_*.cpp. A test case renamed or removed since
    the run leaves a row that no grading would print: run the grading again
    (`tests/check-grading --starters --write-readmes --suite TRACK` on a GPU).

 8. Links. Every relative markdown link and image of the texts rule 6 reads (outside code) names
    a file or folder of the course, and an anchor after it (`NOTES.md#the-square-root`, or
    `#grading` in the same text) names a heading of that markdown file, as GitHub makes its
    anchors (lower case, punctuation but `-` and `_` dropped, spaces to `-`, `-1`, `-2` after a
    repeated heading). A folder with an anchor (`02_coalesced/#...`) names its README.md instead:
    only GitHub's folder page shows the README there. So a renamed file or heading leaves no link
    that leads nowhere.

 9. Every step in its track README. The table of the track README's Grading section (before the
    starters table) has a row for each step (`| NN |`): what its test checks without a clock.

And for the build: the track table (lessons/meson.build) and each track's list of steps
(lessons/<track>/meson.build) name exactly the tracks and lesson folders there are, each step
with its solution and its grading test.

Prints one line per lesson, "<track> <folder>: ...", FAIL lines with file:line and the reason,
and last "N passed, M failed" (one per lesson). Exit status 1 when anything failed.
Python 3 standard library only.
"""
import difflib
import os
import re
import shlex
import sys

CODE_LINES = 3   # code lines after a TODO block that the TODO may describe (rule 3d)
LESSON_README_LINES = 150   # rule 4
TRACK_README_LINES = 250

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


# ---------------------------------------------------------------- kernels

def strip_comments(text):
    """The text with // and /* */ comments and string literals blanked, newlines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


KERNEL = re.compile(r"\b__global__\s+(?:(?:void|static|inline|__noinline__|__forceinline__|"
                    r"__launch_bounds__\s*\([^)]*\))\s+)*(\w+)\s*\(")


def kernels(path):
    """[(name, line)] of the __global__ functions defined or declared in a file, in order."""
    code = strip_comments(read(path))
    found, seen = [], set()
    for m in KERNEL.finditer(code):
        if m.group(1) not in seen:
            seen.add(m.group(1))
            found.append((m.group(1), code.count("\n", 0, m.start(1)) + 1))
    return found


# ---------------------------------------------------------------- regexes

REGEX = re.compile(r"""regex:(?:'([^']*)'|"([^"]*)"|([^\s`'"]+))""")


def track_texts(track):
    """The track's texts that may hold ncu commands: its README and its appendix, NOTES.md."""
    return [t for t in ("lessons/%s/README.md" % track, "lessons/%s/NOTES.md" % track)
            if os.path.exists(os.path.join(ROOT, t))]


def regexes(path):
    """[(pattern, line)] of every regex:PATTERN in a text file."""
    found = []
    for number, line in enumerate(read(path).split("\n"), 1):
        for m in REGEX.finditer(line):
            found.append((next(g for g in m.groups() if g is not None), number))
    return found


def steps_matched(pattern, step_kernels):
    """The steps (numbers) with a kernel name that the pattern matches; None if it is no regex."""
    try:
        rx = re.compile(pattern)
    except re.error:
        return None
    return [number for number, names in step_kernels if any(rx.search(name) for name in names)]


def gpu_check_regexes():
    """[(track, pattern, line)] of the kernel regexes .ci/gpu-check profiles."""
    path = ".ci/gpu-check"
    if not os.path.exists(os.path.join(ROOT, path)):
        return path, []
    raw = read(path).split("\n")
    logical, start, acc = [], None, ""
    for number, line in enumerate(raw, 1):
        if start is None:
            start = number
        if line.rstrip().endswith("\\"):
            acc += line.rstrip()[:-1] + " "
            continue
        logical.append((start, acc + line))
        start, acc = None, ""
    found = []
    for number, line in logical:
        words = line.strip()
        if words.startswith("profile "):   # a call; the definition reads "profile() {"
            args = shlex.split(words, comments=True)
            patterns = []
            for arg in args[4:]:
                if arg in ("||", "&&", ";", "return"):
                    break
                patterns.append(arg)
            found += [(args[1], p, number) for p in patterns]
        m = re.match(r"for kernel in ([^;]+); do", words)
        if m and "$" not in m.group(1):   # a literal list, not the profile function's "$@"
            # The track is the course program's first argument in the loop's ncu command.
            following = " ".join(l for n, l in logical if n > number)
            track = re.search(r"course-ladders\"?\s+(\w+)", following)
            found += [(track.group(1) if track else "?", p, number) for p in m.group(1).split()]
    return path, found


# ---------------------------------------------------------------- drift

def strip_header(lines):
    """Index of the first line that is neither blank nor a // comment."""
    for i, line in enumerate(lines):
        s = line.strip()
        if s and not s.startswith("//"):
            return i
    return len(lines)


def paren_balance(code_line):
    return code_line.count("(") - code_line.count(")")


def logical_lines(text):
    """[(first file line, normalised text, is_comment)] as rule 3c says, header dropped."""
    raw = text.split("\n")
    code = strip_comments(text).split("\n")
    out, i = [], strip_header(raw)
    while i < len(raw):
        if not raw[i].strip():
            i += 1
            continue
        first, parts, depth = i, [raw[i].strip()], paren_balance(code[i])
        while depth > 0 and not code[i].rstrip().endswith(("{", "}", ";")) and i + 1 < len(raw):
            i += 1
            if raw[i].strip():
                parts.append(raw[i].strip())
            depth += paren_balance(code[i])
        joined = re.sub(r"\s+", " ", " ".join(parts))
        joined = re.sub(r"([(\[]) ", r"\1", joined)
        joined = re.sub(r" ([)\]])", r"\1", joined)
        out.append((first + 1, joined, raw[first].strip().startswith("//")))
        i += 1
    return out


def rename(text, old_kernels, new_kernels, prev_number, prev_name, number, name, solution_text):
    """Rule 3b: the previous solution, renamed to this step's kernel and launcher names."""
    for old, new in zip(old_kernels, new_kernels):
        text = re.sub(r"\b%s\b" % re.escape(old), new, text)
    defined = set(re.findall(r"\bstep%s_\w+" % number, solution_text))

    def launcher(m):
        rest = m.group(1)
        candidates = []
        if rest.startswith(prev_name):
            candidates.append("step%s_%s%s" % (number, name, rest[len(prev_name):]))
        candidates.append("step%s_%s" % (number, rest))
        for c in candidates:
            if c in defined:
                return c
        return m.group(0)

    return re.sub(r"\bstep%s_(\w+)" % prev_number, launcher, text)


TODO_ANY = re.compile(r"TODO\(step (\d+)\)")


def drift(starter_path, reference_path, reference_text, number, renamed):
    """Rule 3d: (hunks, problems), problems as 'file:line: reason'."""
    ref = logical_lines(reference_text)
    mine = logical_lines(read(starter_path))
    todo = "TODO(step %s)" % number
    # Which starter lines the TODO markers cover: each marker line, and the lines after it
    # through CODE_LINES lines of code (comment lines not counted).
    covered = [False] * len(mine)
    for k, line in enumerate(mine):
        if todo not in line[1]:
            continue
        covered[k] = True
        code, last = 0, k
        while last + 1 < len(mine) and code < CODE_LINES:
            last += 1
            covered[last] = True
            code += 0 if mine[last][2] else 1
    matcher = difflib.SequenceMatcher(None, [l[1] for l in ref], [l[1] for l in mine], autojunk=False)
    hunks, problems = 0, []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        hunks += 1
        if j2 > j1:
            ok = any(covered[j1:j2])
        else:
            ok = (j1 > 0 and covered[j1 - 1]) or (j1 < len(mine) and covered[j1])
        if ok:
            continue
        if j2 > j1:
            where = "%s:%d" % (starter_path, mine[j1][0])
            if i2 > i1:
                what = "`%s` differs from %s:%d%s: `%s`" % (mine[j1][1][:100], reference_path, ref[i1][0],
                                                          renamed, ref[i1][1][:100])
            else:
                what = "`%s` is not in %s" % (mine[j1][1][:100], reference_path)
        else:
            where = "%s:%d" % (starter_path, mine[j1][0] if j1 < len(mine) else mine[-1][0])
            what = "%d line(s) of %s%s are missing here, from line %d: `%s`" % (
                i2 - i1, reference_path, renamed, ref[i1][0], ref[i1][1][:100])
        problems.append("%s: %s; no %s marker covers it (a marker covers its own line and the lines "
                        "after it through %d lines of code)" % (where, what, todo, CODE_LINES))
    return hunks, problems


# ---------------------------------------------------------------- the lessons

def check_lists(track_steps):
    """The build's lists against the folders: the track table (lessons/meson.build) names every
    track that has lessons, and each track's list of steps (lessons/<track>/meson.build) names
    exactly its lesson folders, in order, each with a solution and a grading test."""
    problems = []
    table = read("lessons/meson.build")
    tabled = re.findall(r"\{'name':\s*'(\w+)'", table)
    for track in track_steps:
        if track not in tabled:
            problems.append("lessons/meson.build: track %s has lessons but no entry in the track table" % track)
    for track in tabled:
        listing = "lessons/%s/meson.build" % track
        if not os.path.exists(os.path.join(ROOT, listing)):
            problems.append("%s: missing: the track table names %s, which has no list of steps" % (listing, track))
            continue
        listed = re.findall(r"^\s*\['(\d\d_\w+)'", read(listing), re.M)
        folders = track_steps.get(track, [])
        if listed != folders:
            problems.append("%s: lists %s, but the folders of lessons/%s are %s" % (
                listing, ", ".join(listed) or "no step", track, ", ".join(folders) or "none"))
        for folder in listed:
            for path in ("solutions/%s/%s/kernel.cu" % (track, folder), "tests/%s/test_%s.cpp" % (track, folder)):
                if not os.path.exists(os.path.join(ROOT, path)):
                    problems.append("%s: step %s has no %s" % (listing, folder, path))
    return problems

MESSAGE_MACROS = re.compile(r"\b(?:(?:CHECK|REQUIRE|WARN)(?:_FALSE)?_MESSAGE|INFO|CAPTURE|MESSAGE|FAIL_CHECK|FAIL)\s*\(")


def macro_arguments(text, start):
    """The top-level arguments of the call whose "(" ends at `start`, strings and comments kept."""
    args, current, depth, i = [], "", 1, start
    while i < len(text) and depth:
        c = text[i]
        if c == '"' or c == "'":
            end = i + 1
            while end < len(text) and text[end] != c:
                end += 2 if text[end] == "\\" else 1
            current += text[i:end + 1]
            i = end + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 1:
            args.append(current)
            current = ""
        elif depth:
            current += c
        i += 1
    return args + [current]


# Rule 6: the `meson test` commands of the texts.
MESON_TEST_OPTIONS_WITH_VALUE = {"-C", "--setup", "--suite", "--no-suite", "--num-processes", "--repeat", "-t",
                                 "--timeout-multiplier", "--test-args", "--wrapper", "--logbase"}


def meson_build_files():
    """(path, text) of every meson.build of the course (not of build folders, subprojects or
    node_modules)."""
    found = []
    for folder, _, files in sorted(os.walk(ROOT)):
        rel = os.path.relpath(folder, ROOT)
        parts = rel.split(os.sep)
        if parts[0].startswith(("build", "subprojects", ".")) or "node_modules" in parts or "meson.build" not in files:
            continue
        found.append((os.path.join(rel, "meson.build"), read(os.path.join(rel, "meson.build"))))
    return found


def defined_tests(track_steps, builds):
    """The setups, suites and test names the build defines (rule 6), from its meson.build files."""
    setups = {"default"}
    names = set()
    for _, text in builds:
        setups |= set(re.findall(r"add_test_setup\(\s*'([^']+)'", text))
        names |= set(re.findall(r"\b(?:test|benchmark)\(\s*'([^']+)'", text))
    suites = {"grade", "solutions", "harness", "cpu", "gpu"}
    with_targets = set(re.findall(r"\{'name':\s*'(\w+)',\s*'targets':\s*true", read("lessons/meson.build")))
    for track, folders in track_steps.items():
        suites |= {track, track + "-solutions"}
        names.add(track + " ladder")  # the benchmarks (lessons/meson.build)
        if track in with_targets:
            names.add(track + " targets")
        for folder in folders:
            title = "%s %s %s" % (track, folder[:2], folder[3:])
            names |= {title, title + " memcheck", title + " racecheck", title + " (solution)"}
    return setups, suites, names


def outside_code_blocks(text):
    """A markdown text with its fenced code blocks blanked, each line kept in its place."""
    return re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def meson_test_commands(text):
    """(line, argument list) of every `meson test` command in a markdown text: in code blocks line
    by line, in inline code with its line breaks joined."""
    commands = []
    in_block = False
    for i, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_block = not in_block
            continue
        if in_block and "meson test" in line:
            commands.append((i, line.split("meson test", 1)[1].split(" #", 1)[0]))
    outside = outside_code_blocks(text)
    for m in re.finditer(r"`([^`]+)`", outside):
        if "meson test" in m.group(1):
            commands.append((outside.count("\n", 0, m.start()) + 1,
                             " ".join(m.group(1).split()).split("meson test", 1)[1]))
    return commands


def defined_programs(track_steps, builds):
    """The build's targets a text may name (rule 6): {target name} for `meson compile -C build
    NAME`, and {path under build/} for the programs and libraries it runs or reads."""
    targets, paths = set(), {"lessons/course-ladders", "tests/course-targets"}
    for build, text in builds:
        folder = os.path.dirname(build)
        targets |= set(re.findall(r"\b(?:run_target|alias_target|custom_target)\(\s*'([^']+)'", text))
        for name in re.findall(r"\bexecutable\(\s*'([^'+]+)'\s*,", text):
            targets.add(name)
            paths.add(os.path.normpath(os.path.join(folder, name)).replace(os.sep, "/"))
    for track, folders in track_steps.items():
        for folder in folders:
            step = "%s-%s" % (track, folder[:2])
            targets.add(step)
            paths |= {"lessons/" + step, "tests/grade-" + step, "tests/solution-" + step}
            paths |= {"lessons/lib%s-%s.a" % (step, kind) for kind in ("lesson", "solution", "reference")}
    return targets, paths


def course_texts():
    """The markdown texts rule 6 reads."""
    texts = ["README.md", "CONTRIBUTING.md", "slides/data/README.md"]
    texts += sorted("slides/" + f for f in os.listdir(os.path.join(ROOT, "slides")) if f.endswith(".md"))
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, "lessons"))):
        texts += sorted(os.path.relpath(os.path.join(folder, f), ROOT) for f in files if f.endswith(".md"))
    return [t for t in texts if os.path.exists(os.path.join(ROOT, t))]


# Rule 8: the texts' links.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def prose(text):
    """A markdown text outside code: fenced blocks and inline code spans blanked, each line and
    column kept in its place."""
    return re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), outside_code_blocks(text))


def heading_anchors(path):
    """The anchors GitHub gives the headings of a markdown file."""
    anchors, seen = set(), {}
    for line in prose(read(path)).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1)).strip().lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else "%s-%d" % (slug, count))
    return anchors


def check_links(texts):
    """Rule 8. Returns (problems, links checked)."""
    problems, checked, cache = [], 0, {}
    for rel in texts:
        text = prose(read(rel))  # a link's text may wrap across lines
        for m in LINK.finditer(text):
            number = text.count("\n", 0, m.start()) + 1
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # https:, mailto:
            checked += 1
            path, _, anchor = target.partition("#")
            where = "%s:%d: the link %s" % (rel, number, target)
            resolved = os.path.normpath(os.path.join(os.path.dirname(rel), path)) if path else rel
            full = os.path.join(ROOT, resolved)
            if resolved.startswith("..") or not os.path.exists(full):
                problems.append("%s names %s, which is no file or folder of the course (rule 8)" % (where, resolved))
                continue
            if not anchor:
                continue
            if os.path.isdir(full):
                problems.append("%s names a folder with an anchor: name its README.md (%s/README.md#%s), as "
                                "only GitHub's folder page shows it (rule 8)" % (where, path.rstrip("/"), anchor))
            elif resolved.endswith(".md"):
                if resolved not in cache:
                    cache[resolved] = heading_anchors(resolved)
                if anchor not in cache[resolved]:
                    problems.append("%s: %s has no heading whose anchor is #%s (rule 8)" % (where, resolved, anchor))
    return problems, checked


def check_test_commands(track_steps):
    """Rule 6: every `meson test` command of the texts names setups, suites and tests that exist,
    and every `meson compile -C build TARGET` and build/lessons/..., build/tests/... program the
    texts name is one the build makes. Returns (problems, (test commands, build names))."""
    builds = meson_build_files()
    setups, suites, names = defined_tests(track_steps, builds)
    targets, paths = defined_programs(track_steps, builds)
    problems, count, build_count = [], 0, 0
    for path in course_texts():
        text = read(path)
        for line, rest in meson_test_commands(text):
            try:
                words = shlex.split(rest)
            except ValueError:
                words = rest.split()
            count += 1
            i = 0
            while i < len(words):
                word = words[i]
                if word in MESON_TEST_OPTIONS_WITH_VALUE:
                    value = words[i + 1] if i + 1 < len(words) else ""
                    i += 2
                    if "<" in value or "..." in value or not value:
                        continue
                    if word == "--setup" and value not in setups:
                        problems.append("%s:%d: meson test --setup %s: no such test setup (%s)" % (
                            path, line, value, ", ".join(sorted(setups))))
                    elif word in ("--suite", "--no-suite") and value not in suites:
                        problems.append("%s:%d: meson test %s %s: no test is in that suite" % (path, line, word, value))
                    continue
                i += 1
                if word.startswith("-") or "<" in word or "..." in word:
                    continue
                if word not in names:
                    problems.append("%s:%d: meson test \"%s\": no test of that name" % (path, line, word))
        for i, line in enumerate(text.splitlines(), 1):
            for target in re.findall(r"meson compile -C build ([\w.-]+)", line):
                build_count += 1
                if target not in targets and "NN" not in target:
                    problems.append("%s:%d: meson compile -C build %s: no such target" % (path, i, target))
            for program in re.findall(r"(?<![\w/.-])build/((?:lessons|tests)/[\w./-]*[\w])", line):
                build_count += 1
                if program not in paths and "NN" not in program:
                    problems.append("%s:%d: build/%s: the build makes no such program or library" % (
                        path, i, program))
    return problems, (count, build_count)


# A doctest test case's name: one or more adjacent string literals, then ")" or a
# decorator (`TEST_CASE("name" * doctest::skip())`).
TEST_CASE = re.compile(r'TEST_CASE\(((?:\s*"(?:[^"\\]|\\.)*")+)\s*[)*]')
# A cell of a starters table that is no test case's name: what a sanitizer or
# the test program reported beside them (tests/check-grading, starter_tables).
STARTER_NOTE = re.compile(r"^(?:nothing: |its test program ended|its (?:memcheck|racecheck) test \(|"
                          r"(?:memory errors|shared-memory races) under compute-sanitizer )")


def test_case_names(path):
    """The TEST_CASE names of a doctest source, adjacent string literals joined."""
    text = read(path)
    code = strip_comments(text)  # the same length: a TEST_CASE in a comment is blanked there
    names = set()
    for m in TEST_CASE.finditer(text):
        if code.startswith("TEST_CASE(", m.start()):
            names.add("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))).replace('\\"', '"'))
    return names


def check_starters_tables(track_steps):
    """Rule 7: each starters table's cells name test cases of their step's grading test."""
    problems, cells = [], 0
    for track in track_steps:
        readme = "lessons/%s/README.md" % track
        if not os.path.exists(os.path.join(ROOT, readme)):
            continue
        lines = read(readme).split("\n")
        inside = False
        for number, line in enumerate(lines, 1):
            if line.startswith("<!-- starters-table: begin"):
                inside = True
                continue
            if line.startswith("<!-- starters-table: end"):
                inside = False
            row = re.match(r"^\| (\d\d) \| (.*) \|$", line) if inside else None
            if not row:
                continue
            step = row.group(1)
            tests = [f for f in os.listdir(os.path.join(ROOT, "tests", track))
                     if re.match(r"^test_%s_\w+\.cpp$" % step, f)]
            if len(tests) != 1:
                problems.append("%s:%d: step %s of the starters table has %s grading test in tests/%s/ (rule 7)" % (
                    readme, number, step, "no" if not tests else "more than one", track))
                continue
            names = test_case_names(os.path.join("tests", track, tests[0]))
            # The table joins a row's cases with "; ": a case named with one would read as two.
            problems += ["tests/%s/%s: test case \"%s\" has \"; \" in its name, which the starters table uses "
                         "between cases (rule 7)" % (track, tests[0], n) for n in sorted(names) if "; " in n]
            for cell in row.group(2).replace("\\|", "|").split("; "):
                if STARTER_NOTE.match(cell):
                    continue
                case = re.sub(r"^under compute-sanitizer \w+: ", "", cell)
                case = re.sub(r" \((?:time|memory|time and memory)[^()]*(?:\([^()]*\)[^()]*)*\)$", "", case)
                cells += 1
                if case not in names:
                    problems.append("%s:%d: the starters table says step %s's starter fails \"%s\", which is no test "
                                    "case of tests/%s/%s: the table predates a change of that test; run "
                                    "tests/check-grading --starters --write-readmes --suite %s on a GPU (rule 7)" % (
                                        readme, number, step, case, track, tests[0], track))
    return problems, cells


def check_messages():
    """Rule 5: no top-level *, / or % in a doctest message's first argument, and no const char*
    (a variable the file declares, or a call of a function of tests/ that returns one)."""
    problems = []
    sources = {}  # path -> text of every C++ source under tests/
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, "tests"))):
        for file in sorted(files):
            if file.endswith((".cpp", ".h")):
                path = os.path.relpath(os.path.join(folder, file), ROOT)
                sources[path] = read(path)
    returning = set()
    for text in sources.values():
        returning |= set(re.findall(r"^\s*(?:inline\s+|static\s+)*const\s+char\s*\*\s*(\w+)\s*\(", text, re.M))
    for path, text in sources.items():
        # doctest prints a `const char*` variable as its address: a message or CAPTURE may not
        # name one that this file declares (a std::string prints its text)
        pointers = set(re.findall(r"\bconst\s+char\s*\*\s*(?:const\s+)?(\w+)", text))
        for match in MESSAGE_MACROS.finditer(text):
            args = macro_arguments(text, match.end())
            shown = args[1:] if "_MESSAGE" in match.group(0) else args  # the message's arguments
            first, line = shown[0], text.count("\n", 0, match.start()) + 1
            top, depth = "", 0
            for c in re.sub(r'"(?:\\.|[^"\\])*"', '""', first):
                depth += c in "([{"
                depth -= c in ")]}"
                top += c if depth == 0 and c not in ")]}" else ""
            for arg in (a.strip() for a in shown):
                call = re.match(r"^(?:\w+::)*(\w+)\s*\(", arg)
                if call and call.group(1) in returning:
                    problems.append("%s:%d: the message shows %s, whose function returns a const char*, which "
                                    "doctest prints as its address: return or wrap a std::string (rule 5)" % (path, line, arg))
                if arg in pointers:
                    problems.append("%s:%d: the message names %s, a const char* of this file, which doctest "
                                    "prints as its address: make it a std::string (rule 5)" % (path, line, arg))
            if re.search(r"[*/%]", top):
                problems.append("%s:%d: the message's first argument, %s, holds a top-level operator that "
                                "doctest's message builder takes for its own (it prints the operands one after "
                                "the other): put it in parentheses (rule 5)" % (path, line, " ".join(first.split())))
    return problems


def main():
    passed, failed, lines = 0, 0, []
    tracks = sorted(t for t in os.listdir(os.path.join(ROOT, "lessons"))
                    if os.path.isdir(os.path.join(ROOT, "lessons", t)))
    track_steps = {}
    for track in tracks:
        folders = sorted(f for f in os.listdir(os.path.join(ROOT, "lessons", track))
                         if re.match(r"\d\d_\w+$", f) and os.path.isdir(os.path.join(ROOT, "lessons", track, f)))
        if folders:
            track_steps[track] = folders
    gpu_path, gpu_regexes = gpu_check_regexes()
    track_problems = []

    for track, folders in track_steps.items():
        solution_kernels = []   # [(number, [names])] in step order
        for folder in folders:
            path = "solutions/%s/%s/kernel.cu" % (track, folder)
            names = [n for n, _ in kernels(path)] if os.path.exists(os.path.join(ROOT, path)) else []
            solution_kernels.append((folder[:2], names))

        # A kernel name that contains another step's (vector_add_float4, vector_add): an unanchored
        # regex of the shorter name matches both steps, so every regex of it must be anchored.
        contains = ["%s (step %s) contains %s (step %s)" % (a, na, b, nb)
                    for na, names_a in solution_kernels for a in names_a
                    for nb, names_b in solution_kernels for b in names_b if na != nb and b in a and a != b]
        hint = ("; %s: anchor the pattern (^name$) or give the newer kernel a name of its own"
                % ", ".join(contains)) if contains else ""
        if any(names for _, names in solution_kernels) and not any(t == track for t, _, _ in gpu_regexes):
            track_problems.append("%s: no `profile %s SIZE METRICS REGEX...` line in its ncu section (nor a `for kernel in "
                                  "...` list): every track with kernels has one (CONTRIBUTING.md, adding a track)" % (gpu_path, track))

        # Regexes of the track README, of its appendix (NOTES.md) and of .ci/gpu-check.
        for track_readme in track_texts(track):
            for pattern, line in regexes(track_readme):
                hit = steps_matched(pattern, solution_kernels)
                if hit is None or len(hit) != 1:
                    track_problems.append("%s:%d: regex:%s %s" % (
                        track_readme, line, pattern, "is not a valid regex" if hit is None else
                        "matches no kernel of the %s track" % track if not hit else
                        "matches kernels of steps %s: ncu would profile whichever launches first%s"
                        % (", ".join(hit), hint)))
        for rx_track, pattern, line in gpu_regexes:
            if rx_track != track:
                continue
            hit = steps_matched(pattern, solution_kernels)
            if hit is None or len(hit) != 1:
                track_problems.append("%s:%d: %s regex %s %s" % (
                    gpu_path, line, track, pattern, "is not a valid regex" if hit is None else
                    "matches no solution kernel of the track" if not hit else
                    "matches kernels of steps %s%s" % (", ".join(hit), hint)))

        for index, folder in enumerate(folders):
            number, name = folder[:2], folder[3:]
            lesson = "lessons/%s/%s" % (track, folder)
            starter = lesson + "/kernel.cu"
            solution = "solutions/%s/%s/kernel.cu" % (track, folder)
            problems, notes = [], []
            if not os.path.exists(os.path.join(ROOT, solution)):
                problems.append("%s: missing (the lesson's reference solution)" % solution)
            if not os.path.exists(os.path.join(ROOT, starter)):
                problems.append("%s: missing (the lesson's starter)" % starter)
            if problems:
                failed += 1
                lines += ["FAIL %s %s: %s" % (track, folder, p) for p in problems]
                continue

            # 1. kernel names
            mine = kernels(starter)
            theirs = solution_kernels[index][1]
            earlier = {n: num for num, names in solution_kernels[:index] for n in names}
            if not mine and theirs:
                problems.append("%s: no __global__ kernel found" % starter)
            for kernel, line in mine:
                if kernel in theirs:
                    continue
                why = ("the name of step %s's kernel: the lesson program links step %s's solution, so "
                       "ncu -k would profile that instead" % (earlier[kernel], earlier[kernel])) if kernel in earlier \
                    else "not a kernel of this step's solution"
                problems.append("%s:%d: kernel %s is %s; this step's solution names its kernels %s" % (
                    starter, line, kernel, why, ", ".join(theirs) or "(none)"))
            for kernel in theirs:
                if kernel not in [n for n, _ in mine]:
                    problems.append("%s: has no kernel %s, which %s defines (name the student's kernel "
                                    "as the solution does)" % (starter, kernel, solution))
            notes.append("kernels " + ", ".join(n for n, _ in mine))

            # 2. regexes of the lesson README
            readme = lesson + "/README.md"
            readme_exists = os.path.exists(os.path.join(ROOT, readme))
            if not readme_exists:
                problems.append("%s: missing (the lesson's text)" % readme)
            readme_lines = read(readme).count("\n") if readme_exists else 0
            if readme_lines > LESSON_README_LINES:
                problems.append("%s: %d lines, more than the %d a lesson README may have (rule 4: move tables to "
                                "the track README or MEASURED.md, analyses to NOTES.md)" % (
                                    readme, readme_lines, LESSON_README_LINES))
            rx = regexes(readme) if os.path.exists(os.path.join(ROOT, readme)) else []
            own = 0
            for pattern, line in rx:
                hit = steps_matched(pattern, solution_kernels)
                if hit is None:
                    problems.append("%s:%d: regex:%s is not a valid regex" % (readme, line, pattern))
                elif not hit:
                    problems.append("%s:%d: regex:%s matches no kernel of the %s track" % (readme, line, pattern, track))
                elif len(hit) > 1:
                    problems.append("%s:%d: regex:%s matches kernels of steps %s: ncu would profile whichever "
                                    "launches first%s" % (readme, line, pattern, ", ".join(hit), hint))
                elif hit[0] > number:
                    problems.append("%s:%d: regex:%s matches only step %s's kernel, a later step than this "
                                    "lesson's" % (readme, line, pattern, hit[0]))
                elif hit[0] == number:
                    own += 1
            if theirs and not rx:
                problems.append("%s: no `-k regex:` for this step's kernel (%s): its Nsight Compute command must "
                                "profile it (rule 2)" % (readme, ", ".join(theirs)))
            if rx and not own:
                problems.append("%s: none of its %d regexes matches this step's kernel (%s); they match only "
                                "earlier steps' kernels" % (readme, len(rx), ", ".join(theirs)))
            notes.append("%d regex%s" % (len(rx), "" if len(rx) == 1 else "es"))
            # The program an ncu command profiles must be this lesson's own (it
            # runs the student's kernel); course-ladders or another lesson's
            # program would profile a reference solution instead.
            if os.path.exists(os.path.join(ROOT, readme)):
                own_program = "build/lessons/%s-%s" % (track, number)
                for i, text in enumerate(read(readme).splitlines(), 1):
                    if "ncu " not in text and not (i > 1 and "-k regex:" in text):
                        continue
                    for program in re.findall(r"build/lessons/[\w-]+", text):
                        if program != own_program:
                            problems.append("%s:%d: the Nsight Compute command runs %s, not %s: it would "
                                            "profile a reference solution, not the student's kernel"
                                            % (readme, i, program, own_program))

            # 3. drift
            starter_text = read(starter)
            stale = sorted({m for m in TODO_ANY.findall(starter_text) if m != number})
            if stale:
                problems.append("%s: markers of another step: %s" % (
                    starter, ", ".join("TODO(step %s)" % s for s in stale)))
            if "TODO(step %s)" % number not in starter_text:
                problems.append("%s: no TODO(step %s) marker: nothing for the student to do" % (starter, number))
            if index == 0:
                reference, reference_text = solution, read(solution)
                label = "solution %s less the student's code" % number
            else:
                prev = folders[index - 1]
                reference = "solutions/%s/%s/kernel.cu" % (track, prev)
                reference_text = rename(read(reference), solution_kernels[index - 1][1], theirs,
                                        prev[:2], prev[3:], number, name, read(solution))
                label = "solution %s" % prev[:2]
            hunks, drifts = drift(starter, reference, reference_text, number,
                                  "" if index == 0 else " (renamed to this step's names)")
            problems += drifts
            notes.append("starter = %s + %d TODO hunk%s" % (label, hunks, "" if hunks == 1 else "s"))

            if problems:
                failed += 1
                lines += ["FAIL %s %s: %s" % (track, folder, p) for p in problems]
            else:
                passed += 1
                lines.append("%s %s: %s" % (track, folder, "; ".join(notes)))

    for line in lines:
        print(line)
    gpu_count = len(gpu_regexes)
    if not gpu_regexes:
        track_problems.append("%s: no kernel regexes found to check (profile calls, for kernel in lists)" % gpu_path)
    for rx_track, pattern, line in gpu_regexes:
        if rx_track not in track_steps:
            track_problems.append("%s:%d: regex %s profiles track %s, which has no lessons" % (
                gpu_path, line, pattern, rx_track))
    for track in track_steps:
        readme = "lessons/%s/README.md" % track
        if os.path.exists(os.path.join(ROOT, readme)):
            text = read(readme)
            count = text.count("\n")
            if count > TRACK_README_LINES:
                track_problems.append("%s: %d lines, more than the %d a track README may have (rule 4)" % (
                    readme, count, TRACK_README_LINES))
            # 9. every step has its row in the track README's grading table
            grading = text[text.find("\n## Grading\n"):] if "\n## Grading\n" in text else ""
            grading = grading.split("<!-- starters-table: begin")[0]
            for folder in track_steps[track]:
                if not re.search(r"^\| *%s *\|" % folder[:2], grading, re.M):
                    track_problems.append("%s: the Grading section's table has no row for step %s: what its test "
                                          "checks without a clock (rule 9)" % (readme, folder[:2]))
    list_problems = check_lists(track_steps)
    track_problems += list_problems
    message_problems = check_messages()
    track_problems += message_problems
    command_problems, commands = check_test_commands(track_steps)
    track_problems += command_problems
    starter_problems, starter_cells = check_starters_tables(track_steps)
    track_problems += starter_problems
    link_problems, links = check_links(course_texts())
    track_problems += link_problems
    for p in track_problems:
        print("FAIL " + p)
    if not list_problems:
        print("lessons/meson.build and each track's list of steps: %d tracks, %d steps, each with its lesson, "
              "solution and test" % (len(track_steps), sum(len(f) for f in track_steps.values())))
    if not message_problems:
        print("grading messages: no first argument that doctest's builder would split, no const char* it would "
              "print as an address (rule 5)")
    if not command_problems:
        print("texts: %d meson test commands, each naming setups, suites and tests the build defines, and %d "
              "build targets and programs, each one the build makes (rule 6)" % commands)
    if not link_problems:
        print("links: %d relative links and images of the texts, each to a file or folder of the course, each "
              "anchor to a heading of its file (rule 8)" % links)
    if not starter_problems:
        print("starters tables: %d test cases named, each one its step's grading test defines (rule 7)" % starter_cells)
    if not track_problems:
        print("track READMEs and %s: %d kernel regexes, each matches one step's kernel" % (
            gpu_path, gpu_count + sum(len(regexes(text)) for t in track_steps for text in track_texts(t))))
    print("%d passed, %d failed%s" % (passed, failed, "; %d problem(s) in track READMEs, texts or %s" % (
        len(track_problems), gpu_path) if track_problems else ""))
    return 1 if failed or track_problems else 0


if __name__ == "__main__":
    sys.exit(main())
