#!/usr/bin/env python3
"""Every theme's printed cover sheet at every trim each printer lists, checked by bookrender's own
PDF preflight as a print shop would check a cover it was sent.

    BOOKRENDER_BIN=path/to/bookrender python3 bench/cover-sheets.py [--jobs 2] [--title TITLE]

For each printer (kdp, lulu, ingramspark), each trim in its profile and each theme, a copy of a
sample (the storybook for picture-book themes, the memoir for memoir themes) is set to that trim
and theme, `bookrender cover --profile P` writes its sheet, and `bookrender preflight SHEET.pdf
--profile P --cover --pages N --trim WxH` checks it against the spine its interior makes.
`--title` gives every copy another title (a long one sets the picture-book themes' condensed face). Prints
how many sheets had errors and which; exits 1 when any did. The sheets stay in
bench/.work/cover-sheets/PRINTER/TRIM/THEME/sheet.pdf to be looked at.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", ".work", "cover-sheets")
SAMPLE = {"picture-book": "storybook", "bold-modern": "storybook", "bedtime": "storybook",
          "memoir": "memoir", "modern-photo": "memoir", "journal": "memoir"}


def sheet(binary, printer, trim, theme, title=None):
    folder = os.path.join(OUT, printer, trim, theme)
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "samples", SAMPLE[theme]), folder)
    path = os.path.join(folder, "book.json")
    with open(path) as f:
        book = json.load(f)
    book.setdefault("format", {})["trim"] = trim
    book["theme"] = theme
    if title:
        book["title"] = title
        if isinstance(book.get("cover"), dict):
            book["cover"]["title"] = title
    with open(path, "w") as f:
        json.dump(book, f)
    pdf = os.path.join(folder, "sheet.pdf")
    # --force: a sample's interior breaks page-count rules, which the sheet only warns of.
    made = subprocess.run([binary, "cover", path, "-o", pdf, "--profile", printer, "--force"], capture_output=True, text=True)
    pages = re.search(r"for (\d+) interior pages", made.stderr)
    if made.returncode != 0 or not pages:
        return [f"cover exit {made.returncode}: {made.stderr.strip()[-300:]}"]
    problems = [line for line in made.stderr.splitlines() if line.startswith("preflight error")]
    checked = subprocess.run([binary, "preflight", pdf, "--profile", printer, "--cover", "--pages", pages.group(1),
                              "--trim", trim, "--json"], capture_output=True, text=True)
    try:
        findings = json.loads(checked.stdout)["findings"]
    except (ValueError, KeyError):
        return problems + [f"preflight gave no report (exit {checked.returncode}): {checked.stderr.strip()[-200:]}"]
    return problems + [f"{f['code']}: {f['message']}" for f in findings if f["severity"] == "error"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--title", help="the title every copy is given instead of its sample's")
    args = ap.parse_args()
    binary = os.environ.get("BOOKRENDER_BIN") or os.path.join(ROOT, ".build-bench", "release", "bookrender")
    jobs = []
    for printer in ("kdp", "lulu", "ingramspark"):
        with open(os.path.join(ROOT, "templates", "profiles", printer + ".json")) as f:
            trims = json.load(f)["trims"]["sizes"]
        jobs += [(printer, trim, theme) for trim in trims for theme in SAMPLE]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda job: (job, sheet(binary, *job, title=args.title)), jobs))
    failed = [(job, problems) for job, problems in results if problems]
    print(f"{len(results)} sheets ({len(SAMPLE)} themes at every trim of kdp, lulu and ingramspark), {len(failed)} with errors")
    for (printer, trim, theme), problems in failed:
        print(f"  {printer} {trim} {theme}: " + "; ".join(problems)[:400])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
