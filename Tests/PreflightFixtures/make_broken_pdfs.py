#!/usr/bin/env python3
"""Writes print PDFs by hand, each broken in one known way, for the PDF preflight's tests.

    make_broken_pdfs.py OUTDIR

OUTDIR gets the PDFs and manifest.json, a list of
    {"file", "role": "interior"|"cover", "profile", "args": [...], "expect": KIND|null, "severity"}
where `args` are the extra arguments `bookrender preflight FILE --profile P` needs (a cover's page
count, an interior), `expect` the finding kind the file must get (null: a good file, which must
pass). Every broken file is a good one with one thing changed, so the good ones passing shows that
each broken one is caught for its own fault.

Only the standard library; the same bytes on every run. Text is set in a Type 3 font of box
glyphs, embedded like any font a printer takes, so no font file is needed.
"""

import json
import os
import sys
import zlib

IN = 72.0
GLYPH_WIDTH = 600  # Type 3 glyph advance, in 1/1000 of the size
GLYPH_INK = (50, 0, 550, 700)  # the box each glyph fills


class PDF:
    """Objects by number; `write` lays out the file and its cross-reference table."""

    def __init__(self, version="1.4"):
        self.version = version
        self.objects = []

    def reserve(self):
        self.objects.append(None)
        return len(self.objects)

    def set(self, number, body):
        self.objects[number - 1] = body.encode("latin-1") if isinstance(body, str) else body

    def add(self, body):
        n = self.reserve()
        self.set(n, body)
        return n

    def stream(self, entries, data, compress=False):
        if isinstance(data, str):
            data = data.encode("latin-1")
        if compress:
            data = zlib.compress(data, 9)
            entries += " /Filter /FlateDecode"
        head = ("<< %s /Length %d >>\nstream\n" % (entries, len(data))).encode("latin-1")
        return self.add(head + data + b"\nendstream")

    def write(self, path, root, info):
        out = bytearray(("%%PDF-%s\n%%\xe2\xe3\xcf\xd3\n" % self.version).encode("latin-1"))
        offsets = []
        for i, body in enumerate(self.objects, start=1):
            offsets.append(len(out))
            out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(self.objects) + 1)
        for o in offsets:
            out += b"%010d 00000 n \n" % o
        out += b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
            len(self.objects) + 1, root, info, xref)
        with open(path, "wb") as f:
            f.write(out)


def num(v):
    s = ("%.4f" % v).rstrip("0").rstrip(".")
    return s if s not in ("", "-0") else "0"


def rect(r):
    return "[" + " ".join(num(v) for v in r) + "]"


# The printers' numbers, as the profiles in templates/profiles give them.
PROFILES = {
    "kdp": {"pages": 24, "bleed": {"top": 9, "bottom": 9, "inner": 0, "outer": 9}, "safety": 27, "cmyk": False,
            "spine": {"white": 0.002252}, "base": 0.0, "text_pages": 80, "text_inches": 0},
    "lulu": {"pages": 32, "bleed": {"top": 9, "bottom": 9, "inner": 9, "outer": 9}, "safety": 36, "cmyk": False,
             "spine": {"white": 0.0022522522522523}, "base": 0.06, "text_pages": 80, "text_inches": 0},
    "ingramspark": {"pages": 18, "bleed": {"top": 9, "bottom": 9, "inner": 9, "outer": 9}, "safety": 36, "cmyk": True,
                    "spine": {"white": 0.0021186}, "base": 0.002, "text_pages": 0, "text_inches": 0.35},
}
VARIANCE = 4.5  # each profile's foldVarianceInches, 1/16 in


def read_or(path, stand_in):
    """Ghostscript's ICC profiles where it is installed, a stand-in of no meaning otherwise."""
    if os.path.exists(path):
        with open(path, "rb") as f:
            return f.read()
    return stand_in


def icc_profile():
    return read_or("/usr/share/color/icc/ghostscript/default_cmyk.icc", b"\0" * 128)


