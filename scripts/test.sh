#!/usr/bin/env bash
# Installs what is missing and runs the whole test suite (unit, golden-free rendering checks with
# poppler and qpdf, and CLI tests against the built binary). Arguments, if any, go to `swift test`
# (`scripts/test.sh --filter ShapeCacheTests`), which then runs them in one process.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
# The command-line tests run the optimized binary, as users get it: it is where most of the
# suite's time goes, and it takes half the time a debug build does. The library's own tests run
# in the debug build, with its checks.
. scripts/release-flags.sh
# shellcheck disable=SC2086
swift build -c release $RELEASE_SWIFT_FLAGS --product bookrender
# shellcheck disable=SC2086
BOOKRENDER_BIN="$(swift build -c release $RELEASE_SWIFT_FLAGS --show-bin-path)/bookrender"
export BOOKRENDER_BIN
if [ $# -gt 0 ]; then
    exec swift test --skip-build --disable-xctest "$@"
fi

# The suite runs as several processes side by side. Many tests spend their time waiting for a
# program or a server, and inside one process a waiting test holds one of the few threads Swift's
# concurrency pool has (as many as there are cores), so one process leaves the cores idle while
# its threads wait. Each shard takes the tests its pattern matches that no earlier shard took, and
# the last one takes the rest, so every test runs exactly once and a new suite needs no entry here.
shards=(
    # Building the example package that depends on the library is the longest single test when
    # the library changed: a process of its own, started first, so nothing queues before it.
    '^CLITests\.LibraryConsumerTests/'
    '^CLITests\.(FuzzTests|HandBrokenPDFTests|LimitsCLITests|LongPrintBookCLITests|PrintRuleCorpusTests)/'
    '^CLITests\.'
    '^BookIllustrateTests\.'
    '^(BookServeTests|BookOrderTests|BookBatchTests)\.'
)
tests="$(swift build --show-bin-path)/bookrenderPackageTests.xctest"
logs=$(mktemp -d "${TMPDIR:-/tmp}/bookrender-test-logs.XXXXXX")
pids=()
start() { # log file, then the runner's arguments
    local log=$1
    shift
    # A command put in the background by a script starts with SIGINT and SIGQUIT ignored, and
    # what it starts inherits that; the tests that stop a run with SIGINT need the default back
    # (as `swift test` gives its runner).
    env --default-signal=INT,QUIT "$tests" --testing-library swift-testing "$@" >"$log" 2>&1 &
    pids+=($!)
}
taken=""
for i in "${!shards[@]}"; do
    if [ -z "$taken" ]; then
        start "$logs/$i.log" --filter "${shards[$i]}"
    else
        start "$logs/$i.log" --filter "${shards[$i]}" --skip "$taken"
    fi
    taken="${taken:+$taken|}${shards[$i]}"
done
start "$logs/${#shards[@]}.log" --skip "$taken"

# Every shard's output is shown whole, one after the other, then each shard's result line; also
# when the run is stopped.
shown=0
show() {
    [ "$shown" = 1 ] && return
    shown=1
    local logfiles
    logfiles=$(ls "$logs"/*.log | sort -V)
    for log in $logfiles; do cat "$log"; done
    echo
    for log in $logfiles; do
        echo "shard $(basename "$log" .log): $(grep -a 'Test run with' "$log" | tail -1 || echo 'no result (stopped or crashed)')"
    done
    rm -rf "$logs"
}
trap 'kill "${pids[@]}" 2>/dev/null || true; show; exit 1' INT TERM
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
show
exit "$status"
