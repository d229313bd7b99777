#!/usr/bin/env python3
"""Renders the benchmark corpus with bookrender, WeasyPrint and Typst and prints one table.

Run through bench/run.sh, which builds bookrender, makes the corpus and the virtual environment.
Environment: BOOKRENDER_BIN (the release binary), BENCH_RUNS (runs per measurement, default 3),
BENCH_ALSO (other builds of bookrender to compare, as space-separated NAME=PATH: each gets rows of
its own for the picture book and the memoir, its runs interleaved with the others'), BENCH_QUIET
(the share of the CPUs other processes may take during a run before it is run again, default 0.15;
1 turns the check off).
"""
import glob, json, os, platform, resource, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, ".work")
CORPUS = os.path.join(WORK, "corpus")
OUT = os.path.join(WORK, "out")
BIN = os.environ["BOOKRENDER_BIN"]
VENV = os.path.join(HERE, ".venv", "bin")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
ALSO = dict(item.split("=", 1) for item in os.environ.get("BENCH_ALSO", "").split())
# A run during which other processes took more than this share of the CPUs is run again.
QUIET = float(os.environ.get("BENCH_QUIET", "0.15"))
RETRIES = 20
NOISE = {"repeated": 0, "kept": 0}


def machine_busy():
    """CPU seconds all processors have spent on anything but idling, the hypervisor's steal included."""
    with open("/proc/stat") as f:
        user, nice, system, idle, iowait, irq, softirq, steal = map(int, f.readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(cmd, cwd=None, before=None, env=None):
    """Wall time (s), peak RSS (MiB) and the share of the machine other processes took meanwhile,
    of one run; `before` runs untimed first, then `sync`."""
    if before: before()
    # Untimed: what the previous run (or the previous tool) wrote reaches the disk first, so
    # its writeback is not charged to this run. Every tool gets the same.
    os.sync()
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        busy, ours = machine_busy(), children_cpu()
        start = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name] + cmd, cwd=cwd, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
        others = (machine_busy() - busy - (children_cpu() - ours)) / (wall * os.cpu_count())
        if p.returncode != 0:
            raise SystemExit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
        return wall, int(t.read().strip().splitlines()[-1]) / 1024, others


def measured_alone(job):
    """A run during which other processes took at most QUIET of the machine, tried up to
    RETRIES times (the last try is kept whatever it saw): on a shared machine a build starting
    elsewhere slows a tool that uses both cores more than one that uses one, which interleaving
    alone does not even out."""
    for attempt in range(RETRIES):
        wall, peak, others = run_once(*job)
        # /proc/stat counts in ticks of 10 ms: a few of them are no sign of anyone else.
        if others <= max(QUIET, 0.03 / (wall * os.cpu_count())):
            break
        if attempt == RETRIES - 1:
            NOISE["kept"] += 1
        else:
            NOISE["repeated"] += 1
            time.sleep(2)
    return wall, peak


def timed_together(jobs, runs=RUNS):
    """Median wall time (s) and median peak RSS (MiB) of each job, a (cmd, cwd, before[, env]) tuple.
    Each round runs every job once, the order turned by one each round: the runs of the things
    compared are interleaved, so a slow spell of a shared machine falls on all of them alike
    instead of on whichever ran during it."""
    walls, rss = [[] for _ in jobs], [[] for _ in jobs]
    for r in range(runs):
        order = list(range(len(jobs)))
        for i in order[r % len(jobs):] + order[:r % len(jobs)]:
            wall, peak = measured_alone(jobs[i])
            walls[i].append(wall)
            rss[i].append(peak)
    return [(statistics.median(w), statistics.median(m)) for w, m in zip(walls, rss)]


def timed(cmd, cwd=None, runs=RUNS, before=None):
    return timed_together([(cmd, cwd, before)], runs)[0]


