#!/bin/bash
# Runs docs/batch.md's Slurm recipe, as written there, on a real single-node Slurm brought up on
# this machine from Debian's slurm-wlm and munge: a 4-task array over 24 jobs. Checks that every
# good book is rendered exactly once and byte-identical to a plain export, that the broken ones
# fail alone with their errors in the summaries, that a resubmission skips what is done, that a
# scancel mid-run reports the running exports cancelled and starts no other, and that a
# resubmission after it leaves no temporary file.
#
# Needs root (it starts munged, slurmctld and slurmd, and stops the ones it started). A machine
# already running a Slurm whose configuration this script did not write is refused, not changed.
# BOOKRENDER_BIN: the binary to test (default: the debug build).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BOOKRENDER_BIN:-$ROOT/.build/debug/bookrender}
MARK="# written by bookrender's scripts/slurm-test.sh"
say() { echo "slurm-test: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root, to start munged, slurmctld and slurmd"
[ -x "$BIN" ] || fail "no bookrender binary at $BIN; run swift build first or set BOOKRENDER_BIN"

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

# --- a single-node cluster ---------------------------------------------------------------------
started=()
cleanup() {
    scancel --user=root >/dev/null 2>&1 || true
    for daemon in "${started[@]}"; do pkill -x "$daemon" 2>/dev/null || true; done
    # A daemon started with SIGTERM blocked (a parent's signal mask is inherited) ignores it.
    for _ in $(seq 1 50); do
        alive=0
        for daemon in "${started[@]}"; do pgrep -x "$daemon" >/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.2
    done
    for daemon in "${started[@]}"; do pkill -KILL -x "$daemon" 2>/dev/null || true; done
    [ -n "${WORK:-}" ] && [ -z "${KEEP:-}" ] && rm -rf "$WORK"
}
trap cleanup EXIT

conf=/etc/slurm/slurm.conf
if [ -f "$conf" ] && ! grep -qF "$MARK" "$conf"; then
    fail "$conf is not this script's; run on a machine without a Slurm of its own"
fi
node=$(hostname -s)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > "$conf.new" <<EOF
$MARK
ClusterName=bookrender-test
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
KillWait=10
NodeName=$node CPUs=$(nproc) RealMemory=$(( $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) / 2 )) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
if ! cmp -s "$conf.new" "$conf"; then
    mv "$conf.new" "$conf"
    pkill -x slurmctld 2>/dev/null || true
    pkill -x slurmd 2>/dev/null || true
    sleep 1
else
    rm "$conf.new"
fi

