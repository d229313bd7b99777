#!/usr/bin/env python3
"""Do bookrender's print files pass each printer's rules? One row per book x printer x part.

    print-check.py [--books NAME,...] [--printers kdp,lulu,ingramspark] [--jobs 2] [--dpi 50]

BOOKRENDER_BIN names the binary (bench/print-check.sh builds it). Everything is written under
bench/.work/print-check/: the generated books (books/), each book's files per printer (out/BOOK/PRINTER/)
and the table (table.md, also printed). Exit status 1 when a row fails.

Books: the samples (samples/storybook, samples/memoir and the app files under samples/apps) and three
made here, deterministically, with bench/corpus.py's helpers and bench/prose.py's real prose:
memoir-24 (about 24 pages, 6x9, two photos), memoir-800 (780-800 pages, 6x9) and picture-40 (40 pages,
8.5x8.5, one full-bleed plasma photograph a page, 300 ppi at the trim plus bleed).

For each book and printer (templates/profiles/PRINTER.json), the interior and the cover are made with
`bookrender export` and `bookrender cover`, checked by `bookrender preflight --json`, and then
independently of bookrender:
  * pages: poppler's count against the profile's pages.min/max, the trim against its trims;
  * ink (CMYK profiles): Ghostscript's CMYK separations (pam device): the highest total ink of any pixel
    and its 99.99th percentile, against the profile's maxInk (+INK_TOLERANCE points for JPEG rounding);
  * rich-black text (CMYK profiles): text only (-dFILTERIMAGE -dFILTERVECTOR), pixels with K > 50 % and
    C+M+Y > 10 %; must be none (text in an accent colour has little K, so it is not counted);
  * corner ink: pictures left out (-dFILTERIMAGE), a 0.1 in square inside each corner of the page
    (the media box): the theme's page colour is the paper's (bookrender says which it leaves to the paper), so
    an interior's corner must not carry it. Inked corners are looked at in RGB (ppmraw): the page colour there
    fails; another colour is a design element reaching the edge (a text band), listed; a cover's background is
    its design on white stock, listed, not judged;
  * transparency (profiles with transparency: false): qpdf --json=2, every object: no /SMask but /None,
    no /Group with /S /Transparency, no /CA or /ca below 1, no /BM but /Normal or /Compatible;
  * images: pdfimages -list; pictures (printed PICTURE_INCHES or more both ways) must be JPEG (in an RGB profile,
    as many Flate pictures as the book names PNG files are its PNGs, kept without loss; in a CMYK profile,
    cmyk or gray); smaller images are listed, not failed.

When bookrender refuses a book (export or cover exits 1 because preflight found errors), the file is made
again with --force so the independent checks still run. A refusal is a correct one ("refused") when
every error (export's and preflight's) is a rule the book really breaks, as checked here: page count
outside the profile's range (pdfinfo), a trim the printer does not list (the TrimBox), a picture below the
profile's minImageDPI (pdfimages' ppi), or a placeholder (export names the page; the book has no picture
there). Otherwise the row fails; so does a file bookrender wrote without refusing that breaks one of these.
A cover that bookrender makes for an interior the printer refuses is noted, not failed: the refusal is the
interior's.
"""
import argparse, concurrent.futures, glob, json, math, os, re, shutil, subprocess, sys, time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # no __pycache__ beside the benchmark's modules
import corpus  # noqa: E402  (picture, memoir, picture_book)
import prose  # noqa: E402

WORK = os.path.join(HERE, ".work", "print-check")
BOOKS = os.path.join(WORK, "books")
OUT = os.path.join(WORK, "out")
PROFILES = os.path.join(ROOT, "templates", "profiles")

INK_TOLERANCE = 2.0       # percentage points over maxInk that JPEG rounding may add
RICH_K, RICH_CMY = 50.0, 10.0   # rich-black text: K above this and C+M+Y above that (percent)
CORNER_INCHES = 0.1
CORNER_INK = 1.0          # total ink (percent) above which a corner counts as printed
PICTURE_INCHES = 1.0      # an image printed this large on both sides is a picture and must be JPEG
CHUNK = 50                # pages per Ghostscript run (the PAM files are read, then removed)

# Generated books. memoir-800's chapter count keeps every printer's interior within 780-800 pages:
# the page count differs a little by printer (KDP's gutter grows with the page count).
MEMOIR_SHORT = dict(chapters=2, words=2500)
MEMOIR_LONG = dict(chapters=63, words=3000)
PICTURE_PAGES = 38        # illustration pages; bookrender adds the title page (and a blank to even)
PICTURE_TRIM = "8.5x8.5"


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