def fresh(*paths):
    """A `before` that deletes the previous run's output, so that every run writes a new file.
    Replacing a file makes the file system free the old one's blocks (48 MB of pictures: about
    25 ms on this machine's ext4, mounted with discard), work of the disk, not of the tool."""
    def remove():
        for p in paths:
            if os.path.isdir(p):
                shutil.rmtree(p, ignore_errors=True)
            elif os.path.exists(p):
                os.remove(p)
    return remove


def pages(pdf):
    out = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    return int(next(l.split()[-1] for l in out.splitlines() if l.startswith("Pages:")))


# bookrender keeps what it learns of a picture (its analysis, its CMYK conversion) in the user's
# cache. Its rows name which cache a run had: "bookrender" and "ingramspark" the one earlier runs
# filled (a re-export), the "empty cache" rows a new empty one each run (a first export).
CACHE = os.path.join(WORK, "cache")
EMPTY_CACHE = os.path.join(WORK, "cache-empty")
VARIANTS = {
    "bookrender": ([], False),
    "bookrender, empty cache": ([], True),
    # --force: the picture book's 7.5 x 10 in is not among IngramSpark's trims, which changes
    # nothing of the work measured (the file is written all the same).
    "ingramspark": (["--profile", "ingramspark", "--force"], False),
    "ingramspark, empty cache": (["--profile", "ingramspark", "--force"], True),
}


def render(tool, book, pdf):
    """A job (cmd, cwd, before, env) writing `pdf`: every run writes a new file."""
    folder = os.path.join(CORPUS, book)
    if tool in VARIANTS or tool in ALSO:
        flags, empty = VARIANTS.get(tool, ([], False))
        env = {**os.environ, "XDG_CACHE_HOME": EMPTY_CACHE if empty else CACHE}
        return ([ALSO.get(tool, BIN), "export", os.path.join(folder, "book.json"), "-o", pdf] + flags, None,
                fresh(pdf, EMPTY_CACHE) if empty else fresh(pdf), env)
    if tool == "WeasyPrint":
        return [os.path.join(VENV, "weasyprint"), "book.html", pdf], folder, fresh(pdf), None
    return ([os.path.join(VENV, "python"), "-c", f"import typst; typst.compile('book.typ', output={pdf!r})"], folder,
            fresh(pdf), None)


def version(tool):
    if tool == "WeasyPrint":
        return subprocess.run([os.path.join(VENV, "weasyprint"), "--version"], capture_output=True, text=True).stdout.strip()
    if tool == "Typst":
        return "typst-py " + subprocess.run([os.path.join(VENV, "python"), "-c", "import importlib.metadata as m; print(m.version('typst'))"],
                                            capture_output=True, text=True).stdout.strip()
    if tool in ALSO:
        return f"bookrender built otherwise: {ALSO[tool]}"
    return "bookrender (release build of this checkout)"


