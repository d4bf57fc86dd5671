#!/usr/bin/env python3
"""The decks: every slides/<track>.md (the folder's top level only; slides/data/
holds reports, not decks), rendered with the Marp CLI.

  decks.py build SLIDES_DIR OUT_DIR   each deck as OUT_DIR/<track>.html and
                                      <track>.pdf, with the files the decks show
                                      (`meson compile -C build slides`)
  decks.py fit SLIDES_DIR             every slide of every deck fits its
                                      1280x720 box, measured in headless Chromium,
                                      after the measure has caught its plants

Marp and the browser driver are the npm packages of slides/package.json,
installed with `npm ci --prefix slides` from the top of the course; `build`
also takes a `marp` on the PATH (npm install -g @marp-team/marp-cli). Both are
looked for when they run, so installing them after `meson setup` is enough.
Chromium is Debian's `chromium` (or CHROME_PATH). `fit` exits 77 (skipped)
when one of them is missing.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

INSTALL = "apt-get install -y chromium nodejs npm && npm ci --prefix slides"
SKIPPED = 77  # Meson's exit code for a skipped test

# A local file a deck shows: ![alt](path) or <img src="path">.
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*([^)\s]+)|<img\b[^>]*\bsrc=\"([^\"]+)\"")


def decks(slides):
    return sorted(glob.glob(os.path.join(slides, "*.md")))


def chromium():
    for candidate in [os.environ.get("CHROME_PATH"), "chromium", "chromium-browser",
                      "google-chrome", "google-chrome-stable"]:
        found = candidate and shutil.which(candidate)
        if found:
            return found
    return None


def marp(slides):
    local = os.path.join(slides, "node_modules", ".bin", "marp")
    return local if os.access(local, os.X_OK) else shutil.which("marp")


def shown_files(deck):
    """The relative paths of the local files that the deck shows."""
    with open(deck, encoding="utf-8") as f:
        text = f.read()
    paths = []
    for match in IMAGE.finditer(text):
        path = match.group(1) or match.group(2)
        if not re.match(r"^[a-z]+:", path) and not path.startswith("/") and path not in paths:
            paths.append(path)
    return paths


def build(slides, out):
    tool = marp(slides)
    if tool is None:
        print("slides: the Marp CLI is not installed. From the top of the course run "
              "`npm ci --prefix slides` (or npm install -g @marp-team/marp-cli), "
              "then this command again.", file=sys.stderr)
        sys.exit(1)
    browser = chromium()
    browser_args = ["--browser-path", browser] if browser else []
    os.makedirs(out, exist_ok=True)
    for deck in decks(slides):
        # The HTML shows the deck's images by their relative paths: copy them
        # beside it, so that the folder can be moved to the presenting machine.
        for path in shown_files(deck):
            source = os.path.join(slides, path)
            if not os.path.isfile(source):
                print(f"slides: {os.path.basename(deck)} shows {path}, which does not exist", file=sys.stderr)
                sys.exit(1)
            os.makedirs(os.path.dirname(os.path.join(out, path)) or out, exist_ok=True)
            shutil.copyfile(source, os.path.join(out, path))
        name = os.path.splitext(os.path.basename(deck))[0]
        for kind in ["html", "pdf"]:
            target = os.path.join(out, name + "." + kind)
            command = [tool, "--no-config-file", "--html", "--allow-local-files", deck, "-o", target]
            if kind == "pdf":
                command += ["--pdf"] + browser_args
            result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if result.returncode != 0:
                print(result.stderr, file=sys.stderr, end="")
                print(f"slides: Marp failed on {os.path.basename(deck)} ({kind})", file=sys.stderr)
                sys.exit(1)
            print(f"slides: {target}")


def fit(slides):
    node = shutil.which("node") or shutil.which("nodejs")
    browser = chromium()
    packages = all(os.path.isdir(os.path.join(slides, "node_modules", p))
                   for p in ["@marp-team/marp-cli", "puppeteer-core"])
    missing = [what for what, ok in [("Node.js", node), ("Chromium", browser),
                                     ("the npm packages of slides/package.json", packages)] if not ok]
    if missing:
        print(f"decks: skipped, missing {' and '.join(missing)}; to run it: {INSTALL}")
        sys.exit(SKIPPED)
    if not catches_plants(node, browser, slides):
        sys.exit(1)
    sys.exit(subprocess.run([node, os.path.join(slides, "fit.js"), browser] + decks(slides)).returncode)


# A deck of faults fit.js must find, slide by slide, and one slide it must
# pass: a check that finds nothing would pass every deck.
PLANTS = """---
marp: true
theme: default
style: |
  section { font-size: 26px; padding: 48px 64px; }
---

# A chart shown too small to read

![h:400](charts/plant.png)

---

# A code line too long: Marp shrinks it

```
{long_line}
```

---

# A list past the bottom

{long_list}

---

# A chart shown large enough

![h:560](charts/plant.png)
"""
PLANTED = {1, 2, 3}  # the slides that must fail


def catches_plants(node, browser, slides):
    charts = sorted(glob.glob(os.path.join(slides, "charts", "*", "*.png")))
    if not charts:
        print("decks: no chart under slides/charts/ to plant (meson compile -C build charts-update)")
        return False
    with tempfile.TemporaryDirectory() as scratch:
        os.mkdir(os.path.join(scratch, "charts"))
        shutil.copy(charts[0], os.path.join(scratch, "charts", "plant.png"))
        deck = os.path.join(scratch, "plants.md")
        with open(deck, "w", encoding="utf-8") as f:
            f.write(PLANTS.replace("{long_line}", "x = " + " + ".join(["value"] * 40))
                    .replace("{long_list}", "\n".join(f"- item {i}" for i in range(30))))
        run = subprocess.run([node, os.path.join(slides, "fit.js"), browser, deck], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    flagged = {int(n) for n in re.findall(r"^  slide (\d+) ", run.stdout, re.M)}
    if run.returncode != 1 or flagged != PLANTED:
        print(run.stdout)
        print(f"decks: the fit check flagged slides {sorted(flagged)} of its plants (exit {run.returncode}); "
              f"it must flag exactly {sorted(PLANTED)} and exit 1")
        return False
    print(f"decks: the fit check flags its {len(PLANTED)} planted slides and passes the good one")
    return True


def main(args):
    if len(args) == 3 and args[0] == "build":
        build(args[1], args[2])
    elif len(args) == 2 and args[0] == "fit":
        fit(args[1])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
