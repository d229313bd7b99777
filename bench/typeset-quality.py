#!/usr/bin/env python3
"""How well a PDF's paragraphs are set: word spaces, loose, hyphenated and overfull lines.

    typeset-quality.py BOOK.pdf [--body-size PT] [--json]

Reads every glyph with its position and size (pdfminer.six), so any tool's PDF is measured the same
way. Lines are glyphs on one baseline in the body size (the most common size in the book); the text
block's right edge on a page is where most full lines end. A *justified* line is a full line that is
not the last of its paragraph; its *word spaces* are the gaps between the ink of one word and the
next (in em of the body size, the space glyph's own width included in the gap, as a reader sees it).
An *overfull* line's last letter ends more than 0.5 pt past the block's edge (punctuation after it
may hang); a *hyphenated* line ends in a hyphen
that is not part of the text's own dash.

With --typst BOOK.json, the book's text is also set by Typst on the same page, measure, font, size
and first-line indent as found in the first PDF (its twin is written beside it as *.typst.pdf), and
measured the same way, so both tools are compared on the same paragraphs in one run.
"""
import argparse, collections, json, os, re, statistics, subprocess, sys

from pdfminer.high_level import extract_pages
from pdfminer.layout import LAParams, LTChar, LTTextContainer, LTContainer

HYPHENS = {"-", "\u2010", "\u00ad"}
# Glyph gaps below this (in em) are kerning or letter spacing, not a word space.
WORD_GAP = 0.12
# How far (pt) a line may end from the block's edge and still be full.
FULL = 1.0
OVERFULL = 0.5


def glyphs(layout):
    stack = [layout]
    while stack:
        item = stack.pop()
        if isinstance(item, LTChar):
            yield item
        elif isinstance(item, LTContainer):
            stack.extend(item)


def lines_of(page_glyphs, size):
    """Body-size glyphs grouped by baseline, each line sorted left to right."""
    body = [g for g in page_glyphs if abs(g.size - size) < 0.3 and g.upright]
    rows = collections.defaultdict(list)
    for g in body:
        rows[round(g.y0 / 1.5)].append(g)
    # Merge rows split across a rounding boundary.
    merged, keys = [], sorted(rows)
    for k in keys:
        if merged and k - merged[-1][0] == 1:
            merged[-1][1].extend(rows[k])
            merged[-1] = (k, merged[-1][1])
        else:
            merged.append((k, rows[k]))
    out = []
    for _, row in sorted(merged, key=lambda kv: -kv[0]):
        row.sort(key=lambda g: g.x0)
        out.append(row)
    return out


def letters_right(line):
    """Where the line's last letter or digit ends: punctuation after it may hang into the margin
    (Typst's overhang, optical margin alignment), which is not an overfull line."""
    ink = [g.x1 for g in line if g.get_text().isalnum()]
    return max(ink) if ink else max(g.x1 for g in line)


def words_and_gaps(line, size):
    """The line's words (as text) and the gaps between them in em."""
    ink = [g for g in line if g.get_text().strip()]
    words, gaps, current = [], [], [ink[0]] if ink else []
    for prev, g in zip(ink, ink[1:]):
        gap = (g.x0 - prev.x1) / size
        spaced = any(s.get_text() == " " and prev.x1 - 0.1 <= s.x0 <= g.x0 + 0.1 for s in line)
        if gap > WORD_GAP or spaced:
            words.append("".join(c.get_text() for c in current))
            gaps.append(gap)
            current = [g]
        else:
            current.append(g)
    if current:
        words.append("".join(c.get_text() for c in current))
    return words, gaps