# ---------------------------------------------------------------------------------------------
# Books


def make_books():
    os.makedirs(BOOKS, exist_ok=True)
    src = os.path.join(BOOKS, "src")
    os.makedirs(src, exist_ok=True)
    side = round((8.5 + 0.25) * 300)        # trim plus 0.125 in bleed on each side, at 300 ppi
    jobs = [(os.path.join(src, f"plasma{i:02d}.jpg"), 5000 + i, side, side) for i in range(1, PICTURE_PAGES + 1)]
    jobs += [(os.path.join(src, f"photo{i:02d}.jpg"), 6000 + i, 1800, 1200) for i in range(1, 7)]
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        list(ex.map(lambda j: corpus.picture(*j), jobs))
    paras = prose.paragraphs()

    def folder(name, images):
        d = os.path.join(BOOKS, name)
        os.makedirs(os.path.join(d, "images"), exist_ok=True)
        for n in images:
            corpus.link(os.path.join(src, n), os.path.join(d, "images", n))
        return d

    photos = [f"photo{i:02d}.jpg" for i in range(1, 7)]
    short = folder("memoir-24", photos[:2])
    corpus.memoir(short, "A Short Season", MEMOIR_SHORT["chapters"], MEMOIR_SHORT["words"], photos[:2],
                  prose.Reader(paras))
    long_ = folder("memoir-800", photos)
    corpus.memoir(long_, "The Long Ledger", MEMOIR_LONG["chapters"], MEMOIR_LONG["words"], photos,
                  prose.Reader(paras, len(paras) // 3))
    plates = [f"plasma{i:02d}.jpg" for i in range(1, PICTURE_PAGES + 1)]
    pic = folder("picture-40", plates)
    captions = prose.Reader(paras, len(paras) // 2)
    corpus.picture_book(pic, "Weather Over the Marsh", plates, [captions.caption(160) for _ in plates])
    # corpus.picture_book sets 7.5x10, which Lulu and IngramSpark do not list: a square every printer takes.
    path = os.path.join(pic, "book.json")
    book = json.load(open(path))
    book["format"]["trim"] = PICTURE_TRIM
    corpus.write(path, json.dumps(book, indent=1))
    for extra in ("book.html", "book.typ"):   # the other tools' twins are not used here
        if os.path.exists(os.path.join(pic, extra)):
            os.remove(os.path.join(pic, extra))
    return {"memoir-24": os.path.join(short, "book.json"), "memoir-800": os.path.join(long_, "book.json"),
            "picture-40": path}


def all_books():
    books = {
        "storybook": os.path.join(ROOT, "samples/storybook/book.json"),
        "memoir": os.path.join(ROOT, "samples/memoir/book.json"),
        "app-memoirai": os.path.join(ROOT, "samples/apps/memoirai/storybook.json"),
        "app-roger": os.path.join(ROOT, "samples/apps/roger/story.json"),
        "app-infinitestories": os.path.join(ROOT, "samples/apps/infinitestories/story.json"),
    }
    books.update(make_books())
    return books


# ---------------------------------------------------------------------------------------------
# Checks


def pdf_pages(pdf):
    r = run(["pdfinfo", "-box", pdf])
    m = re.search(r"^Pages:\s+(\d+)", r.stdout, re.M)
    trim = re.search(r"^TrimBox:\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)", r.stdout, re.M)
    size = None
    if trim:
        x0, y0, x1, y1 = map(float, trim.groups())
        size = ((x1 - x0) / 72, (y1 - y0) / 72)
    return (int(m.group(1)) if m else None), size


def trim_listed(profile, size):
    """Whether the printer takes this trim (inches): in its list, or in its custom range."""
    if not size or "trims" not in profile:
        return True
    w, h = size
    for s in profile["trims"].get("sizes", []):
        a, b = map(float, s.split("x"))
        if abs(a - w) < 0.01 and abs(b - h) < 0.01:
            return True
    c = profile["trims"].get("custom")
    if c:
        inch = lambda v: float(str(v).rstrip("in"))
        return inch(c["minWidth"]) - 0.01 <= w <= inch(c["maxWidth"]) + 0.01 and \
            inch(c["minHeight"]) - 0.01 <= h <= inch(c["maxHeight"]) + 0.01
    return False


def read_pam(path):
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"ENDHDR\n") + len(b"ENDHDR\n")
    head = dict(line.split(" ", 1) for line in data[:end].decode().splitlines()[1:-1])
    w, h, d = int(head["WIDTH"]), int(head["HEIGHT"]), int(head["DEPTH"])
    assert d == 4 and head.get("TUPLTYPE") == "CMYK" and head.get("MAXVAL") == "255", head
    return np.frombuffer(data, np.uint8, w * h * 4, end).reshape(h, w, 4)


def render(pdf, pages, dpi, flags, tmp, visit):
    """Renders the PDF's pages in chunks to 8-bit CMYK PAM and calls visit(page, array) for each."""
    os.makedirs(tmp, exist_ok=True)
    for first in range(1, pages + 1, CHUNK):
        last = min(pages, first + CHUNK - 1)
        for old in glob.glob(os.path.join(tmp, "p-*.pam")):
            os.remove(old)
        r = run(["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=pam", f"-r{dpi}", *flags,
                 f"-dFirstPage={first}", f"-dLastPage={last}", "-o", os.path.join(tmp, "p-%04d.pam"), pdf])
        if r.returncode:
            raise RuntimeError(f"gs failed on {pdf} pages {first}-{last}: {r.stderr.strip()[:400]}")
        files = sorted(glob.glob(os.path.join(tmp, "p-*.pam")))
        if len(files) != last - first + 1:
            raise RuntimeError(f"gs wrote {len(files)} pages for {first}-{last} of {pdf}")
        for i, f in enumerate(files):
            visit(first + i, read_pam(f))
            os.remove(f)
    shutil.rmtree(tmp, ignore_errors=True)


def ink_check(pdf, pages, dpi, tmp):
    hist = np.zeros(4 * 255 + 1, np.int64)
    worst = {"page": None, "ink": -1}

    def visit(page, a):
        total = a.astype(np.uint16).sum(axis=2)
        hist[:] += np.bincount(total.ravel(), minlength=hist.size)
        m = int(total.max())
        if m > worst["ink"]:
            worst.update(page=page, ink=m)

    render(pdf, pages, dpi, [], tmp, visit)
    cum = np.cumsum(hist)
    p9999 = int(np.searchsorted(cum, math.ceil(cum[-1] * 0.9999)))
    return {"max": worst["ink"] * 100 / 255, "p99.99": p9999 * 100 / 255, "maxPage": worst["page"]}


def rich_black_check(pdf, pages, dpi, tmp):
    found = {"pixels": 0, "pages": {}}
    k_min, cmy_min = RICH_K * 255 / 100, RICH_CMY * 255 / 100

    def visit(page, a):
        a = a.astype(np.uint16)
        n = int(np.count_nonzero((a[..., 3] > k_min) & (a[..., :3].sum(axis=2) > cmy_min)))
        if n:
            found["pixels"] += n
            found["pages"][page] = n

    render(pdf, pages, dpi, ["-dFILTERIMAGE", "-dFILTERVECTOR"], tmp, visit)
    return found


def corner_check(pdf, pages, dpi, tmp):
    side = max(1, round(CORNER_INCHES * dpi))
    found = {"max": 0.0, "pages": {}}

    def visit(page, a):
        h, w, _ = a.shape
        inks = []
        for ys in (slice(0, side), slice(h - side, h)):
            for xs in (slice(0, side), slice(w - side, w)):
                inks.append(int(a[ys, xs].astype(np.uint16).sum(axis=2).max()) * 100 / 255)
        m = max(inks)
        found["max"] = max(found["max"], m)
        if m > CORNER_INK:
            found["pages"][page] = round(m, 1)
            inked[page] = [i for i, v in enumerate(inks) if v > CORNER_INK]

    inked = {}
    render(pdf, pages, dpi, ["-dFILTERIMAGE"], tmp, visit)
    if found["pages"]:
        colours = corner_colours(pdf, sorted(found["pages"]), dpi, side, tmp)
        found["colours"] = {p: sorted({c[i] for i in inked[p]}) for p, c in colours.items()}
    return found


def corner_colours(pdf, pages, dpi, side, tmp):
    """What colour the inked corners are (as Ghostscript shows them in RGB, pictures left out): {page: [#RRGGBB, ...]}."""
    os.makedirs(tmp, exist_ok=True)
    out = {}
    for i in range(0, len(pages), CHUNK):
        chunk = pages[i:i + CHUNK]
        r = run(["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=ppmraw", f"-r{dpi}", "-dFILTERIMAGE",
                 "-sPageList=" + ",".join(map(str, chunk)), "-o", os.path.join(tmp, "c-%04d.ppm"), pdf])
        if r.returncode:
            raise RuntimeError(f"gs (ppm) failed on {pdf}: {r.stderr.strip()[:400]}")
        for page, f in zip(chunk, sorted(glob.glob(os.path.join(tmp, "c-*.ppm")))):
            data = open(f, "rb").read()
            head = re.match(rb"P6\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+(\d+)\s", data)
            w, h = int(head.group(1)), int(head.group(2))
            a = np.frombuffer(data, np.uint8, w * h * 3, head.end()).reshape(h, w, 3)
            colours = []
            for ys in (slice(0, side), slice(h - side, h)):
                for xs in (slice(0, side), slice(w - side, w)):
                    c = np.median(a[ys, xs].reshape(-1, 3), axis=0).astype(int)
                    colours.append("#%02X%02X%02X" % tuple(c))
            out[page] = colours
            os.remove(f)
    shutil.rmtree(tmp, ignore_errors=True)
    return out


def near(a, b, tol=12):
    return all(abs(int(a[i:i + 2], 16) - int(b[i:i + 2], 16)) <= tol for i in (1, 3, 5))


def transparency_check(pdf):
    """Objects that carry transparency, as qpdf --json=2 sees the file."""
    r = run(["qpdf", "--json=2", "--json-key=qpdf", pdf])
    if r.returncode not in (0, 3):
        raise RuntimeError(f"qpdf --json failed on {pdf}: {r.stderr.strip()[:400]}")
    objects = json.loads(r.stdout)["qpdf"][1]

    def deref(v):
        if isinstance(v, str) and re.fullmatch(r"\d+ \d+ R", v):
            o = objects.get("obj:" + v, {})
            return o.get("value", o.get("stream", {}).get("dict"))
        return v

    def number(v):
        v = deref(v)
        return float(v) if isinstance(v, (int, float)) else None

    found = []

    def walk(v, where):
        if isinstance(v, list):
            for x in v:
                walk(x, where)
            return
        if not isinstance(v, dict):
            return
        if "/SMask" in v and deref(v["/SMask"]) != "/None":
            found.append(f"{where} /SMask {v['/SMask']}")
        g = deref(v.get("/Group"))
        if isinstance(g, dict) and g.get("/S") == "/Transparency":
            found.append(f"{where} /Group /S /Transparency")
        for key in ("/CA", "/ca"):
            n = number(v.get(key)) if key in v else None
            if n is not None and n < 1:
                found.append(f"{where} {key} {n}")
        if "/BM" in v:
            bm = deref(v["/BM"])
            modes = bm if isinstance(bm, list) else [bm]
            if any(m not in ("/Normal", "/Compatible") for m in modes):
                found.append(f"{where} /BM {bm}")
        for x in v.values():
            walk(x, where)

    for key, obj in objects.items():
        if key == "trailer":
            walk(obj.get("value"), key)
        else:
            walk(obj.get("value", obj.get("stream", {}).get("dict")), key[4:])
    return found


def png_pictures(book):
    """How many distinct PNG files the book names (its pages' and cover's pictures): in an RGB file
    a PNG is kept as its author made it, without loss (Flate), so it is not held to the JPEG rule."""
    try:
        text = open(book, encoding="utf-8").read()
    except OSError:
        return 0
    return len(set(re.findall(r'"([^"]+\.png)"', text, re.I)))


def image_check(pdf, cmyk, pngs=0):
    r = run(["pdfimages", "-list", pdf])
    if r.returncode:
        raise RuntimeError(f"pdfimages failed on {pdf}: {r.stderr.strip()[:400]}")
    rows = []
    for line in r.stdout.splitlines()[2:]:
        f = line.split()
        if len(f) < 16:
            continue
        ppi = [float(v) for v in f[12:14] if re.fullmatch(r"[\d.]+", v)]
        rows.append(dict(page=int(f[0]), type=f[2], width=int(f[3]), height=int(f[4]), color=f[5], enc=f[8],
                         object=f[10], ppi=min(ppi) if ppi else None, size=f[14]))
    images = [x for x in rows if x["type"] == "image"]
    jpeg = sum(1 for x in images if x["enc"] == "jpeg")
    problems, small = [], []
    for x in images:
        printed = x["width"] / x["ppi"] if x["ppi"] else x["width"] / 300
        picture = min(x["width"], x["height"]) / (x["ppi"] or 300) >= PICTURE_INCHES
        enc = "flate" if x["enc"] == "image" else x["enc"]
        desc = f"p{x['page']} {x['width']}x{x['height']} {x['color']} {enc} {x['size']} ({printed:.2f} in wide)"
        if x["enc"] != "jpeg":
            if picture and not cmyk and pngs > 0:
                pngs -= 1
                small.append(desc + " (a PNG of the book, kept without loss)")
            else:
                (problems if picture else small).append(desc)
        elif cmyk and x["color"] not in ("cmyk", "gray"):
            problems.append(desc)
    by_enc = {}
    for x in rows:
        k = f"{x['type']}:{x['enc']}:{x['color']}"
        by_enc[k] = by_enc.get(k, 0) + 1
    lowest = min((x["ppi"] for x in images if x["ppi"] is not None), default=None)
    return {"jpeg": jpeg, "total": len(images), "problems": problems, "small": small, "kinds": by_enc, "lowestPPI": lowest,
            "masks": [x for x in rows if x["type"] != "image"]}


def preflight(args):
    r = run([BIN, "preflight", *args, "--json"])
    try:
        report = json.loads(r.stdout)
    except ValueError:
        return {"exit": r.returncode, "errors": None, "warnings": None, "codes": [], "stderr": r.stderr.strip()}
    findings = report.get("findings") or report.get("error", {}).get("diagnostics", [])
    errors = [f for f in findings if f["severity"] == "error"]
    return {"exit": r.returncode, "errors": len(errors), "warnings": len(findings) - len(errors),
            "codes": sorted({f["code"] for f in errors}), "wcodes": sorted({f["code"] for f in findings if f["severity"] != "error"}),
            "messages": [f"{f['severity']} {f['code']} p{f.get('page')}: {f['message']}" for f in findings][:12],
            "error": report.get("error", {}).get("message")}


# ---------------------------------------------------------------------------------------------
# One book


def make_part(kind, book, pdf, printer, folder, binding="paperback"):
    """bookrender export/cover; made again with --force when preflight refused it (exit 1)."""
    cmd = [BIN, kind, book, "-o", pdf, "--profile", printer, "--binding", binding]
    t = time.time()
    r = run(cmd)
    part = {"exit": r.returncode, "stderr": r.stderr.strip(), "seconds": time.time() - t, "forced": False}
    with open(os.path.join(folder, f"{kind}.stderr"), "w") as f:
        f.write(r.stderr)
    said = r.stderr
    if r.returncode == 1:
        r2 = run(cmd + ["--force"])
        said += r2.stderr
        with open(os.path.join(folder, f"{kind}-force.stderr"), "w") as f:
            f.write(r2.stderr)
        part["forced"] = r2.returncode == 0 and os.path.exists(pdf)
        if not part["forced"]:
            part["stderr"] += f"\n(--force: exit {r2.returncode}) {r2.stderr.strip()[-300:]}"
    elif r.returncode:
        part["stderr"] = part["stderr"][-600:]
    # export says which colour it leaves to the paper: "the page colour #F6F1E8 is the paper's, not printed".
    m = re.search(r"the page colour (#[0-9A-Fa-f]{6}) is the paper's", said)
    part["pageColour"] = m.group(1).upper() if m else None
    # Why it refused, in bookrender's words: "preflight error: CODE: page N: ...".
    refusals = re.findall(r"^preflight error: (\w+):(?: page (\d+):)?", r.stderr, re.M)
    part["codes"] = sorted({c for c, _ in refusals})
    part["placeholderPages"] = sorted({int(n) for c, n in refusals if c == "placeholder" and n})
    return part


def check_book(name, book, printers, dpi):
    started = time.time()
    rows = []
    for printer in printers:
        profile = json.load(open(os.path.join(PROFILES, printer + ".json")))
        cmyk = profile.get("colour") == "cmyk"
        folder = os.path.join(OUT, name, printer)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        interior, cover = os.path.join(folder, "interior.pdf"), os.path.join(folder, "cover.pdf")
        made = {"interior": make_part("export", book, interior, printer, folder),
                "cover": make_part("cover", book, cover, printer, folder)}
        interior_pages = pdf_pages(interior)[0] if os.path.exists(interior) else None
        # Too short for the printer's paperback but long enough for its hardcover (Lulu: 24 and
        # 32 pages): made again as a hardcover, as export's refusal tells the user to.
        binding, (pmin, pmax) = "paperback", (profile.get("pages", {}).get("min"), profile.get("pages", {}).get("max"))
        casewrap = profile.get("casewrap")
        if casewrap and interior_pages is not None and pmin is not None and casewrap["minPages"] <= interior_pages < pmin:
            binding, (pmin, pmax) = "hardcover", (casewrap["minPages"], casewrap["spine"][-1]["maxPages"])
            made = {"interior": make_part("export", book, interior, printer, folder, binding),
                    "cover": make_part("cover", book, cover, printer, folder, binding)}
            interior_pages = pdf_pages(interior)[0] if os.path.exists(interior) else None
        for part, pdf in (("interior", interior), ("cover", cover)):
            row = {"book": name, "printer": printer, "part": part, "binding": binding, "cmyk": cmyk, "made": made[part],
                   "maxInk": profile.get("maxInk"), "transparencyAllowed": profile.get("transparency", True)}
            rows.append(row)
            if not os.path.exists(pdf):
                continue
            pages, size = pdf_pages(pdf)
            row["pages"] = pages
            row["interiorPages"] = interior_pages
            if part == "interior":
                row["pageCountBroken"] = (pmin is not None and pages < pmin) or (pmax is not None and pages > pmax)
                row["pageRange"] = (pmin, pmax)
                row["trim"] = size
                row["trimBroken"] = not trim_listed(profile, size)
                row["preflight"] = preflight([pdf, "--profile", printer, "--binding", binding])
            elif binding == "hardcover":
                # A hardcover's cover PDF is checked from its book (the sheet as `cover` lays it out).
                row["preflight"] = preflight([book, "--profile", printer, "--cover", "--binding", binding])
            elif os.path.exists(interior):
                row["preflight"] = preflight([pdf, "--profile", printer, "--cover", "--interior", interior])
            else:
                row["preflight"] = {"exit": None, "errors": None, "warnings": None, "codes": [], "messages": []}
            tmp = os.path.join(folder, f"pam-{part}")
            if cmyk:
                row["ink"] = ink_check(pdf, pages, dpi, tmp)
                row["richBlack"] = rich_black_check(pdf, pages, dpi, tmp)
            row["corners"] = corner_check(pdf, pages, dpi, tmp)
            row["transparency"] = transparency_check(pdf)
            row["images"] = image_check(pdf, cmyk, png_pictures(book))
    for r in rows:
        judge(r, rows)
    return name, rows, time.time() - started


def judge(row, rows):
    """verdict: PASS, refused (bookrender refused the book for rules it really breaks, as checked here) or FAIL,
    with the reasons and notes."""
    fails, notes = [], []
    made, pf = row["made"], row.get("preflight") or {}
    if "pages" not in row:
        row["verdict"], row["reasons"] = "FAIL", [f"no PDF: exit {made['exit']}: {made['stderr'][-300:]}"]
        return
    interior = next(r for r in rows if r["book"] == row["book"] and r["printer"] == row["printer"] and r["part"] == "interior")
    profile = json.load(open(os.path.join(PROFILES, row["printer"] + ".json")))
    # The rules the book itself breaks, each checked here (placeholders: bookrender's word for a page with no picture).
    broken = set()
    if interior.get("pageCountBroken"):
        broken.add("pageCount")
        lo, hi = interior["pageRange"]
        notes.append(f"the interior has {interior['pages']} pages; {row['printer']} prints {lo}-{hi}")
    if interior.get("trimBroken"):
        broken.add("trimSize")
        w, h = interior["trim"]
        notes.append(f"trim {w:g}x{h:g} in is not in {row['printer']}'s list")
    lowest, floor = row["images"]["lowestPPI"], profile.get("minImageDPI") or 0
    if lowest is not None and lowest < floor:
        broken.add("lowResolution")
        notes.append(f"a picture prints at {lowest:g} ppi (pdfimages); {row['printer']} wants {floor}")
    placeholders = interior["made"].get("placeholderPages", [])
    if placeholders:
        broken.add("placeholder")
        notes.append(f"placeholder (no picture in the book) on page(s) {placeholders}")
    refused = set(made.get("codes", [])) | set(pf.get("codes", []))
    if made["exit"] not in (0, 1):
        fails.append(f"{'export' if row['part'] == 'interior' else 'cover'} exit {made['exit']}: {made['stderr'][-300:]}")
    if made["exit"] == 1 and not made["forced"]:
        fails.append("refused, and --force made no file")
    if pf.get("errors") is None:
        fails.append(f"preflight gave no report (exit {pf.get('exit')}): {pf.get('stderr', '')[:200]}")
    unexplained = refused - broken
    if unexplained:
        fails.append("errors for rules this check finds kept: " + ", ".join(sorted(unexplained)) + " — "
                     + "; ".join(m for m in pf.get("messages", []) if m.split()[1] in unexplained)[:400])
    own = {"pageCount", "trimSize", "lowResolution"} if row["part"] == "interior" else {"lowResolution"}
    missed = own & broken - refused
    if missed:
        fails.append(f"bookrender's preflight passed a file that breaks {', '.join(sorted(missed))}")
    if made["exit"] == 0 and own & broken:
        fails.append(f"written without refusing although it breaks {', '.join(sorted(own & broken))}")
    if row["part"] == "cover" and made["exit"] == 0 and broken & {"pageCount", "trimSize"}:
        notes.append(f"cover made without complaint although the interior breaks {', '.join(sorted(broken & {'pageCount', 'trimSize'}))}")
    if row["cmyk"]:
        limit = row["maxInk"]
        if limit is not None and row["ink"]["max"] > limit + INK_TOLERANCE:
            fails.append(f"total ink {row['ink']['max']:.1f} % on page {row['ink']['maxPage']} (limit {limit} %)")
        if row["richBlack"]["pixels"]:
            worst = sorted(row["richBlack"]["pages"].items(), key=lambda kv: -kv[1])[:5]
            fails.append(f"{row['richBlack']['pixels']} rich-black text pixels (pages {dict(worst)})")
    corners, colours = row["corners"]["pages"], row["corners"].get("colours", {})
    paper = interior["made"].get("pageColour")
    if row["part"] == "cover":
        if corners:
            seen = sorted({c for cs in colours.values() for c in cs})
            notes.append(f"the cover's background ({', '.join(seen)}; {row['corners']['max']:.1f} % ink) reaches the sheet's "
                         "corners: the cover's design on white cover stock, not judged")
    elif corners:
        tinted, design, excused = {}, {}, {}
        for p, v in corners.items():
            if p in placeholders:
                excused[p] = v
            elif paper is None or any(near(c, paper) for c in colours.get(p, [])):
                tinted[p] = colours.get(p)
            else:
                for c in colours.get(p, []):
                    design.setdefault(c, []).append(p)
        row["cornerKinds"] = {"tinted": len(tinted), "design": len({p for ps in design.values() for p in ps}),
                              "placeholder": len(excused)}
        if excused:
            notes.append(f"corner ink on placeholder page(s) {sorted(excused)}")
        if design:
            notes.append("design colour at the corners (not the page colour " + str(paper) + "): "
                         + "; ".join(f"{c} on {len(ps)} page(s) {ps[:8]}" for c, ps in design.items()))
        if tinted:
            first = dict(list(tinted.items())[:6])
            fails.append(f"the page colour {paper or '(not announced)'} printed in the corners of {len(tinted)} page(s) "
                         f"{first}, up to {max(corners[p] for p in tinted):.1f} % ink")
    if not row["transparencyAllowed"] and row["transparency"]:
        fails.append(f"{len(row['transparency'])} transparency object(s): {'; '.join(row['transparency'][:4])}")
    img = row["images"]
    if img["problems"]:
        fails.append(f"pictures not JPEG{' CMYK/gray' if row['cmyk'] else ''}: {'; '.join(img['problems'][:4])}")
    if img["small"]:
        notes.append(f"small non-JPEG images: {'; '.join(img['small'][:4])}")
    if pf.get("warnings"):
        notes.append("preflight warnings " + ", ".join(pf.get("wcodes", [])))
    if fails:
        row["verdict"] = "FAIL"
    elif made["exit"] == 1:
        row["verdict"] = "refused"
    else:
        row["verdict"] = "PASS"
    row["reasons"] = fails + notes


# ---------------------------------------------------------------------------------------------
# Table


def cell_row(r):
    made, pf = r["made"], r.get("preflight") or {}
    exit_ = str(made["exit"]) + (f" {','.join(made['codes'])} (forced)" if made["forced"] else "")
    prefl = "–" if pf.get("errors") is None else f"{pf['errors']}/{pf['warnings']}"
    if pf.get("codes"):
        prefl += " " + ",".join(pf["codes"])
    ink = f"{r['ink']['max']:.1f} ({r['ink']['p99.99']:.1f})" if r.get("ink") else "–"
    rich = str(r["richBlack"]["pixels"]) if r.get("richBlack") else "–"
    corners = (f"{len(r['corners']['pages'])} pp, {r['corners']['max']:.1f} %" if r.get("corners") and r["corners"]["pages"]
               else ("0" if r.get("corners") else "–"))
    if r["part"] == "cover" and r.get("corners", {}).get("pages"):
        corners = f"{r['corners']['max']:.1f} % (cover design)"
    elif r.get("cornerKinds"):
        k = r["cornerKinds"]
        corners = ", ".join(f"{n} pp {what}" for what, n in (("page colour", k["tinted"]), ("design", k["design"]),
                                                              ("placeholder", k["placeholder"])) if n)
        corners += f" ({r['corners']['max']:.1f} %)"
    transp = str(len(r["transparency"])) if "transparency" in r else "–"
    images = f"{r['images']['jpeg']}/{r['images']['total']}" if "images" in r else "–"
    return [r["book"], r["printer"], r["part"] + (" (hardcover)" if r.get("binding") == "hardcover" else ""), str(r.get("pages", "–")), exit_, prefl, ink, rich, corners, transp,
            images, r["verdict"]]


def table(rows):
    head = ["book", "printer", "part", "pages", "exit", "preflight E/W", "max ink % (p99.99)", "rich-black px",
            "corner ink", "transparency", "images jpeg/total", "verdict"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(cell_row(r)) + " |" for r in rows]
    notes = []
    for r in rows:
        if r["reasons"]:
            notes.append(f"- **{r['book']} / {r['printer']} / {r['part']}** ({r['verdict']}): " + "; ".join(r["reasons"]))
    return "\n".join(lines), notes


def main():
    global BIN
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--books", help="comma-separated names (default: all)")
    ap.add_argument("--printers", default="kdp,lulu,ingramspark")
    ap.add_argument("--jobs", type=int, default=2, help="books checked at once (at most 2)")
    ap.add_argument("--dpi", type=int, default=50)
    a = ap.parse_args()
    BIN = os.environ.get("BOOKRENDER_BIN") or sys.exit("BOOKRENDER_BIN is not set (bench/print-check.sh sets it)")
    started = time.time()
    books = all_books()
    if a.books:
        books = {k: v for k, v in books.items() if k in a.books.split(",")}
    printers = a.printers.split(",")
    os.makedirs(OUT, exist_ok=True)
    print(f"books ready ({time.time() - started:.0f} s): {', '.join(books)}", file=sys.stderr)
    results = {}
    # The long book first, so that it overlaps with the others.
    order = sorted(books, key=lambda n: n != "memoir-800")
    with concurrent.futures.ProcessPoolExecutor(max(1, min(2, a.jobs)), initializer=_set_bin, initargs=(BIN,)) as ex:
        futures = {ex.submit(check_book, n, books[n], printers, a.dpi): n for n in order}
        for fut in concurrent.futures.as_completed(futures):
            name, rows, seconds = fut.result()
            results[name] = rows
            print(f"{name}: {seconds:.0f} s, " + ", ".join(f"{r['printer']}/{r['part']} {r['verdict']}" for r in rows),
                  file=sys.stderr)
    rows = [r for n in books for r in results[n]]
    text, notes = table(rows)
    failed = sum(r["verdict"] == "FAIL" for r in rows)
    refused = sum(r["verdict"] == "refused" for r in rows)
    gs = run(["gs", "--version"]).stdout.strip()
    qpdf = run(["qpdf", "--version"]).stdout.split("\n")[0]
    out = [text, "", f"{len(rows)} rows: {len(rows) - failed - refused} pass, {refused} refused (bookrender refused a book that "
           f"breaks the printer's rules, and said why), {failed} fail. Ghostscript {gs} at {a.dpi} dpi, {qpdf}; ink "
           f"tolerance {INK_TOLERANCE:g} points; rich black: K > {RICH_K:g} % and C+M+Y > {RICH_CMY:g} % in text; "
           f"corners: {CORNER_INCHES:g} in squares with more than {CORNER_INK:g} % ink. "
           f"Wall time {time.time() - started:.0f} s."]
    if notes:
        out += ["", "Notes:", *notes]
    report = "\n".join(out) + "\n"
    print(report)
    with open(os.path.join(WORK, "table.md"), "w") as f:
        f.write(report)
    with open(os.path.join(WORK, "results.json"), "w") as f:
        json.dump(rows, f, indent=1, default=str)
    sys.exit(1 if failed else 0)


BIN = os.environ.get("BOOKRENDER_BIN", "")


def _set_bin(b):
    global BIN
    BIN = b


if __name__ == "__main__":
    main()
