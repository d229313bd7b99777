#!/usr/bin/env python3
"""Compares builds of bookrender on the benchmark's memoir and picture book, without the other tools.

    python3 bench/builds.py [--runs N] [--books memoir,picture] NAME=PATH NAME=PATH ...

The first build is the baseline. Each round runs every build once, the order turned by one each
round; a run during which other processes took more than 15 % of the CPUs is run again (as in
bench.py). Prints, per build, the median wall time, CPU time (user + system) and peak RSS, and the
median over the rounds of its wall and CPU time divided by the baseline's in the same round, with
the quartiles of the wall ratio. Run bench/run.sh once first: it makes the corpus.
"""
import argparse, os, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, ".work", "corpus")
OUT = os.path.join(HERE, ".work", "builds")
QUIET, RETRIES = 0.15, 20


def machine_busy():
    with open("/proc/stat") as f:
        user, nice, system, idle, iowait, irq, softirq, steal = map(int, f.readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def run(binary, book, pdf):
    """Wall time (s), CPU time (s), peak RSS (MiB) and the share of the CPUs others took."""
    if os.path.exists(pdf):
        os.remove(pdf)
    os.sync()
    busy, start = machine_busy(), time.perf_counter()
    p = subprocess.Popen([binary, "export", os.path.join(CORPUS, book, "book.json"), "-o", pdf],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        raise SystemExit(f"{binary} failed ({p.returncode}) on {book}:\n{err.decode(errors='replace')[-2000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, usage.ru_maxrss / 1024, (machine_busy() - busy - cpu) / (wall * os.cpu_count())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--books", default="memoir,picture")
    ap.add_argument("builds", nargs="+", metavar="NAME=PATH")
    args = ap.parse_args()
    builds = dict(b.split("=", 1) for b in args.builds)
    names = list(builds)
    os.makedirs(OUT, exist_ok=True)
    repeated = 0
    print("| book | build | wall ms | CPU ms | peak RSS MiB | wall ÷ first (quartiles) | CPU ÷ first |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for book in args.books.split(","):
        got = {n: [] for n in names}
        for r in range(args.runs):
            for n in names[r % len(names):] + names[:r % len(names)]:
                for attempt in range(RETRIES):
                    wall, cpu, rss, others = run(builds[n], book, os.path.join(OUT, f"{book}-{n}.pdf"))
                    # /proc/stat counts in ticks of 10 ms: a few of them are no sign of anyone else.
                    if others <= max(QUIET, 0.03 / (wall * os.cpu_count())) or attempt == RETRIES - 1:
                        break
                    repeated += 1
                    time.sleep(2)
                got[n].append((wall, cpu, rss))
        base = got[names[0]]
        for n in names:
            walls = [g[0] / b[0] for g, b in zip(got[n], base)]
            cpus = [g[1] / b[1] for g, b in zip(got[n], base)]
            q = statistics.quantiles(walls, n=4) if len(walls) > 1 else [walls[0]] * 3
            med = lambda i: statistics.median(g[i] for g in got[n])
            print(f"| {book} | {n} | {med(0) * 1000:.1f} | {med(1) * 1000:.1f} | {med(2):.1f} | "
                  f"{statistics.median(walls):.3f} ({q[0]:.3f}–{q[2]:.3f}) | {statistics.median(cpus):.3f} |")
        sys.stdout.flush()
    print(f"\n{args.runs} rounds per book; runs repeated because other processes took the CPUs: {repeated}")


if __name__ == "__main__":
    main()
