#!/usr/bin/env python3
"""The decks: every slides/<track>.md (the folder's top level only; slides/data/
holds reports, not decks), rendered with the Marp CLI.

  decks.py build SLIDES_DIR OUT_DIR   each deck as OUT_DIR/<track>.html and
                                      <track>.pdf, with the files the decks show
                                      (`meson compile -C build slides`)
  decks.py fit SLIDES_DIR             every slide of every deck fits its
                                      1280x720 box, measured in headless Chromium

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
    sys.exit(subprocess.run([node, os.path.join(slides, "fit.js"), browser] + decks(slides)).returncode)


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