def measure(pdf, body_size=None):
    pages = list(extract_pages(pdf, laparams=LAParams()))
    sizes = collections.Counter()
    all_glyphs = []
    for layout in pages:
        gs = list(glyphs(layout))
        all_glyphs.append(gs)
        for g in gs:
            if g.get_text().strip():
                sizes[round(g.size, 1)] += 1
    size = body_size or sizes.most_common(1)[0][0]
    spaces, loose, justified, hyphenated, consecutive, overfull, lines_total = [], [], 0, 0, 0, [], 0
    # Paragraph ends seen after a line of the same page, and those whose line before ends in a
    # hyphen (a last line like "son." under "rea-"), which TeX's final hyphen demerits avoid.
    endings, hyphen_before_last = 0, 0
    blocks, pitches, fonts = collections.Counter(), [], collections.Counter()
    for number, gs in enumerate(all_glyphs, 1):
        lines = [l for l in lines_of(gs, size) if sum(1 for g in l if g.get_text().strip()) >= 2]
        if len(lines) < 3:
            continue
        # The block's edge: where most lines that reach near the widest end, glyphs included (a
        # hyphen or a comma sits at the edge when nothing hangs, and hangs past it when it does).
        rights = [round(max(g.x1 for g in l), 0) for l in lines]
        lefts = [round(min(g.x0 for g in l), 0) for l in lines]
        widest = max(rights)
        near = [r for r in rights if r >= widest - 0.25 * (widest - min(lefts))]
        edge = collections.Counter(near).most_common(1)[0][0]
        blocks[(number % 2, collections.Counter(lefts).most_common(1)[0][0], edge)] += 1
        baselines = [line[0].y0 for line in lines]
        pitches += [round(a - b, 2) for a, b in zip(baselines, baselines[1:]) if 0 < a - b < 3 * size]
        for line in lines:
            for g in line:
                fonts[re.sub(r"^[A-Z]{6}\+", "", g.fontname)] += 1
        previous_hyphen = False
        for i, line in enumerate(lines):
            lines_total += 1
            right = letters_right(line)
            last = [g for g in line if g.get_text().strip()][-1].get_text()
            words, gaps = words_and_gaps(line, size)
            if right > edge + OVERFULL + 0.5:
                overfull.append({"page": number, "excess": round(right - edge, 2), "text": " ".join(words)[:60]})
            # Full: its last letter, or the punctuation after it, reaches the edge.
            full = abs(right - edge) <= FULL or abs(max(g.x1 for g in line) - edge) <= FULL
            ends_hyphen = last in HYPHENS and len(words[-1]) > 1 and not words[-1].endswith("--")
            reaches = full or right >= edge - 0.6 * size
            if not full and i > 0:
                endings += 1
                if previous_hyphen:
                    hyphen_before_last += 1
            if ends_hyphen and reaches:
                hyphenated += 1
                if previous_hyphen:
                    consecutive += 1
            previous_hyphen = ends_hyphen and reaches
            # A full line followed by a line of the same paragraph: justified.
            if full and gaps and i + 1 < len(lines):
                justified += 1
                spaces.extend(gaps)
                worst = max(gaps)
                if worst > 0.5:
                    loose.append({"page": number, "space": round(worst, 3), "text": " ".join(words)[:60]})
    spaces.sort()
    pct = lambda q: spaces[min(len(spaces) - 1, int(q * len(spaces)))] if spaces else 0
    return {
        "pdf": pdf, "pages": len(pages), "bodySize": size,
        "pageSize": [round(pages[0].width, 2), round(pages[0].height, 2)] if pages else None,
        # (page parity, left, right) of the text block, most common first.
        "blocks": [list(k) for k, _ in blocks.most_common()],
        "linePitch": statistics.median(pitches) if pitches else None,
        "bodyFont": fonts.most_common(1)[0][0] if fonts else None, "lines": lines_total, "justifiedLines": justified,
        "wordSpaceMedianEm": round(statistics.median(spaces), 3) if spaces else None,
        "wordSpaceP95Em": round(pct(0.95), 3), "wordSpaceMaxEm": round(spaces[-1], 3) if spaces else None,
        "linesAbove05Em": len(loose), "hyphenatedLines": hyphenated, "consecutiveHyphens": consecutive,
        "paragraphEnds": endings, "hyphenBeforeLastLinePct": round(100 * hyphen_before_last / endings, 1) if endings else None,
        "overfullLines": len(overfull), "overfull": overfull[:10],
        "loosest": sorted(loose, key=lambda l: -l["space"])[:5],
    }