def main():
    os.makedirs(OUT, exist_ok=True)
    tools = (*VARIANTS, *ALSO, "WeasyPrint", "Typst")
    with open(os.path.join(CORPUS, "corpus.json")) as f:
        corpus = json.load(f)
    rows, results = [], {"runs": RUNS, "tools": {t: version(t) for t in tools}, "corpus": corpus}
    print(f"runs per measurement: {RUNS} (median)", file=sys.stderr)
    shutil.rmtree(CACHE, ignore_errors=True)
    # The memoir again on prose from another book, against Typst: a result that holds only on the
    # benchmark's own text does not count.
    for book, tools in (("picture", tools), ("memoir", tools), ("memoir-reference", ("bookrender", "Typst"))):
        print(f"  {book} with {', '.join(tools)}, runs interleaved…", file=sys.stderr)
        pdfs = [os.path.join(OUT, f"{book}-{tool.replace(', ', '-').replace(' ', '-')}.pdf") for tool in tools]
        jobs = [render(tool, book, pdf) for tool, pdf in zip(tools, pdfs)]
        # Untimed: the runs with the kept cache find it filled, as a re-export does.
        for tool, job in zip(tools, jobs):
            if tool in VARIANTS and not VARIANTS[tool][1]:
                run_once(*job)
        measured = timed_together(jobs)
        base = measured[0][0]
        for tool, pdf, (wall, rss) in zip(tools, pdfs, measured):
            n = pages(pdf)
            size = os.path.getsize(pdf) / 2**20
            rows.append((book, tool, wall, rss, size, n, n / wall, wall / base))
    results["pdf"] = rows

    jpegs = sorted(glob.glob(os.path.join(CORPUS, "picture", "images", "*.jpg")))
    jpeg_bytes = sum(os.path.getsize(j) for j in jpegs)
    floor_out = os.path.join(OUT, "floor.bin")
    floor, _ = timed(["sh", "-c", f"cat {' '.join(jpegs)} > {floor_out}"], before=fresh(floor_out))
    results["floor"] = {"seconds": floor, "jpegBytes": jpeg_bytes}
    br_pdf = os.path.getsize(os.path.join(OUT, "picture-bookrender.pdf"))
    rows_of = {(r[0], r[1]): r for r in rows}

    # PNG pages at 150 dpi: the export with --png, less the same export without it, the three
    # interleaved.
    png = {}
    picture = os.path.join(CORPUS, "picture", "book.json")
    png_pdf = os.path.join(OUT, "png.pdf")
    png_jobs = [([BIN, "export", picture, "-o", png_pdf], None, fresh(png_pdf))]
    for w in (1, 2):
        d = os.path.join(OUT, f"png-{w}")
        png_jobs.append(([BIN, "export", picture, "-o", png_pdf, "--png", d, "--dpi", "150",
                          "--workers", str(w)], None, fresh(png_pdf, d)))
    print("  PNG pages with 1 and 2 workers, runs interleaved…", file=sys.stderr)
    (pdf_only, _), *with_png = timed_together(png_jobs)
    for w, (wall, rss) in zip((1, 2), with_png):
        n = len(glob.glob(os.path.join(OUT, f"png-{w}", "page-*.png")))
        png[w] = {"seconds": wall, "pngSeconds": max(wall - pdf_only, 1e-9), "pages": n, "rssMiB": rss}
    d = os.path.join(OUT, "pdftocairo")
    os.makedirs(d, exist_ok=True)
    pc, _ = timed(["pdftocairo", "-png", "-r", "150", "-f", "1", "-l", "3", os.path.join(OUT, "picture-bookrender.pdf"),
                   os.path.join(d, "p")], runs=1)
    results["png"] = {"workers": png, "pdftocairoSecondsPerPage": pc / 3}

    batch = {}
    batch_dirs = {jobs: os.path.join(OUT, f"batch-{jobs}") for jobs in (1, 2)}
    print("  batch with --jobs 1 and 2, runs interleaved…", file=sys.stderr)
    measured = timed_together([([BIN, "batch", os.path.join(CORPUS, "batch"), "--output-dir", d, "--jobs", str(jobs)], None,
                                fresh(d)) for jobs, d in batch_dirs.items()])
    for (jobs, d), (wall, rss) in zip(batch_dirs.items(), measured):
        batch[jobs] = {"seconds": wall, "pages": sum(pages(p) for p in glob.glob(os.path.join(d, "*.pdf"))),
                       "books": len(glob.glob(os.path.join(d, "*.pdf")))}
    results["batch"] = batch

    big_pdf = os.path.join(OUT, "picture330.pdf")
    big_wall, big_rss = timed([BIN, "export", os.path.join(CORPUS, "picture330", "book.json"), "-o", big_pdf], runs=1,
                              before=fresh(big_pdf))
    small_rss = next(r[3] for r in rows if r[0] == "picture" and r[1] == "bookrender")
    results["scale"] = {"rss33MiB": small_rss, "rss330MiB": big_rss, "seconds330": big_wall, "pages330": pages(os.path.join(OUT, "picture330.pdf"))}

    # The table.
    lines = ["| book | tool | wall s (median) | peak RSS MiB | PDF MiB | pages | pages/s | time ÷ bookrender |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for book, tool, wall, rss, size, n, pps, ratio in rows:
        lines.append(f"| {book} | {tool} | {wall:.3f} | {rss:.0f} | {size:.1f} | {n} | {pps:.0f} | {ratio:.2f}× |")
    lines.append("")
    lines.append(f"Runs repeated because other processes took more than {QUIET:.0%} of the CPUs meanwhile: "
                 f"{NOISE['repeated']}; kept after {RETRIES} tries: {NOISE['kept']}.")
    lines.append(f"Memoir text: {corpus['memoirWords']:,} words ({corpus['memoirDistinctWords']:,} distinct) from "
                 f"{corpus['text']}; memoir-reference: {corpus['reference']['memoirWords']:,} words "
                 f"({corpus['reference']['memoirDistinctWords']:,} distinct) from {corpus['reference']['text']}.")
    for book in ("picture", "memoir"):
        plain, cmyk = rows_of[(book, "bookrender")], rows_of[(book, "ingramspark")]
        plain0, cmyk0 = rows_of[(book, "bookrender, empty cache")], rows_of[(book, "ingramspark, empty cache")]
        lines.append(f"{book}, --profile ingramspark against the plain export: {cmyk[2] / plain[2]:.2f}× the time "
                     f"({cmyk0[2] / plain0[2]:.2f}× with empty caches), {cmyk[4] / plain[4]:.2f}× the size")
    for book in ("memoir", "memoir-reference"):
        lines.append(f"{book}: Typst's time ÷ bookrender's = {rows_of[(book, 'Typst')][2] / rows_of[(book, 'bookrender')][2]:.2f}×")
    lines.append(f"Floor (read the picture book's {len(jpegs)} JPEGs, {jpeg_bytes / 2**20:.1f} MiB, and write them to one file): "
                 f"{floor:.3f} s; bookrender picture-book PDF = {rows[0][2] / floor:.1f}× the floor "
                 f"({rows_of[('picture', 'bookrender, empty cache')][2] / floor:.1f}× with an empty cache); "
                 f"PDF size = {br_pdf / jpeg_bytes:.3f}× the JPEG bytes.")
    for w, v in png.items():
        lines.append(f"PNG at 150 dpi, {w} worker(s): {v['pages']} pages in {v['pngSeconds']:.2f} s beyond the PDF "
                     f"({v['pngSeconds'] / max(v['pages'], 1):.3f} s/page; whole export {v['seconds']:.2f} s, peak {v['rssMiB']:.0f} MiB)")
    lines.append(f"  2 workers vs 1: {png[1]['pngSeconds'] / png[2]['pngSeconds']:.2f}× the throughput; "
                 f"pdftocairo -png -r 150: {pc / 3:.2f} s/page = {pc / 3 / (png[1]['pngSeconds'] / max(png[1]['pages'], 1)):.0f}× bookrender's 1-worker time per page")
    for j, v in batch.items():
        lines.append(f"Batch of {v['books']} books ({v['pages']} pages), --jobs {j}: {v['seconds']:.2f} s ({v['pages'] / v['seconds']:.1f} pages/s)")
    lines.append(f"  --jobs 2 vs 1: {batch[1]['seconds'] / batch[2]['seconds']:.2f}× the throughput")
    s = results["scale"]
    lines.append(f"Peak RSS, picture book: 33 pages {s['rss33MiB']:.0f} MiB, {s['pages330']} pages {s['rss330MiB']:.0f} MiB "
                 f"(ratio {s['rss330MiB'] / s['rss33MiB']:.2f}; {s['seconds330']:.1f} s)")
    table = "\n".join(lines)
    print(table)
    with open(os.path.join(WORK, "table.md"), "w") as f: f.write(table + "\n")
    results["noise"] = NOISE
    with open(os.path.join(WORK, "results.json"), "w") as f: json.dump(results, f, indent=1, default=str)


if __name__ == "__main__":
    main()
