#!/usr/bin/env node
// Every slide fits: renders each deck with the Marp CLI and measures, in
// headless Chromium, every slide's content against its 1280x720 box.
//
//   node fit.js CHROMIUM DECK.md...
//
// Run by `slides/decks.py fit`, which finds Chromium and the npm packages
// first. A slide fails when an element, a line of text or an image reaches past
// the slide's edges (the projector cuts it off), when an element clips its own
// content (a table or code block that would need a scroll bar), when an image
// does not load, or when text is smaller than MIN_TEXT_PX (Marp shrinks a code
// block too wide for the slide until it fits: it fits, and nobody can read it),
// the text inside a course chart (slides/charts/) included: its smallest text
// is CHART_TEXT_PX at the chart's own size (slides/plot.py), so a chart shown
// smaller than MIN_TEXT_PX / CHART_TEXT_PX of it shows text nobody can read.
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { pathToFileURL } = require("url");
const puppeteer = require("puppeteer-core");

const WIDTH = 1280;
const HEIGHT = 720;
const MIN_TEXT_PX = 16;
const CHART_TEXT_PX = 16 * 100 / 72;  // plot.py: TEXT_PT 16 at 100 dpi, 22.2 px in a 1280x720 chart
const MARP = require.resolve("@marp-team/marp-cli/marp-cli.js");

// The deck as HTML, the way `meson compile -C build slides` writes it, but
// with the "bare" template, which shows every slide at once (the presenting
// template shows one at a time). A <base> makes the deck's relative image
// paths resolve in the source folder.
function render(deck, scratch) {
  const out = path.join(scratch, path.basename(deck, ".md") + ".html");
  execFileSync(process.execPath, [MARP, "--no-config-file", "--html", "--template", "bare", deck, "-o", out],
               { stdio: ["ignore", "ignore", "pipe"] });
  const base = `<base href="${pathToFileURL(path.dirname(path.resolve(deck))).href}/">`;
  fs.writeFileSync(out, fs.readFileSync(out, "utf8").replace("<head>", "<head>" + base));
  return out;
}

// Runs in the page: one entry per slide, with what does not fit.
function measure(minText, chartText) {
  const slack = 1;  // px: sub-pixel rounding
  const describe = (el) => {
    const text = (el.textContent || el.getAttribute("src") || el.getAttribute("alt") || "").replace(/\s+/g, " ").trim();
    return `<${el.tagName.toLowerCase()}> "${text.length > 50 ? text.slice(0, 47) + "..." : text}"`;
  };
  const past = (r, box) => {
    const sides = [];
    if (r.right > box.right + slack) sides.push(`${Math.round(r.right - box.right)} px past the right edge`);
    if (r.bottom > box.bottom + slack) sides.push(`${Math.round(r.bottom - box.bottom)} px below the bottom`);
    if (r.left < box.left - slack) sides.push(`${Math.round(box.left - r.left)} px past the left edge`);
    if (r.top < box.top - slack) sides.push(`${Math.round(box.top - r.top)} px above the top`);
    return sides;
  };
  const slides = [];
  for (const section of document.querySelectorAll("svg[data-marpit-svg] > foreignObject > section")) {
    const box = section.getBoundingClientRect();
    const problems = [];
    // Depth first; past an element that does not fit, its contents are not
    // reported again.
    const walker = document.createTreeWalker(section, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    const skipChildren = () => {
      let next = walker.currentNode;
      while (next && next !== section && !walker.nextSibling()) next = walker.parentNode();
      return next && next !== section ? walker.currentNode : null;
    };
    for (let node = walker.nextNode(); node;) {
      if (node.nodeType === Node.TEXT_NODE) {
        const parent = node.parentElement;
        const parentBox = parent.getBoundingClientRect();
        const shown = parseFloat(getComputedStyle(parent).fontSize) *
                      (parent.offsetWidth ? parentBox.width / parent.offsetWidth : 1);
        if (node.textContent.trim() && shown < minText - 0.05) {
          problems.push(`text in ${describe(parent)}: ${shown.toFixed(1)} px type, smaller than ${minText} px`);
        }
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of node.textContent.trim() ? range.getClientRects() : []) {
          const sides = past(r, box);
          if (sides.length) {
            problems.push(`text in ${describe(node.parentElement)}: ${sides.join(", ")}`);
            break;
          }
        }
        node = walker.nextNode();
        continue;
      }
      const style = getComputedStyle(node);
      if (style.display === "none" || style.visibility === "hidden") {
        node = skipChildren();
        continue;
      }
      const found = [];
      const r = node.getBoundingClientRect();
      const sides = r.width === 0 && r.height === 0 ? [] : past(r, box);
      if (sides.length) found.push(`${describe(node)}: ${sides.join(", ")}`);
      const clips = (o) => o !== "visible";
      if ((clips(style.overflowX) && node.scrollWidth > node.clientWidth + slack) ||
          (clips(style.overflowY) && node.scrollHeight > node.clientHeight + slack)) {
        found.push(`${describe(node)} clips its content (${node.scrollWidth}x${node.scrollHeight} px in a ` +
                   `${node.clientWidth}x${node.clientHeight} px box)`);
      }
      if (node.tagName === "IMG" && !(node.complete && node.naturalWidth > 0)) {
        found.push(`${describe(node)}: the image does not load`);
      } else if (node.tagName === "IMG" && /(^|\/)charts\//.test(node.getAttribute("src") || "")) {
        const shown = chartText * r.height / node.naturalHeight;
        if (shown < minText - 0.05) {
          found.push(`${describe(node)}: a chart shown ${Math.round(r.width)}x${Math.round(r.height)} px, so its ` +
                     `smallest text is ${shown.toFixed(1)} px, smaller than ${minText} px`);
        }
      }
      problems.push(...found);
      node = found.length ? skipChildren() : walker.nextNode();
    }
    const heading = section.querySelector("h1, h2, h3");
    slides.push({ title: heading ? heading.textContent.trim() : "", problems });
  }
  return slides;
}

async function main() {
  const [chromium, ...decks] = process.argv.slice(2);
  if (!chromium || decks.length === 0) {
    console.error("usage: node fit.js CHROMIUM DECK.md...");
    process.exit(2);
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "course-decks-"));
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    // As root (CI, containers) Chromium refuses to start with its sandbox.
    args: root ? ["--no-sandbox"] : [],
  });
  let slidesCount = 0;
  let overflowing = 0;
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: WIDTH, height: HEIGHT });
    for (const deck of decks) {
      const html = render(deck, scratch);
      await page.goto(pathToFileURL(html).href, { waitUntil: "networkidle0" });
      await page.evaluate(() => document.fonts.ready);
      const slides = await page.evaluate(measure, MIN_TEXT_PX, CHART_TEXT_PX);
      const bad = slides.filter((s) => s.problems.length);
      slidesCount += slides.length;
      overflowing += bad.length;
      console.log(`${path.basename(deck)}: ${slides.length} slides, ${bad.length} overflowing`);
      slides.forEach((s, i) => {
        if (!s.problems.length) return;
        console.log(`  slide ${i + 1} "${s.title}":`);
        for (const p of s.problems.slice(0, 6)) console.log(`    ${p}`);
        if (s.problems.length > 6) console.log(`    ... and ${s.problems.length - 6} more`);
      });
    }
  } finally {
    await browser.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`${decks.length} decks, ${slidesCount} slides, ${overflowing} overflowing`);
  process.exit(overflowing ? 1 : 0);
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