TYP_SYNTAX = set("\\*_`$#<>@[]=-+/~'\".:")


def typ_text(s):
    return "".join("\\" + c if c in TYP_SYNTAX else c for c in s)


def typst_twin(book_path, found, out_pdf):
    """Typst's setting of the book's chapters and text pages on the page and measure `found` measured."""
    import typst
    book = json.load(open(book_path))
    width, height = found["pageSize"]
    odd = next((b for b in found["blocks"] if b[0] == 1), found["blocks"][0])
    left, right = odd[1], width - odd[2]
    size = found["bodySize"]
    # Leading is the gap between one line's bottom edge and the next line's top edge in Typst.
    leading = max(0.1, (found["linePitch"] or size * 1.4) - size)
    lang = (book.get("language") or "en").split("-")[0]
    family = "Linux Libertine O" if "Libertine" in (found["bodyFont"] or "") else (found["bodyFont"] or "Linux Libertine O")
    typ = [f"#set page(width: {width}pt, height: {height}pt, margin: (left: {left}pt, right: {right}pt, top: 0.75in, bottom: 0.85in))",
           f'#set text(font: "{family}", size: {size}pt, lang: "{lang}")',
           f"#set par(justify: true, first-line-indent: 1.2em, leading: {leading:.2f}pt, spacing: {leading:.2f}pt)"]
    for page in book.get("pages", []):
        kind = page.get("type")
        if kind == "chapter":
            typ.append(f"#pagebreak(weak: true)\n#align(center)[#text(size: 16pt)[{typ_text(page.get('title', ''))}]]\n")
        elif kind == "text":
            typ.append("\n\n".join(typ_text(" ".join(p.split())) for p in re.split(r"\n\s*\n", page.get("text", "")) if p.strip()))
    source = out_pdf[:-4] + ".typ"
    with open(source, "w") as f:
        f.write("\n\n".join(typ) + "\n")
    folders = ["/usr/share/fonts/opentype/linux-libertine"]
    typst.compile(source, output=out_pdf, font_paths=[d for d in folders if os.path.isdir(d)])
    return out_pdf


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdf", nargs="+")
    ap.add_argument("--body-size", type=float)
    ap.add_argument("--typst", metavar="BOOK.json", help="also set the book's text with Typst on the first PDF's measure")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    results = [measure(p, a.body_size) for p in a.pdf]
    if a.typst:
        twin = typst_twin(a.typst, results[0], os.path.splitext(a.pdf[0])[0] + ".typst.pdf")
        results.append(measure(twin, results[0]["bodySize"]))
    if a.json:
        json.dump(results, sys.stdout, indent=1, ensure_ascii=False)
        print()
        return
    print("| PDF | body pt | justified lines | median space (em) | 95th pct (em) | max (em) | lines > 0.5 em | hyphenated | consecutive hyphens | hyphen before a last line | overfull |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['pdf']} | {r['bodySize']} | {r['justifiedLines']} | {r['wordSpaceMedianEm']} | {r['wordSpaceP95Em']} | "
              f"{r['wordSpaceMaxEm']} | {r['linesAbove05Em']} | {r['hyphenatedLines']} | {r['consecutiveHyphens']} | "
              f"{r['hyphenBeforeLastLinePct']} % of {r['paragraphEnds']} | {r['overfullLines']} |")
        for l in r["loosest"]:
            print(f"    loose p{l['page']}: {l['space']} em: {l['text']}")
        for o in r["overfull"]:
            print(f"    overfull p{o['page']}: +{o['excess']} pt: {o['text']}")


if __name__ == "__main__":
    main()
