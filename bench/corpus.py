#!/usr/bin/env python3
"""Generates the benchmark books, deterministically, under bench/.work/corpus/.

picture/   33-page picture book, 7.5 x 10 in, one full-bleed 300-dpi JPEG per page (ImageMagick plasma, fixed seeds)
picture330/ the same book ten times over (330 pages); each copy of a picture gets a JPEG comment with its
           number, so every page has its own bytes and content hash (same pixels, no dedup in the PDF)
memoir/    ~60,000-word memoir, 6 x 9 in, 20 chapters of text, each followed by a photo
memoir-reference/ the same design on the prose of another book and author (Debian Reference), ~39,000 words
batch/     40 mixed books (small picture books and memoir excerpts) sharing those pictures by hard link
Every text is real prose, paragraphs of the Debian Administrator's Handbook or, for memoir-reference, of
Debian Reference (see prose.py); corpus.json says which versions and how many words. Each book also gets book.html (WeasyPrint) and book.typ (Typst)
made from the same content and the same characters.
"""
import concurrent.futures, json, os, subprocess

import prose

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, ".work", "corpus")


def sh(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def picture(path, seed, w, h):
    if not os.path.exists(path):
        sh("convert", "-seed", str(seed), "-size", f"{w}x{h}", "plasma:fractal", "-quality", "92",
           "-density", "300", "-units", "PixelsPerInch", "-sampling-factor", "4:2:0", path)


def with_comment(src, dst, label):
    data = open(src, "rb").read()
    com = label.encode()
    seg = b"\xff\xfe" + (len(com) + 2).to_bytes(2, "big") + com
    open(dst, "wb").write(data[:2] + seg + data[2:])


def link(src, dst):
    if not os.path.exists(dst):
        os.link(src, dst)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# Characters that Typst markup reads as syntax (strong, emphasis, raw, math, code, labels,
# references, headings, lists, comments, shorthands such as "--", "-?" and "...", smart quotes);
# escaped, each stands for itself.
TYP_SYNTAX = set("\\*_`$#<>@[]=-+/~'\".:")


def typ_text(s):
    return "".join("\\" + c if c in TYP_SYNTAX else c for c in s)


def picture_book(folder, title, images, texts):
    """images: file names in folder/images; one illustration page each."""
    pages = [{"type": "illustration", "image": f"images/{im}", "text": t} for im, t in zip(images, texts)]
    book = {"schema": 1, "kind": "storybook", "title": title, "author": "Bench", "language": "en-US",
            "created": "2024-01-01T00:00:00Z", "theme": "picture-book", "format": {"trim": "7.5x10"},
            "cover": {"title": title, "photo": f"images/{images[0]}"}, "pages": pages}
    write(os.path.join(folder, "book.json"), json.dumps(book, indent=1))
    css = ("@page { size: 7.5in 10in; margin: 0 } body { margin: 0; font-family: Andika, sans-serif; font-size: 18pt }"
           " section { page-break-after: always; height: 10in; position: relative }"
           " img { width: 7.5in; height: 7.5in; object-fit: cover; display: block }"
           " p { margin: 0.3in 0.6in }")
    body = "".join(f'<section><img src="images/{im}"><p>{esc(t)}</p></section>' for im, t in zip(images, texts))
    write(os.path.join(folder, "book.html"), f"<!doctype html><html><head><meta charset='utf-8'><style>{css}</style></head>"
          f"<body><section><h1>{esc(title)}</h1></section>{body}</body></html>")
    typ = ['#set page(width: 7.5in, height: 10in, margin: 0pt)', '#set text(size: 18pt)',
           f'#align(center)[#text(size: 32pt)[{typ_text(title)}]]']
    for im, t in zip(images, texts):
        typ.append(f'#pagebreak()\n#image("images/{im}", width: 7.5in, height: 7.5in, fit: "cover")\n'
                   f'#pad(x: 0.6in, y: 0.3in)[{typ_text(t)}]')
    write(os.path.join(folder, "book.typ"), "\n".join(typ) + "\n")


def memoir(folder, title, chapters, words_per_chapter, photos, reader):
    """Returns the paragraphs of its text."""
    pages, html, typ = [], [], ['#set page(width: 6in, height: 9in, margin: (x: 0.75in, y: 0.8in), numbering: "1")',
                                '#set text(size: 11pt)', '#set par(justify: true, first-line-indent: 1.2em)',
                                f'#align(center)[#text(size: 28pt)[{typ_text(title)}]]']
    html.append(f"<h1 class='title'>{esc(title)}</h1>")
    text = []
    for c in range(chapters):
        paras = reader.words(words_per_chapter)
        text += paras
        ph = photos[c % len(photos)]
        ch = f"Chapter {c + 1}"
        pages += [{"type": "chapter", "title": ch}, {"type": "text", "text": "\n\n".join(paras)},
                  {"type": "photo", "image": f"images/{ph}", "caption": f"Photograph {c + 1}"}]
        html.append(f"<h1>{ch}</h1>" + "".join(f"<p>{esc(p)}</p>" for p in paras) +
                    f"<figure><img src='images/{ph}'><figcaption>Photograph {c + 1}</figcaption></figure>")
        typ.append(f'#pagebreak()\n= {ch}\n' + "\n\n".join(typ_text(p) for p in paras) +
                   f'\n#figure(image("images/{ph}", width: 100%), caption: [Photograph {c + 1}])')
    book = {"schema": 1, "kind": "memoir", "title": title, "author": "Bench", "language": "en-US",
            "created": "2024-01-01T00:00:00Z", "theme": "memoir", "format": {"trim": "6x9"},
            "cover": {"title": title, "photo": f"images/{photos[0]}"}, "pages": pages}
    write(os.path.join(folder, "book.json"), json.dumps(book, indent=1))
    css = ("@page { size: 6in 9in; margin: 0.8in 0.75in; @bottom-center { content: counter(page) } }"
           " body { font-family: 'Linux Libertine O', serif; font-size: 11pt; line-height: 1.4 }"
           " p { text-align: justify; text-indent: 1.2em; margin: 0; hyphens: auto }"
           " h1 { page-break-before: always; font-size: 20pt } figure { margin: 1em 0 } img { width: 100% }")
    write(os.path.join(folder, "book.html"), f"<!doctype html><html lang='en'><head><meta charset='utf-8'><style>{css}</style>"
          f"</head><body>{''.join(html)}</body></html>")
    write(os.path.join(folder, "book.typ"), "\n".join(typ) + "\n")
    return text


def main():
    os.makedirs(OUT, exist_ok=True)
    src = os.path.join(OUT, "src")
    os.makedirs(src, exist_ok=True)
    jobs = [(os.path.join(src, f"p{i:02d}.jpg"), 1000 + i, 2250, 3000) for i in range(1, 34)]
    jobs += [(os.path.join(src, f"photo{i:02d}.jpg"), 2000 + i, 1800, 1200) for i in range(1, 11)]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        list(ex.map(lambda j: picture(*j), jobs))
    paras = prose.paragraphs()
    captions = prose.Reader(paras)
    texts = [captions.caption(220) for _ in range(33)]

    pb = os.path.join(OUT, "picture"); os.makedirs(os.path.join(pb, "images"), exist_ok=True)
    names = [f"p{i:02d}.jpg" for i in range(1, 34)]
    for n in names: link(os.path.join(src, n), os.path.join(pb, "images", n))
    picture_book(pb, "The Lantern Fox", names, texts)

    big = os.path.join(OUT, "picture330"); os.makedirs(os.path.join(big, "images"), exist_ok=True)
    big_names = []
    for copy in range(10):
        for i, n in enumerate(names):
            name = f"c{copy}-{n}"
            dst = os.path.join(big, "images", name)
            if not os.path.exists(dst): with_comment(os.path.join(src, n), dst, f"copy {copy}")
            big_names.append(name)
    picture_book(big, "The Lantern Fox, ten times", big_names, texts * 10)

    me = os.path.join(OUT, "memoir"); os.makedirs(os.path.join(me, "images"), exist_ok=True)
    photos = [f"photo{i:02d}.jpg" for i in range(1, 11)]
    for n in photos: link(os.path.join(src, n), os.path.join(me, "images", n))
    memoir_text = memoir(me, "The Kitchen Table Years", 20, 3000, photos, prose.Reader(paras))

    # The same memoir's design on another author's prose, taken once through (no paragraph twice).
    other = prose.paragraphs(prose.REFERENCE)
    chapters = sum(len(p.split()) for p in other) // 3000
    mr = os.path.join(OUT, "memoir-reference"); os.makedirs(os.path.join(mr, "images"), exist_ok=True)
    for n in photos: link(os.path.join(src, n), os.path.join(mr, "images", n))
    other_text = memoir(mr, "The Reference Years", chapters, 3000, photos, prose.Reader(other))

    batch = os.path.join(OUT, "batch"); os.makedirs(batch, exist_ok=True)
    for b in range(40):
        folder = os.path.join(batch, f"book{b + 1:02d}")
        os.makedirs(os.path.join(folder, "images"), exist_ok=True)
        if b % 2 == 0:
            chosen = [names[(b + k) % 33] for k in range(8)]
            for n in chosen: link(os.path.join(src, n), os.path.join(folder, "images", n))
            picture_book(folder, f"Picture book {b + 1}", chosen, [texts[(b + k) % 33] for k in range(8)])
        else:
            chosen = [photos[(b + k) % 10] for k in range(3)]
            for n in chosen: link(os.path.join(src, n), os.path.join(folder, "images", n))
            # Each excerpt from its own place in the handbook.
            memoir(folder, f"Memoir {b + 1}", 3, 1500, chosen, prose.Reader(paras, b * len(paras) // 40))
    words = [w for p in memoir_text for w in p.split()]
    source = {"text": f"{prose.PACKAGE} {prose.version()}", "paragraphs": len(paras),
              "words": sum(len(p.split()) for p in paras), "memoirWords": len(words),
              "memoirDistinctWords": len({w.strip(".,;:!?()[]\"'“”’").lower() for w in words})}
    other_words = [w for p in other_text for w in p.split()]
    source["reference"] = {"text": f"{prose.REFERENCE.package} {prose.version(prose.REFERENCE)}",
                           "memoirWords": len(other_words),
                           "memoirDistinctWords": len({w.strip(".,;:!?()[]\"'“”’").lower() for w in other_words})}
    write(os.path.join(OUT, "corpus.json"), json.dumps(source, indent=1) + "\n")
    print(f"corpus ready in {OUT}: the memoir has {len(words)} words ({source['memoirDistinctWords']} distinct) "
          f"from {source['text']}")


if __name__ == "__main__":
    main()