class Book:
    """What a PDF holds, before it is written: pages with their boxes, content and resources,
    and the document's keys. Fixtures change one of these and write."""

    def __init__(self, profile):
        self.profile = profile
        self.p = PROFILES[profile]
        self.cmyk = self.p["cmyk"]
        self.version = "1.3" if self.cmyk else "1.4"
        self.info = {"Title": "(Hand-made proof)", "Producer": "(make_broken_pdfs)"}
        self.catalog = {}
        self.pages = []
        self.output_intent = self.cmyk
        if self.cmyk:
            self.info.update({"GTS_PDFXVersion": "(PDF/X-1:2001)", "GTS_PDFXConformance": "(PDF/X-1a:2001)",
                              "Trapped": "/False"})
        self.intent_subtype = "/GTS_PDFX"

    def colour(self, grey=None, cmyk=None, rgb=None, stroke=False):
        """A fill (or stroke) colour operator: CMYK for a PDF/X book, grey or RGB otherwise."""
        if self.cmyk:
            c = cmyk if cmyk is not None else (0, 0, 0, 1 - grey)
            return "%s %s %s %s %s" % (*map(num, c), "K" if stroke else "k")
        if rgb is not None:
            return "%s %s %s %s" % (*map(num, rgb), "RG" if stroke else "rg")
        return "%s %s" % (num(grey), "G" if stroke else "g")

    def write(self, path):
        pdf = PDF(self.version)
        font = type3_font(pdf)
        pages_id = pdf.reserve()
        kids = []
        for page in self.pages:
            fonts = "".join(" /%s %s" % kv for kv in page.fonts.items())
            resources = "<< /Font << /F1 %d 0 R%s >> %s >>" % (font, fonts, page.resources(pdf))
            content = pdf.stream("", page.content)
            entries = {"Type": "/Page", "Parent": "%d 0 R" % pages_id, "MediaBox": rect(page.media),
                       "Resources": resources, "Contents": "%d 0 R" % content}
            for name in ("TrimBox", "BleedBox"):
                box = getattr(page, name.lower().replace("box", ""))
                if box is not None:
                    entries[name] = rect(box)
            entries.update(page.extra)
            kids.append(pdf.add("<< " + " ".join("/%s %s" % kv for kv in entries.items()) + " >>"))
        pdf.set(pages_id, "<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join("%d 0 R" % k for k in kids), len(kids)))
        catalog = {"Type": "/Catalog", "Pages": "%d 0 R" % pages_id}
        if self.output_intent:
            icc = pdf.stream("/N 4", icc_profile(), compress=True)
            catalog["OutputIntents"] = ("[<< /Type /OutputIntent /S %s /OutputConditionIdentifier (CGATS TR 001)"
                                        " /RegistryName (http://www.color.org) /DestOutputProfile %d 0 R >>]"
                                        % (self.intent_subtype, icc))
        catalog.update(self.catalog)
        root = pdf.add("<< " + " ".join("/%s %s" % kv for kv in catalog.items()) + " >>")
        info = pdf.add("<< " + " ".join("/%s %s" % kv for kv in self.info.items()) + " >>")
        pdf.write(path, root, info)


class Page:
    def __init__(self, media, trim, bleed=None):
        self.media, self.trim, self.bleed = media, trim, bleed if bleed is not None else media
        self.content = ""
        self.xobjects = {}  # name -> function(pdf) -> object number
        self.extgstates = {}  # name -> dictionary text
        self.colourspaces = {}  # name -> function(pdf) -> object text
        self.fonts = {}  # name -> dictionary text, beside the box font /F1
        self.shadings = {}  # name -> dictionary text
        self.extra = {}

    def resources(self, pdf):
        parts = []
        if self.xobjects:
            parts.append("/XObject << %s >>" % " ".join("/%s %d 0 R" % (k, f(pdf)) for k, f in self.xobjects.items()))
        if self.extgstates:
            parts.append("/ExtGState << %s >>" % " ".join("/%s %s" % (k, v(pdf) if callable(v) else v)
                                                          for k, v in self.extgstates.items()))
        if self.shadings:
            parts.append("/Shading << %s >>" % " ".join("/%s %s" % kv for kv in self.shadings.items()))
        if self.colourspaces:
            parts.append("/ColorSpace << %s >>" % " ".join("/%s %s" % (k, f(pdf)) for k, f in self.colourspaces.items()))
        return " ".join(parts)


def type3_font(pdf):
    box = pdf.stream("", "%d 0 %d %d %d %d d1\n%d %d %d %d re f\n" % (
        GLYPH_WIDTH, *GLYPH_INK, GLYPH_INK[0], GLYPH_INK[1], GLYPH_INK[2] - GLYPH_INK[0], GLYPH_INK[3] - GLYPH_INK[1]))
    space = pdf.stream("", "%d 0 0 0 0 0 d1\n" % GLYPH_WIDTH)
    to_unicode = pdf.stream("", "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
                                "/CMapName /Boxes def 1 begincodespacerange <00> <FF> endcodespacerange\n"
                                "2 beginbfrange <20> <20> <0020> <41> <5A> <0041> endbfrange\n"
                                "endcmap CMapName currentdict /CMap defineresource pop end end\n")
    # Codes 32 (a space) and 65-90 (capitals, each a box); the codes between are not used.
    widths = " ".join(str(GLYPH_WIDTH if c == 32 or c >= 65 else 0) for c in range(32, 91))
    differences = "32 /space 65 " + " ".join("/box" for _ in range(26))
    return pdf.add("<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0]"
                   " /CharProcs << /box %d 0 R /space %d 0 R >> /Encoding << /Type /Encoding /Differences [%s] >>"
                   " /FirstChar 32 /LastChar 90 /Widths [%s] /Resources << >> /ToUnicode %d 0 R >>"
                   % (box, space, differences, widths, to_unicode))


def text(x, y, size, words, colour, matrix=None):
    """One line of box glyphs with its baseline at (x, y); `matrix` turns it (a spine's text)."""
    m = matrix or (1, 0, 0, 1)
    return "BT %s /F1 %s Tf %s %s %s %s %s %s Tm (%s) Tj ET\n" % (
        colour, num(size), *map(num, m), num(x), num(y), words)


def text_width(words, size):
    return len(words) * GLYPH_WIDTH / 1000 * size


def image(pdf, width, height, colour_space, pixel, extra=""):
    """An image of `width` × `height` pixels all of `pixel` (bytes, one per component)."""
    data = bytes(pixel) * (width * height)
    return pdf.stream("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s /BitsPerComponent 8 %s"
                      % (width, height, colour_space, extra), data, compress=True)


# Interiors: 6 × 9 in, the profile's page count, bleed on the sides the profile wants.

TRIM = (6 * IN, 9 * IN)


def interior_page(book, number, trim=TRIM, bleed=None):
    b = dict(book.p["bleed"] if bleed is None else bleed)
    right_hand = number % 2 == 1
    left = b["inner"] if right_hand else b["outer"]
    right = b["outer"] if right_hand else b["inner"]
    w, h = trim
    media = (0, 0, left + w + right, b["bottom"] + h + b["top"])
    page = Page(media, (left, b["bottom"], left + w, b["bottom"] + h))
    return page


def body(book, page, number):
    """A page of text inside the safe area and a tinted panel; every third page a full-bleed wash."""
    x0, y0, x1, y1 = page.trim
    s = 54  # 0.75 in: inside every printer's safety and gutter
    out = []
    if number % 3 == 0:
        out.append("%s\n%s re f\n" % (book.colour(grey=0.92, cmyk=(0.04, 0.02, 0.06, 0), rgb=(0.93, 0.91, 0.86)),
                                      " ".join(num(v) for v in (page.media[0], page.media[1], page.media[2], page.media[3]))))
    out.append("%s\n%s %s %s %s re f\n" % (book.colour(grey=0.85, cmyk=(0.1, 0.2, 0.3, 0), rgb=(0.9, 0.8, 0.7)),
                                         num(x0 + s), num(y0 + s), num(72), num(36)))
    for line in range(8):
        out.append(text(x0 + s, y1 - s - 12 - line * 16, 11, "ABCDE FGHIJ KLMNO PQ" if line % 2 else "RSTUV WXYZ ABCDEF",
                        book.colour(grey=0)))
    page.content = "".join(out)


def interior(profile, pages=None, trim=TRIM):
    book = Book(profile)
    for n in range(1, (pages or book.p["pages"]) + 1):
        page = interior_page(book, n, trim)
        body(book, page, n)
        book.pages.append(page)
    return book


# Covers: back, spine and front on one sheet, 0.125 in bleed all round.

class Sheet:
    def __init__(self, profile, pages, trim=TRIM, paper="white", spine=None, height=None):
        self.spine = spine if spine is not None else (pages * PROFILES[profile]["spine"][paper] + PROFILES[profile]["base"]) * IN
        self.w, self.h = trim[0], height if height is not None else trim[1]
        self.bleed = 9
        self.width = 2 * self.w + self.spine
        self.back_fold = self.bleed + self.w
        self.front_fold = self.back_fold + self.spine


def cover(profile, pages=120, trim=TRIM, spine=None, height=None, spine_text=None, text_gap=None, wrap=VARIANCE,
          barcode_clear=True, bleed=9, back_stops_at_trim=False):
    book = Book(profile)
    s = Sheet(profile, pages, trim, spine=spine, height=height)
    b = s.bleed
    media = (0, 0, s.width + 2 * b, s.h + 2 * b)
    trim_box = (b, b, b + s.width, b + s.h)
    if bleed != 9:
        media = (b - bleed, b - bleed, b + s.width + bleed, b + s.h + bleed)
    page = Page(media, trim_box)
    out = []
    back = (0, 0, s.back_fold, media[3]) if not back_stops_at_trim else (b, b, s.back_fold - b, s.h)
    out.append("%s\n%s %s %s %s re f\n" % (book.colour(grey=0.8, cmyk=(0.3, 0.1, 0, 0), rgb=(0.7, 0.85, 1.0)), *map(num, back)))
    out.append("%s\n%s %s %s %s re f\n" % (book.colour(grey=0.9, cmyk=(0, 0.1, 0.4, 0), rgb=(1.0, 0.95, 0.7)),
                                         num(s.front_fold), 0, num(media[2] - s.front_fold), num(media[3])))
    out.append("%s\n%s %s %s %s re f\n" % (book.colour(grey=0.35, cmyk=(0.5, 0.4, 0.2, 0.3), rgb=(0.2, 0.25, 0.4)),
                                         num(s.back_fold - wrap), 0, num(s.spine + 2 * wrap), num(media[3])))
    safety = max(book.p["safety"], 18)
    # Back: a blurb in its upper part; the barcode area bottom right, white.
    for line in range(5):
        out.append(text(b + safety + 18, b + s.h - safety - 30 - line * 18, 12, "ABCDEF GHIJ KLMN", book.colour(grey=0)))
    bx, by = b + s.w - safety - 144, b + safety
    out.append("%s\n%s %s 144 86.4 re f\n" % (book.colour(grey=1, cmyk=(0, 0, 0, 0), rgb=(1, 1, 1)), num(bx), num(by)))
    if not barcode_clear:
        out.append(text(bx + 10, by + 30, 14, "ABCDEFG", book.colour(grey=0)))
    # Front: the title.
    out.append(text(s.front_fold + 72, b + s.h - 2.5 * IN, 36, "ABCDE", book.colour(grey=0)))
    # Spine: its text turned to run up the spine, 7 pt of ink across, centred (or `text_gap` from
    # the back fold); by default only where the printer allows spine text.
    p = PROFILES[profile]
    if spine_text is None:
        spine_text = pages >= p["text_pages"] and s.spine >= p["text_inches"] * IN and s.spine > 2 * VARIANCE + 7
    if spine_text:
        size = 10
        ink = GLYPH_INK[3] / 1000 * size
        x = s.back_fold + (s.spine / 2 + ink / 2 if text_gap is None else text_gap + ink)
        length = text_width("ABCDEFGH", size)
        out.append(text(x, b + s.h / 2 - length / 2, size, "ABCDEFGH", book.colour(grey=1, cmyk=(0, 0, 0, 0), rgb=(1, 1, 1)),
                        matrix=(0, 1, -1, 0)))
    page.content = "".join(out)
    book.pages.append(page)
    return book, s


def cover_args(pages):
    return ["--cover", "--pages", str(pages)]


# What is broken, and how.

def fixtures(out):
    made = []

    def add(name, role, profile, book, expect, args=None, severity="error", mangle=None):
        path = os.path.join(out, name + ".pdf")
        book.write(path)
        if mangle:
            with open(path, "rb") as f:
                data = mangle(f.read())
            with open(path, "wb") as f:
                f.write(data)
        made.append({"file": name + ".pdf", "role": role, "profile": profile, "args": args or [], "expect": expect,
                     "severity": severity})

    # Good files: every broken one below differs from one of these in one way.
    for profile in PROFILES:
        add("interior-%s-good" % profile, "interior", profile, interior(profile), None)
        book, _ = cover(profile)
        add("cover-%s-good" % profile, "cover", profile, book, None, cover_args(120))
    book, _ = cover("kdp", pages=24)
    add("cover-kdp-good-for-interior", "cover", "kdp", book, None,
        ["--cover", "--interior", "interior-kdp-good.pdf"])
    # A trim in KDP's custom range but not on its list: the sheet is checked against the trim given.
    book, _ = cover("kdp", trim=(6.5 * IN, 9.5 * IN))
    add("cover-kdp-good-custom-trim", "cover", "kdp", book, None, cover_args(120) + ["--trim", "6.5x9.5"])

    # Interiors.
    def broken(name, profile, expect, change, severity="error", mangle=None):
        book = interior(profile)
        change(book)
        add("interior-%s-%s" % (profile, name), "interior", profile, book, expect, severity=severity, mangle=mangle)

    def on_page(n, f):
        return lambda book: f(book, book.pages[n - 1])

    def fill_alpha(key):
        def change(book, page):
            page.extgstates["GS1"] = "<< /Type /ExtGState /%s 0.5 >>" % key
            page.content += "q /GS1 gs %s 72 144 144 72 re f 2 w 72 144 144 72 re S Q\n" % book.colour(grey=0.5)
        return change

    broken("fill-alpha", "kdp", "transparency", on_page(3, fill_alpha("ca")))
    broken("stroke-alpha", "lulu", "transparency", on_page(4, fill_alpha("CA")))

    def gstate_soft_mask(book, page):
        page.extgstates["GS2"] = lambda pdf: "<< /Type /ExtGState /SMask << /Type /Mask /S /Luminosity /G %d 0 R >> >>" % pdf.stream(
            "/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Group << /S /Transparency /CS /DeviceGray >>", "0.5 g 0 0 100 100 re f\n")
        page.content += "q /GS2 gs %s 72 144 144 72 re f Q\n" % book.colour(grey=0.5)

    broken("graphics-state-soft-mask", "kdp", "transparency", on_page(5, gstate_soft_mask))

    def image_soft_mask(book, page):
        def make(pdf):
            alpha = image(pdf, 16, 16, "/DeviceGray", [128])
            return image(pdf, 16, 16, "/DeviceGray" if not book.cmyk else "/DeviceCMYK",
                         [90] if not book.cmyk else [20, 40, 60, 0], "/SMask %d 0 R" % alpha)
        page.xobjects["Im1"] = make
        page.content += "q 72 0 0 72 100 200 cm /Im1 Do Q\n"

    broken("image-soft-mask", "lulu", "transparency", on_page(2, image_soft_mask))
    broken("page-group", "ingramspark", "transparency",
           on_page(6, lambda book, page: page.extra.update(Group="<< /Type /Group /S /Transparency /CS /DeviceCMYK >>")))

    def form_group(book, page):
        page.xobjects["Fm1"] = lambda pdf: pdf.stream(
            "/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Group << /S /Transparency >>",
            "%s 0 0 100 100 re f\n" % book.colour(grey=0.6))
        page.content += "q 1 0 0 1 100 200 cm /Fm1 Do Q\n"

    broken("form-group", "kdp", "transparency", on_page(7, form_group))

    def blend(book, page):
        page.extgstates["GS3"] = "<< /Type /ExtGState /BM /Multiply >>"
        page.content += "q /GS3 gs %s 72 144 144 72 re f Q\n" % book.colour(grey=0.5)

    broken("blend-mode", "lulu", "transparency", on_page(8, blend))

    # Colour for a PDF/X printer: CMYK or grey only, and the PDF/X keys.
    def rgb_operator(book, page):
        page.content += "0.95 0.9 0.8 rg 100 300 72 36 re f\n"

    broken("rgb-fill", "ingramspark", "colourSpace", on_page(3, rgb_operator))

    def rgb_image(book, page):
        page.xobjects["Im2"] = lambda pdf: image(pdf, 8, 8, "/DeviceRGB", [240, 230, 200])
        page.content += "q 36 0 0 36 100 200 cm /Im2 Do Q\n"

    broken("rgb-image", "ingramspark", "colourSpace", on_page(4, rgb_image))

    def icc_rgb(book, page):
        page.colourspaces["CS0"] = lambda pdf: "[/ICCBased %d 0 R]" % pdf.stream(
            "/N 3 /Alternate /DeviceRGB", read_or("/usr/share/color/icc/ghostscript/default_rgb.icc", b"\0" * 128), compress=True)
        page.content += "/CS0 cs 0.9 0.9 0.8 sc 100 300 72 36 re f\n"

    broken("icc-rgb-colour-space", "ingramspark", "colourSpace", on_page(5, icc_rgb))

    def rgb_inline_image(book, page):
        page.content += "q 36 0 0 36 100 200 cm BI /W 2 /H 2 /CS /RGB /BPC 8 ID\n%s\nEI Q\n" % ("\xf0\xe6\xc8" * 4)

    broken("rgb-inline-image", "ingramspark", "colourSpace", on_page(6, rgb_inline_image))

    def rgb_shading(book, page):
        page.shadings["Sh0"] = ("<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [100 0 172 0] /Function"
                                " << /FunctionType 2 /Domain [0 1] /C0 [1 1 1] /C1 [0.95 0.9 0.8] /N 1 >> >>")
        page.content += "q 100 300 72 36 re W n /Sh0 sh Q\n"

    broken("rgb-shading", "ingramspark", "colourSpace", on_page(7, rgb_shading))

    def no_intent(book):
        book.output_intent = False

    broken("no-output-intent", "ingramspark", "pdfx", no_intent)
    broken("no-pdfx-version", "ingramspark", "pdfx", lambda book: book.info.pop("GTS_PDFXVersion"))
    broken("no-trapped", "ingramspark", "pdfx", lambda book: book.info.pop("Trapped"))
    broken("pdfx-4-not-1a", "ingramspark", "pdfx", lambda book: book.info.update(GTS_PDFXVersion="(PDF/X-4)"))
    broken("output-intent-not-pdfx", "ingramspark", "pdfx", lambda book: setattr(book, "intent_subtype", "/GTS_PDFA1"))

    # Ink.
    broken("ink-over-limit", "ingramspark", "totalInk",
           on_page(9, lambda book, page: setattr(page, "content", page.content + "0.8 0.7 0.7 0.9 k 100 300 144 72 re f\n")))

    def cmyk_image(book, page):
        page.xobjects["Im3"] = lambda pdf: image(pdf, 8, 8, "/DeviceCMYK", [230, 220, 220, 250])
        page.content += "q 72 0 0 72 100 200 cm /Im3 Do Q\n"

    broken("image-ink-over-limit", "ingramspark", "totalInk", on_page(10, cmyk_image))
    broken("rich-black-text", "ingramspark", "richBlackText",
           on_page(11, lambda book, page: setattr(page, "content", page.content.replace("BT 0 0 0 1 k /F1", "BT 0.3 0.3 0.3 1 k /F1"))))

    # Boxes and bleed.
    def trim_is_media(book):
        for page in book.pages:
            page.media = page.trim
            page.bleed = page.trim

    broken("trim-equals-media", "kdp", "bleed", trim_is_media)

    def short_outer_bleed(book):
        for n, page in enumerate(book.pages, start=1):
            x0, y0, x1, y1 = page.media
            page.media = (x0 + 4.5, y0, x1, y1) if n % 2 == 0 else (x0, y0, x1 - 4.5, y1)
            page.bleed = page.media

    broken("outer-bleed-short", "lulu", "bleed", short_outer_bleed)

    def no_top_bleed(book):
        for page in book.pages:
            x0, y0, x1, y1 = page.media
            page.media = (x0, y0, x1, page.trim[3])
            page.bleed = page.media

    broken("no-top-bleed", "ingramspark", "bleed", no_top_bleed)

    def bleed_box_short(book):
        for page in book.pages:
            t = page.trim
            page.bleed = (t[0] - 2, t[1] - 2, t[2] + 2, t[3] + 2)

    broken("bleed-box-short", "lulu", "bleed", bleed_box_short)

    def bleed_on_gutter(book):
        # Every page laid out as a right-hand page: the even pages' bleed is on their binding side.
        for n, page in enumerate(book.pages, start=1):
            fresh = interior_page(book, 1)
            page.media, page.trim, page.bleed = fresh.media, fresh.trim, fresh.media

    broken("bleed-on-the-gutter-side", "kdp", "bleed", bleed_on_gutter)

    def no_trim_box(book):
        for page in book.pages:
            page.trim = None
            page.bleed = None

    broken("no-trim-box", "lulu", "missingBoxes", no_trim_box)

    # Trims.
    def trim_not_listed(book):
        book.pages = []
        for n in range(1, book.p["pages"] + 1):
            page = interior_page(book, n, trim=(6.5 * IN, 6.5 * IN))
            body(book, page, n)
            book.pages.append(page)

    broken("trim-not-listed", "lulu", "trimSize", trim_not_listed)

    def mixed(book):
        page = interior_page(book, 5, trim=(5 * IN, 8 * IN))
        body(book, page, 5)
        book.pages[4] = page

    broken("mixed-page-sizes", "kdp", "mixedPageSizes", mixed)

    # A file readers must mend to read: its cross-reference table is not where startxref says.
    def wrong_startxref(data):
        at = data.rindex(b"startxref\n") + len(b"startxref\n")
        return data[:at] + b"123" + data[data.index(b"\n", at):]

    broken("xref-not-found", "lulu", "damagedFile", lambda book: None, severity="warning", mangle=wrong_startxref)

    # What the preflight checked before; kept so the count covers every rule.
    def odd_count(book):
        book.pages.pop()

    broken("odd-page-count", "ingramspark", "pageCount", odd_count)
    broken("text-in-margin", "kdp", "outsideSafeArea",
           on_page(3, lambda book, page: setattr(page, "content", page.content + text(page.trim[0] + 54, page.trim[1] + 9, 11, "ABCDE", book.colour(grey=0)))))

    def coarse_picture(book, page):
        page.xobjects["Im4"] = lambda pdf: image(pdf, 120, 120, "/DeviceGray", [200])
        page.content += "q 216 0 0 216 120 200 cm /Im4 Do Q\n"

    broken("coarse-picture", "lulu", "lowResolution", on_page(2, coarse_picture))

    def base_font(book, page):
        page.fonts["F9"] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
        page.content += "BT %s /F9 11 Tf 100 100 Td (Helvetica) Tj ET\n" % book.colour(grey=0)

    broken("font-not-embedded", "kdp", "fontNotEmbedded", on_page(3, base_font))

    def page_stops_at_trim(book, page):
        page.content = page.content.replace("%s re f" % " ".join(num(v) for v in page.media),
                                            "%s %s %s %s re f" % (num(page.trim[0]), num(page.media[1]),
                                                                  num(page.trim[2] - page.trim[0]), num(page.media[3])))

    broken("wash-stops-at-trim", "lulu", "stopsAtTrim", on_page(3, page_stops_at_trim))

    # Covers.
    def broken_cover(name, profile, expect, book, args, severity="error"):
        add("cover-%s-%s" % (profile, name), "cover", profile, book, expect, args, severity)

    broken_cover("spine-too-wide", "kdp", "coverSize", cover("kdp", pages=200)[0], cover_args(120))
    broken_cover("sheet-too-tall", "lulu", "coverSize", cover("lulu", height=9.5 * IN)[0], cover_args(120))
    book, _ = cover("kdp", pages=24, trim=(5 * IN, 8 * IN))
    broken_cover("trim-unlike-interior", "kdp", "coverSize", book, ["--cover", "--interior", "interior-kdp-good.pdf"])
    book, _ = cover("kdp", trim=(6.5 * IN, 9.5 * IN))
    broken_cover("custom-trim-not-given", "kdp", "coverSize", book, cover_args(120))
    book, _ = cover("kdp")
    broken_cover("trim-unlike-the-one-given", "kdp", "coverSize", book, cover_args(120) + ["--trim", "5.5x8.5"])
    broken_cover("text-in-barcode-area", "kdp", "barcodeArea", cover("kdp", barcode_clear=False)[0], cover_args(120))
    book, s = cover("ingramspark")
    book.pages[0].content += "0.2 0.6 0.1 0 k %s %s 72 36 re f\n" % (num(9 + s.w - 36 - 100), num(9 + 36 + 20))
    broken_cover("picture-in-barcode-area", "ingramspark", "barcodeArea", book, cover_args(120))
    broken_cover("spine-text-on-thin-spine", "kdp", "spineText", cover("kdp", pages=60, spine_text=True)[0], cover_args(60))
    broken_cover("spine-text-near-fold", "lulu", "spineText", cover("lulu", pages=300, text_gap=2)[0], cover_args(300))
    broken_cover("colour-change-at-fold", "kdp", "foldColour", cover("kdp", wrap=0)[0], cover_args(120), severity="warning")
    broken_cover("back-stops-at-trim", "lulu", "stopsAtTrim", cover("lulu", back_stops_at_trim=True)[0], cover_args(120))
    broken_cover("bleed-short", "kdp", "bleed", cover("kdp", bleed=4)[0], cover_args(120))
    book, _ = cover("kdp")
    fill_alpha("ca")(book, book.pages[0])
    broken_cover("fill-alpha", "kdp", "transparency", book, cover_args(120))
    book, _ = cover("lulu")
    image_soft_mask(book, book.pages[0])
    broken_cover("image-soft-mask", "lulu", "transparency", book, cover_args(120))
    book, _ = cover("ingramspark")
    book.pages[0].content += "0.9 0.8 0.8 0.6 k 500 300 144 72 re f\n"
    broken_cover("ink-over-limit", "ingramspark", "totalInk", book, cover_args(120))
    book, _ = cover("ingramspark")
    rgb_operator(book, book.pages[0])
    broken_cover("rgb-fill", "ingramspark", "colourSpace", book, cover_args(120))
    book, _ = cover("ingramspark")
    book.output_intent = False
    broken_cover("no-output-intent", "ingramspark", "pdfx", book, cover_args(120))
    book, _ = cover("lulu")
    coarse_picture(book, book.pages[0])
    broken_cover("coarse-picture", "lulu", "lowResolution", book, cover_args(120))
    book, _ = cover("kdp")
    book.pages[0].trim = None
    book.pages[0].bleed = None
    broken_cover("no-trim-box", "kdp", "missingBoxes", book, cover_args(120))
    return made


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_broken_pdfs.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    made = fixtures(out)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(made, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