if ! pgrep -x munged >/dev/null; then
    [ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
    chown munge:munge /etc/munge/munge.key && chmod 600 /etc/munge/munge.key
    mkdir -p /run/munge && chown munge:munge /run/munge
    runuser -u munge -- /usr/sbin/munged
    started+=(munged)
fi
if ! pgrep -x slurmctld >/dev/null; then slurmctld -i; started+=(slurmctld); fi
if ! pgrep -x slurmd >/dev/null; then slurmd; started+=(slurmd); fi
for _ in $(seq 1 60); do
    sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
    sleep 1
done
sinfo -h -o %T | grep -qE '^(idle|mixed|allocated)' || fail "the node did not come up: $(sinfo 2>&1; tail -5 /var/log/slurm/slurmd.log)"
scontrol update nodename="$node" state=resume >/dev/null 2>&1 || true

# --- 24 jobs: 21 that render, 3 that cannot ----------------------------------------------------
WORK=$(mktemp -d /tmp/bookrender-slurm.XXXXXX)
cd "$WORK"
mkdir -p books bin
ln -s "$BIN" bin/bookrender
export PATH="$WORK/bin:$PATH" BOOKRENDER_HOME="$ROOT"
cp -r "$ROOT/samples/memoir" books/missing-picture
rm books/missing-picture/images/portrait-grey.jpg
printf '{"title": "Broken", "pages": [' > books/broken.json
{
    for i in $(seq 1 10); do
        echo "{\"input\": \"$ROOT/samples/memoir/book.json\", \"output\": \"out/memoir-$i.pdf\"}"
        echo "{\"input\": \"$ROOT/samples/storybook/book.json\", \"output\": \"out/story-$i.pdf\", \"options\": {\"png\": \"out/story-$i\", \"dpi\": 100}}"
    done
    echo "{\"input\": \"books/missing-picture/book.json\", \"output\": \"out/placeholder.pdf\"}"
    echo "{\"input\": \"books/missing-picture/book.json\", \"output\": \"out/strict.pdf\", \"options\": {\"strict\": true}}"
    echo "{\"input\": \"books/broken.json\", \"output\": \"out/broken.pdf\"}"
    echo "{\"input\": \"books/nowhere.json\", \"output\": \"out/nowhere.pdf\"}"
} > jobs.jsonl
good=21
broken=(out/strict.pdf out/broken.pdf out/nowhere.pdf)

# The recipe: the first ```sh block after "## Slurm array" in docs/batch.md, and the command the
# text before it gives to submit it.
awk '/^## Slurm array/ {in_section=1} in_section && /^```sh/ {grab=1; next} grab && /^```/ {exit} grab {print}' \
    "$ROOT/docs/batch.md" > render-books.sh
grep -q '^#SBATCH' render-books.sh || fail "no Slurm script found in docs/batch.md"
chmod +x render-books.sh

submit() {  # Runs the recipe as a 4-task array and waits for it; prints the job id.
    mkdir -p logs
    sbatch --parsable --array=0-3 render-books.sh
}
wait_for() {
    for _ in $(seq 1 600); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 1
    done
    fail "job $1 did not end in 10 minutes: $(squeue)"
}
events_of() { cat logs/"$1"_*.jsonl; }

# --- first run ----------------------------------------------------------------------------------
job=$(submit); say "submitted $job"; wait_for "$job"
[ "$(ls logs/"$job"_*.jsonl | wc -l)" = 4 ] || fail "expected 4 event logs, got: $(ls logs)"
python3 - "$job" "$good" "${broken[@]}" <<'EOF' || fail "first run"
import glob, json, sys
job, good, broken = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
events = []
for path in sorted(glob.glob(f"logs/{job}_*.jsonl")):
    for n, line in enumerate(open(path), 1):
        try: events.append(json.loads(line))
        except ValueError: sys.exit(f"{path}:{n} is not JSON (the human summary belongs in the .log): {line!r}")
finished = [e for e in events if e["event"] == "job"]
by_output = {}
for e in finished: by_output.setdefault(e["output"].split("/out/")[-1], []).append(e)
assert len(finished) == 24, f"{len(finished)} jobs reported, not 24"
assert all(len(v) == 1 for v in by_output.values()), "a job ran twice: " + str({k: len(v) for k, v in by_output.items() if len(v) > 1})
done = [k for k, v in by_output.items() if v[0]["status"] == "done"]
failed = {k: v[0] for k, v in by_output.items() if v[0]["status"] == "failed"}
assert len(done) == good, f"{len(done)} rendered, not {good}"
assert sorted(failed) == sorted(b.split("/")[-1] for b in broken), f"failed: {sorted(failed)}"
placeholder = by_output["placeholder.pdf"][0]
assert placeholder.get("placeholders") == 1 and placeholder.get("warnings"), f"no placeholder reported: {placeholder}"
strict = failed["strict.pdf"]["error"]
assert "--strict" in strict and "drawing a placeholder" not in strict and "$.pages[3]: $.pages[3]" not in strict, strict
summaries = [json.load(open(p)) for p in glob.glob("summaries/*.json")]
assert len(summaries) == 4, f"{len(summaries)} summaries"
errors = {j["output"].split("/out/")[-1]: j.get("error") for s in summaries for j in s["jobs"] if j["status"] == "failed"}
assert all(errors.get(b.split("/")[-1]) for b in broken), f"summaries lack the errors: {errors}"
EOF
grep -q "job(s) in shard" logs/"$job"_0.log || fail "the human summary is not in logs/${job}_0.log"

# Byte-identical to a plain export on this machine.
for i in 1 7; do
    bookrender export "$ROOT/samples/memoir/book.json" -o local-memoir.pdf 2>/dev/null
    cmp -s local-memoir.pdf "out/memoir-$i.pdf" || fail "out/memoir-$i.pdf differs from a plain export"
done
bookrender export "$ROOT/samples/storybook/book.json" -o local-story.pdf --png local-story --dpi 100 2>/dev/null
cmp -s local-story.pdf out/story-3.pdf || fail "out/story-3.pdf differs from a plain export"
diff -rq local-story out/story-3 >/dev/null || fail "out/story-3's pages differ from a plain export's"
say "first run: 24 jobs each once, $good rendered, 3 failed alone"

# --- resubmitted: everything done is skipped ----------------------------------------------------
job=$(submit); wait_for "$job"
python3 - "$job" "$good" <<'EOF' || fail "resubmission"
import glob, json, sys
job, good = sys.argv[1], int(sys.argv[2])
events = [json.loads(l) for p in glob.glob(f"logs/{job}_*.jsonl") for l in open(p)]
status = [e["status"] for e in events if e["event"] == "job"]
assert status.count("skipped") == good and status.count("done") == 0, status
EOF
say "resubmission: $good skipped, none rendered again"

# --- cancelled mid-run, then resubmitted ------------------------------------------------------
rm -rf out logs summaries
job=$(submit)
for _ in $(seq 1 600); do
    [ -n "$(find out -name '*.partial-*' 2>/dev/null | head -1)" ] && break
    sleep 0.2
done
[ -n "$(find out -name '*.partial-*' 2>/dev/null | head -1)" ] || fail "never saw an export under way to cancel"
scancel "$job"
wait_for "$job"
say "cancelled $job with $(find out -name '*.partial-*' | wc -l) temporaries left at that moment"
# Each task reports the exports the cancel stopped as cancelled, not crashed, and starts no job
# after it.
python3 - "$job" <<'EOF' || fail "the cancelled run's events"
import glob, json, sys
cancelled = 0
for path in sorted(glob.glob(f"logs/{sys.argv[1]}_*.jsonl")):
    events = [json.loads(line) for line in open(path) if line.strip()]
    jobs = [e for e in events if e["event"] == "job"]
    crashed = [e for e in jobs if "crashed" in (e.get("error") or "")]
    assert not crashed, f"{path}: reported as crashes: {crashed}"
    stopped = [i for i, e in enumerate(events) if e["event"] == "job" and e["status"] == "cancelled"]
    cancelled += len(stopped)
    if stopped:
        later = [e for e in events[stopped[0]:] if e["event"] == "job-start"]
        assert not later, f"{path}: jobs started after the cancel: {later}"
        summary = [e for e in events if e["event"] == "summary"]
        assert summary and summary[-1]["cancelled"] == len(stopped), f"{path}: no summary counting the cancelled jobs"
assert cancelled > 0, "no job was reported cancelled"
EOF
job=$(submit); wait_for "$job"
left=$(find "$WORK" -name '*.partial-*')
[ -z "$left" ] || fail "temporaries left after the resubmission: $left"
rendered=$(ls out/*.pdf | wc -l)
[ "$rendered" = "$good" ] || fail "$rendered PDFs after the resubmission, not $good"
say "cancel and resubmit: no temporaries left, $good PDFs"
say "passed"
