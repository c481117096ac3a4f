#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Scripts/Fuzz (a separate package, so the normal build never sees
# -sanitize=fuzzer) and runs each with a time budget.
#
#   Scripts/fuzz.sh                     # every target, 600 s each, one after another
#   Scripts/fuzz.sh 30 JSONValueFuzzer  # one target, 30 s
#   FUZZ_JOBS=2 Scripts/fuzz.sh 600     # two targets at a time
#
# Seeds: Scripts/Fuzz/Corpus/<target>/ (committed). The corpus libFuzzer grows goes to
# Scripts/.fuzz/corpus/<target>/ and crashes to Scripts/.fuzz/artifacts/<target>/ (both gitignored).
# Exits non-zero if any target finds a crash, a hang (-timeout) or runs past -rss_limit_mb.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

seconds=${1:-600}
shift || true
all_targets=(LinkHeaderFuzzer RetryAfterFuzzer ErrorBodyFuzzer JSONValueFuzzer TimetableFuzzer BasecampModelFuzzer MarkbookFuzzer WebhookEventFuzzer)
if [ "$#" -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi
jobs=${FUZZ_JOBS:-1}
scratch="$root/.build-fuzz"
work="$root/Scripts/.fuzz"

# One combined -sanitize flag: swiftc keeps only the last -sanitize= it is given, so SwiftPM's
# `--sanitize=fuzzer --sanitize=address` would silently build without coverage instrumentation
# (libFuzzer then reports "no interesting inputs" and fuzzes blind).
build_flags=(--package-path Scripts/Fuzz --scratch-path "$scratch" -c release
    --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)

echo "== building fuzzers (scratch: $scratch)"
for target in "${targets[@]}"; do
    swift build "${build_flags[@]}" --product "$target"
done
bin=$(swift build "${build_flags[@]}" --show-bin-path)

run_one() {
    local target=$1
    mkdir -p "$work/corpus/$target" "$work/artifacts/$target" "$work/logs"
    local log="$work/logs/$target.log"
    echo "== $target: ${seconds}s (log: $log)"
    local extra=()
    # The Markbook harness drives the async client from a Task; the Task's captured input can
    # outlive the callback by a moment, which LeakSanitizer reports as a leak after every run.
    # Memory stays bounded by -rss_limit_mb either way.
    if [ "$target" = MarkbookFuzzer ]; then extra=(-detect_leaks=0); fi
    set +e
    "$bin/$target" "$work/corpus/$target" "Scripts/Fuzz/Corpus/$target" "${extra[@]}" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/$target/" >"$log" 2>&1
    local status=$?
    set -e
    local runs rss
    runs=$(awk '/^stat::number_of_executed_units/ {print $2}' "$log")
    rss=$(awk '/^stat::peak_rss_mb/ {print $2}' "$log")
    echo "   $target: exit $status, ${seconds}s, executions ${runs:-?}, peak RSS ${rss:-?} MB"
    return $status
}

failed=0
pids=()
names=()
for target in "${targets[@]}"; do
    run_one "$target" &
    pids+=($!)
    names+=("$target")
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
done
for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
        echo "error: ${names[$i]} failed; see $work/logs/${names[$i]}.log and $work/artifacts/${names[$i]}/" >&2
        failed=1
    fi
done
exit $failed
