#!/usr/bin/env python3
"""Mutates books and their pictures and runs bookrender on each, looking for what must never happen.

    python3 fuzz/fuzz.py --binary .build/debug/bookrender --cases 300 --seed 1 [--jobs 2] [--out DIR]

Each case copies one seed book (a golden case or a sample app file) into a folder of its own,
mutates its JSON (a hostile value at a random place, a token out of range, a page repeated, the
bytes cut or flipped) or one of its pictures (cut short, bytes flipped, a header claiming huge
dimensions, emptied, or replaced by a symlink out of the book, a FIFO, a device or a folder), and runs `validate`, `info` and `export` on it under a memory limit and a
time-out. A case fails when a command

- dies from a signal or is killed by the memory limit (a crash or an abort),
- runs past the time-out (a hang),
- exits with a code bookrender does not document for a bad book (0, 64, 65, 66, 73 are the ones
  a run on its own input may give),
- fails without naming the file it read and where in it (a JSON path `$…`, a line, or a page),
- or writes a PDF that `qpdf --check` rejects.

The same seed gives the same cases. Failing cases are kept under --out with their command lines and
output; the summary is printed as JSON, and the exit code is 1 when any case failed.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Some mutations nest arrays thousands deep, which Python's JSON encoder walks recursively.
sys.setrecursionlimit(50_000)
DOCUMENTED_EXITS = {0, 64, 65, 66, 73}

HOSTILE_NUMBERS = [0, -1, 0.001, 1e6, 1e308, -1e308, 2 ** 63, 1e-308, 500, 12345678901234567890]
HOSTILE_STRINGS = [
    "", " ", "\u0000\u0001\u0007\u001b[31m\u007f", "\u202e\u2066 mirrored \u2069", "../../../../etc/passwd",
    "/etc/passwd", "images/../../outside.jpg", "data:image/png;base64,AAAA", "data:,", "#GGGGGG", "#12",
    "https://", "javascript:alert(1)", "%s%n%x", "\ud7ff\ue000\ufffd\uffff",
]
TOKEN_PATHS = [
    ("typography", "body", "size"), ("typography", "body", "lineHeight"), ("typography", "body", "indent"),
    ("typography", "body", "weight"), ("typography", "title", "size"), ("typography", "caption", "size"),
    ("typography", "chapterTitle", "size"), ("typography", "pageNumber", "size"),
    ("sizing", "cornerRadius"), ("sizing", "shadow", "radius"), ("sizing", "shadow", "y"), ("sizing", "shadow", "opacity"),
    ("sizing", "margins", "top"), ("sizing", "margins", "inner"), ("palette", "accent"), ("palette", "ink"),
]


def seed_books():
    """(folder, book file name) of every golden case and sample app file."""
    books = []
    goldens = os.path.join(ROOT, "Tests", "Goldens")
    for feature in sorted(os.listdir(goldens)):
        folder = os.path.join(goldens, feature)
        if not os.path.isdir(folder):
            continue
        for case in sorted(os.listdir(folder)):
            case_folder = os.path.join(folder, case)
            if not os.path.isdir(case_folder):
                continue
            jsons = sorted(f for f in os.listdir(case_folder) if f.endswith(".json"))
            if jsons:
                books.append((case_folder, "book.json" if "book.json" in jsons else jsons[0]))
    for app in ("memoirai", "roger", "infinitestories"):
        folder = os.path.join(ROOT, "samples", "apps", app)
        jsons = sorted(f for f in os.listdir(folder) if f.endswith(".json"))
        books.append((folder, jsons[0]))
    return books


def hostile_value(rng):
    kind = rng.randrange(9)
    if kind < 3:
        return rng.choice(HOSTILE_NUMBERS) * rng.choice([1, -1])
    if kind < 5:
        return rng.choice(HOSTILE_STRINGS)
    if kind == 5:
        return rng.choice(["x", "word ", "\U0001F98A", "\u05d0\u0628 ", "\u00ad"]) * rng.choice([1000, 20000, 200000])
    if kind == 6:
        value = 1
        for _ in range(rng.choice([10, 200, 2000])):
            value = [value]
        return value
    if kind == 7:
        return rng.choice([None, True, False, {}, [], {"base64": "!!!!"}, {"path": 7}])
    return rng.choice([float("nan"), float("inf")]) if rng.random() < 0.3 else -rng.random() * 10 ** rng.randrange(12)


def places(node, path=()):
    """Every (container, key) in the JSON tree."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out.append((node, k))
            out.extend(places(v, path + (k,)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.append((node, i))
            out.extend(places(v, path + (i,)))
    return out


def mutate_json(book, rng):
    """Returns (description, mutated value) for a parsed book."""
    choice = rng.randrange(6)
    if choice <= 1:
        spots = places(book)
        if not spots:
            return "unchanged", book
        container, key = rng.choice(spots)
        value = hostile_value(rng)
        container[key] = value
        return f"value at {key!r} replaced by {describe(value)}", book
    if choice == 2 and isinstance(book, dict):
        path = rng.choice(TOKEN_PATHS)
        value = rng.choice(HOSTILE_NUMBERS + HOSTILE_STRINGS[:4]) * 1 if rng.random() < 0.8 else hostile_value(rng)
        node = book.setdefault("tokens", {}) if isinstance(book.get("tokens", {}), dict) else {}
        for part in path[:-1]:
            nxt = node.get(part)
            if not isinstance(nxt, dict):
                nxt = {}
                node[part] = nxt
            node = nxt
        node[path[-1]] = value
        return f"tokens.{'.'.join(path)} = {describe(value)}", book
    if choice == 3 and isinstance(book, dict) and isinstance(book.get("pages"), list) and book["pages"]:
        page = rng.choice(book["pages"])
        count = rng.choice([300, 3000])
        book["pages"] = book["pages"] + [page] * count
        return f"a page repeated {count} times", book
    if choice == 4 and isinstance(book, dict):
        spots = [(c, k) for c, k in places(book) if isinstance(c, dict)]
        if spots:
            container, key = rng.choice(spots)
            del container[key]
            return f"field {key!r} removed", book
    spots = places(book)
    if spots:
        container, key = rng.choice(spots)
        value = container[key]
        swapped = {str: 7, int: "seven", float: [], bool: "yes", list: {}, dict: []}.get(type(value), "x")
        container[key] = swapped
        return f"value at {key!r} changed type to {type(swapped).__name__}", book
    return "unchanged", book


def describe(value):
    text = json.dumps(value, ensure_ascii=True) if not isinstance(value, float) or value == value else "NaN"
    return text if len(text) <= 60 else text[:57] + f"… ({len(text)} chars)"


def mutate_bytes(data, rng):
    data = bytearray(data)
    choice = rng.randrange(4)
    if choice == 0 and data:
        cut = rng.randrange(len(data))
        return f"cut at byte {cut} of {len(data)}", bytes(data[:cut])
    if choice == 1 and data:
        for _ in range(rng.randrange(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return "bytes flipped", bytes(data)
    if choice == 2:
        where = rng.randrange(len(data) + 1)
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
        return f"{len(junk)} bytes inserted at {where}", bytes(data[:where] + junk + data[where:])
    return "emptied", b""


def huge_dimensions(data, rng):
    """A PNG or JPEG whose header claims an enormous picture, the rest as it was."""
    width, height = rng.choice([(30000, 30000), (65000, 65000), (1, 65000), (65535, 1)])
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 33:
        ihdr = bytearray(data[12:29])
        ihdr[4:12] = struct.pack(">II", width, height)
        crc = struct.pack(">I", zlib.crc32(bytes(ihdr)) & 0xFFFFFFFF)
        return f"PNG header says {width}×{height}", data[:12] + bytes(ihdr) + crc + data[33:]
    if data.startswith(b"\xff\xd8"):
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                break
            marker = data[i + 1]
            length = struct.unpack(">H", data[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2):
                patched = bytearray(data)
                patched[i + 5:i + 9] = struct.pack(">HH", min(height, 65535), min(width, 65535))
                return f"JPEG header says {width}×{height}", bytes(patched)
            i += 2 + length
    return "unchanged", data


def replace_file(path, rng):
    """Puts something that is not a picture file of the book where a picture was."""
    os.remove(path)
    kind = rng.randrange(5)
    if kind == 0:
        os.symlink("/etc/passwd", path)
        return "a symlink to /etc/passwd"
    if kind == 1:
        os.symlink("/dev/zero", path)
        return "a symlink to /dev/zero"
    if kind == 2:
        os.mkfifo(path)
        return "a FIFO"
    if kind == 3:
        os.mkdir(path)
        return "a folder"
    os.symlink(os.path.join("..", "..", os.path.basename(path)), path)
    return "a symlink out of the book folder"


def pictures_of(folder):
    found = []
    for dirpath, _, files in os.walk(folder):
        for f in files:
            if f.lower().endswith((".jpg", ".jpeg", ".png")) and "expected" not in dirpath:
                found.append(os.path.relpath(os.path.join(dirpath, f), folder))
    return sorted(found)


def make_case(index, seed, books, work):
    rng = random.Random(f"{seed}:{index}")
    source, name = books[rng.randrange(len(books))]
    folder = os.path.join(work, f"case-{index:05d}")
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("expected", "*.py"))
    book_path = os.path.join(folder, name)
    with open(book_path, "rb") as f:
        raw = f.read()
    pictures = pictures_of(folder)
    what = rng.random()
    if what < 0.55:
        description, mutated = mutate_json(json.loads(raw), rng)
        with open(book_path, "w") as f:
            json.dump(mutated, f, ensure_ascii=rng.random() < 0.5, allow_nan=True)
    elif what < 0.7 or not pictures:
        description, data = mutate_bytes(raw, rng)
        description = "book.json " + description
        with open(book_path, "wb") as f:
            f.write(data)
    elif what < 0.78:
        picture = rng.choice(pictures)
        description = f"{picture}: {replace_file(os.path.join(folder, picture), rng)}"
    else:
        picture = rng.choice(pictures)
        with open(os.path.join(folder, picture), "rb") as f:
            data = f.read()
        if rng.random() < 0.4:
            description, data = huge_dimensions(data, rng)
        else:
            description, data = mutate_bytes(data, rng)
        description = f"{picture}: {description}"
        with open(os.path.join(folder, picture), "wb") as f:
            f.write(data)
    return {"case": index, "seed": os.path.relpath(os.path.join(source, name), ROOT), "mutation": description,
            "folder": folder, "book": book_path}


def limits(memory_bytes):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def run(command, timeout, memory_bytes, env):
    try:
        p = subprocess.run(command, capture_output=True, timeout=timeout, preexec_fn=limits(memory_bytes), env=env)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        return "timeout", "", (e.stderr or b"").decode("utf-8", "replace")


def names_its_place(stderr, case):
    """A failure message names a file of the book and a place in it (or says what to do with the whole file)."""
    files = [os.path.basename(case["book"])] + [os.path.basename(p) for p in pictures_of(case["folder"])]
    names_file = any(f in stderr for f in files) or case["folder"] in stderr
    names_place = bool(re.search(r"\$[.\[]|line \d+|:\d+:\d+|page \d+|pages \d+", stderr))
    whole_file = bool(re.search(r"not an object|cannot read|not a JSON|is empty|does not exist|no such file|expected one of", stderr, re.I))
    return names_file and (names_place or whole_file)


def check_case(case, binary, timeout, memory_bytes, qpdf):
    env = dict(os.environ, BOOKRENDER_HOME=ROOT)
    problems = []
    pdf = os.path.join(case["folder"], "out", "book.pdf")
    commands = [
        ("validate", [binary, "validate", case["book"]]),
        ("info", [binary, "info", case["book"]]),
        ("export", [binary, "export", case["book"], "-o", pdf, "--workers", "2"]),
    ]
    results = []
    for name, command in commands:
        code, out, err = run(command, timeout, memory_bytes, env)
        results.append({"command": name, "exit": code, "stderr": err[-2000:]})
        if code == "timeout":
            problems.append(f"{name}: hang (no end within {timeout} s)")
        elif code < 0:
            problems.append(f"{name}: killed by signal {-code}")
        elif code not in DOCUMENTED_EXITS:
            problems.append(f"{name}: exit {code}, not a documented code for a bad book")
        elif code != 0 and not names_its_place(err, case):
            problems.append(f"{name}: exit {code} without naming the file and the place: {err.strip()[:300]!r}")
        elif code == 0 and name == "export" and qpdf:
            check = subprocess.run([qpdf, "--check", pdf], capture_output=True)
            if check.returncode != 0:
                problems.append(f"export: qpdf --check exit {check.returncode}: {check.stdout.decode()[-300:]}")
    case = dict(case, results=results, problems=problems)
    return case


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "bookrender"))
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=60, help="seconds a command may take")
    parser.add_argument("--memory", type=float, default=4, help="GiB of address space a command may use")
    parser.add_argument("--out", help="folder for the failing cases (default: a temporary folder, removed)")
    args = parser.parse_args()

    books = seed_books()
    work = tempfile.mkdtemp(prefix="bookrender-fuzz-")
    qpdf = shutil.which("qpdf")
    memory_bytes = int(args.memory * (1 << 30))
    failures, exits = [], {}
    try:
        cases = [make_case(i, args.seed, books, work) for i in range(args.cases)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for case in pool.map(lambda c: check_case(c, args.binary, args.timeout, memory_bytes, qpdf), cases):
                for r in case["results"]:
                    key = f"{r['command']} {r['exit']}"
                    exits[key] = exits.get(key, 0) + 1
                if case["problems"]:
                    failures.append(case)
                    if args.out:
                        kept = os.path.join(args.out, os.path.basename(case["folder"]))
                        shutil.rmtree(kept, ignore_errors=True)
                        try:
                            shutil.copytree(case["folder"], kept, symlinks=True)
                        except shutil.Error:
                            pass  # a FIFO is not copied; the case's description says it was there
                        with open(os.path.join(kept, "fuzz-case.json"), "w") as f:
                            json.dump(case, f, indent=2)
                else:
                    shutil.rmtree(case["folder"], ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = {
        "seed": args.seed, "cases": args.cases, "failed": len(failures), "exits": dict(sorted(exits.items())),
        "failures": [{"case": c["case"], "seed book": c["seed"], "mutation": c["mutation"], "problems": c["problems"]}
                     for c in failures],
    }
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
