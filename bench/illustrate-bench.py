#!/usr/bin/env python3
"""Times `bookrender illustrate` against the loopback provider server with 2 s per call:
time to the cover and total time for a generated 24-page book, at each concurrency given."""
import json, os, subprocess, sys, tempfile, time, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
binary = os.environ.get("BOOKRENDER_BIN") or os.path.join(HERE, "..", ".build-illustrate", "debug", "bookrender")
latency = float(os.environ.get("LATENCY", "2"))
pages = int(os.environ.get("PAGES", "24"))
levels = [int(x) for x in (sys.argv[1:] or ["1", "4"])]

def png8x8():
    import struct, zlib
    raw = b"".join(b"\x00" + b"\xc8\x37\x80" * 8 for _ in range(8))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

HERO = png8x8()

def make_book(folder):
    os.makedirs(os.path.join(folder, "images"))
    open(os.path.join(folder, "images", "hero.png"), "wb").write(HERO)
    book = {"schema": 1, "kind": "storybook", "title": "Benchmark", "artStyle": "Kid's Book",
            "cover": {"title": "Benchmark"},
            "characters": {"main": {"name": "Tam", "description": "a small otter", "image": "images/hero.png"}},
            "pages": [{"type": "illustration", "id": "p%02d" % i, "text": "Page %d." % i,
                       "scene": "SCENE-%02d Tam by the sea, moment %d." % (i, i)} for i in range(1, pages + 1)]}
    json.dump(book, open(os.path.join(folder, "book.json"), "w"), indent=1)
    return os.path.join(folder, "book.json")

work = tempfile.mkdtemp(prefix="illustrate-bench-")
control = os.path.join(work, "control.json")
json.dump({"latency": latency}, open(control, "w"))
server = subprocess.Popen([sys.executable, os.path.join(HERE, "illustrate-provider-server.py"), "--control", control,
                           "--log", os.path.join(work, "requests.jsonl")], stdout=subprocess.PIPE, text=True)
port = int(server.stdout.readline())
try:
    print("bookrender illustrate, %d pages + cover, %.1f s per call (loopback server), openai wire format" % (pages, latency))
    for n in levels:
        folder = os.path.join(work, "c%d" % n)
        book = make_book(folder)
        env = dict(os.environ, OPENAI_API_KEY="sk-bench-not-a-key")
        start = time.monotonic()
        p = subprocess.Popen([binary, "illustrate", book, "--provider", "openai", "--concurrency", str(n),
                              "--base-url", "http://127.0.0.1:%d" % port, "--cache", os.path.join(folder, "cache")],
                             stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
        cover = first = None
        for line in p.stderr:
            now = time.monotonic() - start
            if cover is None and "cover (cover): ready" in line:
                cover = now
            if first is None and "(p01): ready" in line:
                first = now
            if "call(s) made" in line:
                summary = line.strip()
        p.wait()
        total = time.monotonic() - start
        print("concurrency %d: cover after %.2f s, page 1 after %.2f s, all %d pictures after %.2f s  (%s)"
              % (n, cover or -1, first or -1, pages + 1, total, summary.replace("illustrate: ", "")))
finally:
    server.kill()
    server.wait()
    shutil.rmtree(work, ignore_errors=True)
