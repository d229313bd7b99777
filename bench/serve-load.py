#!/usr/bin/env python3
"""Load on `bookrender serve`: N books submitted at once, followed until each is done.

Usage: serve-load.py [--binary .build/release/bookrender] [--books 200] [--workers 2] [--dpi 100] [--json OUT]

Starts the service on a free loopback port with a data folder of its own, submits the samples in
turn (the storybook zipped, the memoir with its pictures inline, the three app files), polls each
running job's status and reports: throughput in books per minute, p50/p95 time from submission to
page 1's PNG and to the PDF, the same from the job's start, and the peak memory of the service and of
the service with its export processes (resident set, sampled every half second).
"""
import argparse, base64, io, json, os, secrets, shutil, signal, statistics, subprocess, sys, tempfile, threading, time
import urllib.request, urllib.error, zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def inline(book_path):
    folder = os.path.dirname(book_path)

    def walk(v):
        if isinstance(v, str) and v.endswith((".jpg", ".png")) and os.path.exists(os.path.join(folder, v)):
            data = open(os.path.join(folder, v), "rb").read()
            return "data:image/%s;base64,%s" % ("png" if v.endswith(".png") else "jpeg", base64.b64encode(data).decode())
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        return v

    return json.dumps(walk(json.load(open(book_path)))).encode()


def zipped(folder):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for base, _, files in os.walk(folder):
            for f in sorted(files):
                path = os.path.join(base, f)
                z.write(path, os.path.relpath(path, folder))
    return out.getvalue()


def bodies():
    s = os.path.join(ROOT, "samples")
    return [
        ("storybook.zip", zipped(os.path.join(s, "storybook")), "application/zip"),
        ("memoir.json", inline(os.path.join(s, "memoir", "book.json")), "application/json"),
        ("memoirai", open(os.path.join(s, "apps/memoirai/storybook.json"), "rb").read(), "application/json"),
        ("roger", open(os.path.join(s, "apps/roger/story.json"), "rb").read(), "application/json"),
        ("infinitestories", open(os.path.join(s, "apps/infinitestories/story.json"), "rb").read(), "application/json"),
    ]


def rss_kib(pid):
    try:
        for line in open("/proc/%d/status" % pid):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree(pid):
    children = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(open("/proc/%s/stat" % d).read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def percentile(values, p):
    values = sorted(values)
    if not values:
        return None
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build/release/bookrender"))
    ap.add_argument("--books", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dpi", type=int, default=100)
    ap.add_argument("--json")
    args = ap.parse_args()

    data = tempfile.mkdtemp(prefix="serve-load-")
    token = secrets.token_hex(16)
    log = open(os.path.join(data, "serve.log"), "w+")
    env = dict(os.environ, BOOKRENDER_SERVE_TOKEN=token)
    server = subprocess.Popen([args.binary, "serve", "--data", os.path.join(data, "data"), "--port", "0",
                               "--workers", str(args.workers), "--per-client", str(args.workers)],
                              stdout=log, stderr=log, env=env)
    port = None
    for _ in range(600):
        log.seek(0)
        text = log.read()
        if "listening on http://127.0.0.1:" in text:
            port = int(text.split("listening on http://127.0.0.1:")[1].split()[0])
            break
        time.sleep(0.1)
    if port is None:
        server.kill()
        sys.exit("the service did not start: " + text)
    base = "http://127.0.0.1:%d" % port

    def call(method, path, body=None, ctype=None):
        req = urllib.request.Request(base + path, data=body, method=method,
                                     headers={"Authorization": "Bearer " + token, **({"Content-Type": ctype} if ctype else {})})
        with OPENER.open(req, timeout=600) as r:
            return json.loads(r.read())

    peak = {"server": 0, "tree": 0}
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            peak["server"] = max(peak["server"], rss_kib(server.pid))
            peak["tree"] = max(peak["tree"], sum(rss_kib(p) for p in tree(server.pid)))
            time.sleep(0.5)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()

    kinds = bodies()
    jobs = []
    t0 = time.monotonic()
    for i in range(args.books):
        name, body, ctype = kinds[i % len(kinds)]
        status = call("POST", "/v1/jobs?dpi=%d" % args.dpi, body, ctype)
        jobs.append({"id": status["id"], "kind": name, "submitted": time.monotonic()})
    submitted = time.monotonic() - t0

    pending = list(jobs)
    while pending:
        window = pending[: args.workers + 4]
        for job in window:
            status = call("GET", "/v1/jobs/" + job["id"])
            now = time.monotonic()
            if status["state"] == "running" and "started" not in job:
                job["started"] = now
            if "firstPage" not in job and any(p["number"] == 1 for p in status["pages"]):
                job["firstPage"] = now
            if status["state"] in ("done", "failed", "cancelled"):
                job["state"] = status["state"]
                job["finished"] = now
                job.setdefault("started", now)
                job.setdefault("firstPage", now)
        pending = [j for j in pending if "finished" not in j]
        time.sleep(0.2)
    elapsed = time.monotonic() - t0
    stop.set()
    sampler.join()
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=120)

    done = [j for j in jobs if j.get("state") == "done"]
    result = {
        "books": args.books, "workers": args.workers, "dpi": args.dpi, "done": len(done),
        "failed": len(jobs) - len(done), "submitSeconds": round(submitted, 2), "seconds": round(elapsed, 1),
        "booksPerMinute": round(len(done) / elapsed * 60, 1),
        "firstPageFromSubmit": {"p50": percentile([j["firstPage"] - j["submitted"] for j in done], 50),
                                "p95": percentile([j["firstPage"] - j["submitted"] for j in done], 95)},
        "pdfFromSubmit": {"p50": percentile([j["finished"] - j["submitted"] for j in done], 50),
                          "p95": percentile([j["finished"] - j["submitted"] for j in done], 95)},
        "firstPageFromStart": {"p50": percentile([j["firstPage"] - j["started"] for j in done], 50),
                               "p95": percentile([j["firstPage"] - j["started"] for j in done], 95)},
        "pdfFromStart": {"p50": percentile([j["finished"] - j["started"] for j in done], 50),
                         "p95": percentile([j["finished"] - j["started"] for j in done], 95)},
        "peakMiB": {"service": round(peak["server"] / 1024, 1), "serviceAndExports": round(peak["tree"] / 1024, 1)},
    }
    for k in ("firstPageFromSubmit", "pdfFromSubmit", "firstPageFromStart", "pdfFromStart"):
        result[k] = {q: round(v, 2) if v is not None else None for q, v in result[k].items()}
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        open(args.json, "w").write(text + "\n")
    shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
