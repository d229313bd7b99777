"""Real prose for the benchmark books: the running paragraphs of a book Debian packages as HTML, in
the book's order.

- `HANDBOOK`, the corpus's text: *The Debian Administrator's Handbook* (debian-handbook), whose
  paragraphs are `<div class="para">`;
- `REFERENCE`, a second text by another author for checking a result on prose the benchmark was not
  measured on: Osamu Aoki's *Debian Reference* (debian-reference-en), whose paragraphs are `<p>`.

A paragraph holds only text and inline markup (no list, listing, table or nested block), is at
least 15 words long and ends a sentence; the markup is dropped, runs of white space become one
space, and a paragraph that appears on two pages is kept once. The same package version gives the
same paragraphs, on every run and for every tool.
"""
import html.parser, os, re, subprocess
from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    package: str
    folder: str
    index: str
    tag: str                # the element of a paragraph
    css_class: str | None   # its class, if the book marks paragraphs by one


HANDBOOK = Source("debian-handbook", "/usr/share/doc/debian-handbook/html/en-US", "index.html", "div", "para")
REFERENCE = Source("debian-reference-en", "/usr/share/debian-reference", "index.en.html", "p", None)
PACKAGE, SOURCE = HANDBOOK.package, HANDBOOK.folder
# Elements that make a paragraph something other than running text.
BLOCKS = {"div", "p", "pre", "table", "ul", "ol", "dl", "blockquote", "figure", "h1", "h2", "h3", "h4", "h5", "h6"}
SENTENCE_END = re.compile(r'[.?!]["”’)]?$')
SENTENCE = re.compile(r'\S.*?[.?!]["”’)]?(?= |$)')


class _Paragraphs(html.parser.HTMLParser):
    def __init__(self, source):
        super().__init__(convert_charrefs=True)
        self.source = source
        self.depth, self.text, self.plain, self.found = 0, [], True, []

    def opens(self, tag, attrs):
        if tag != self.source.tag:
            return False
        return self.source.css_class is None or ("class", self.source.css_class) in attrs

    def handle_starttag(self, tag, attrs):
        if self.depth:
            if tag in BLOCKS:
                self.plain = False
            if tag == self.source.tag:
                self.depth += 1
        elif self.opens(tag, attrs):
            self.depth, self.text, self.plain = 1, [], True

    def handle_endtag(self, tag):
        if self.depth and tag == self.source.tag:
            self.depth -= 1
            if not self.depth and self.plain:
                self.found.append(" ".join("".join(self.text).split()))

    def handle_data(self, data):
        if self.depth:
            self.text.append(data)


def version(source=HANDBOOK):
    return subprocess.run(["dpkg-query", "-W", "-f=${Version}", source.package], capture_output=True, text=True).stdout.strip()


def paragraphs(source=HANDBOOK):
    index = os.path.join(source.folder, source.index)
    if not os.path.exists(index):
        raise SystemExit(f"{index} is missing: the benchmark's text comes from Debian's {source.package} package "
                         f"(bench/run.sh installs it; or: apt-get install {source.package})")
    # The table of contents gives the pages in the book's order.
    pages = []
    for name in re.findall(r'href="([^"#/]+\.html)', open(index, encoding="utf-8").read()):
        if name not in ("index.html", source.index) and name not in pages:
            pages.append(name)
    seen, out = set(), []
    for name in pages:
        parser = _Paragraphs(source)
        with open(os.path.join(source.folder, name), encoding="utf-8") as f:
            parser.feed(f.read())
        for p in parser.found:
            if p not in seen and len(p.split()) >= 15 and SENTENCE_END.search(p):
                seen.add(p)
                out.append(p)
    return out


class Reader:
    """Hands out the paragraphs in order from `start`, going round to the first after the last."""

    def __init__(self, paras, start=0):
        self.paras, self.at = paras, start % len(paras)

    def next(self):
        p = self.paras[self.at]
        self.at = (self.at + 1) % len(self.paras)
        return p

    def words(self, n):
        """Whole paragraphs, at least n words in all."""
        out, count = [], 0
        while count < n:
            out.append(self.next())
            count += len(out[-1].split())
        return out

    def caption(self, limit):
        """The opening sentences of the next paragraph whose first sentence fits in `limit` characters."""
        while True:
            text = ""
            for s in SENTENCE.findall(self.next()):
                if len(text) + len(s) + 1 > limit:
                    break
                text = f"{text} {s}" if text else s
            if text:
                return text
