#!/usr/bin/env bash
# Runs the test suite under the sanitizers, each in its own scratch directory so the shared .build
# is never rebuilt with instrumentation.
#
#   Scripts/sanitize.sh           # both
#   Scripts/sanitize.sh thread    # ThreadSanitizer on the concurrency-heavy suites
#   Scripts/sanitize.sh address   # AddressSanitizer on the whole suite
set -euo pipefail
cd "$(dirname "$0")/.."

# Suites where several tasks share a client, a credential, a cache or a page stream:
# auth single-flight + refresh, session renewal (HTTPCore's and the Markbook SDK's), cache
# (memory + disk), pagination prefetch, polling, retry/budget, the loopback suites (auth, transport
# contract over URLSession and AsyncHTTPClient, cache and pagination over real HTTP, the
# AsyncHTTPClient transport's own tests), and the chaos soaks (16 tasks through shared clients;
# 1,000 operations each here).
tsan_filter='AuthRefreshTests|AuthSessionTests|MarkbookTests\.SessionTests|AuthCredentialStoreTests|CacheTests|CacheStorageTests|PaginationTests|PollingTests|RetryTests|AuthLoopbackTests|TransportContractTests|CachePaginationLoopbackTests|AsyncHTTPClientTransportTests|SoakTests'

# HTTPCORE_SANITIZER tells the loopback tests (SanitizerRun in Tests/LoopbackTests/LoopbackSupport.swift)
# that the process is instrumented: TSan runs it 5-15x slower, ASan about 2x, with the in-process
# sandboxes and the rest of the suite in parallel on the same cores. They then allow 4x longer for
# waits they do not measure (client and connect timeouts, server delays that must outlast a client
# timeout), and skip the three tests whose assertion is itself a wall-clock bound; each has failed
# in a full TSan or ASan run on a busy machine with no sanitizer report:
#   - "The timeout is an idle timeout while the body streams" (TransportContractTests) and
#     "A body that keeps arriving outlives several timeouts" (AsyncHTTPClientTransportTests):
#     100 ms body gaps must never add up to the idle timeout; a gap has been stretched past 5 s.
#   - "A body that stalls after its first part is timedOut with the body's message"
#     (AsyncHTTPClientTransportTests): which message comes depends on the head arriving in time.
# The code paths they cover still run under both sanitizers: the contract's stalled-body, no-head
# timeout, body-limit, error-body-limit and cancellation tests, on both transports. Each mode
# prints what its run skipped.

# Runs `swift test "$@"` with output to the terminal and $log, then lists what the run skipped and
# counts sanitizer reports, so a clean result is visibly clean. (Swift Testing marks a passed test
# ✔, a failed one ✘ and a skipped one ➜; its run summary counts skipped tests as tests.)
run_logged() {
    local log=$1
    shift
    local status=0
    swift test "$@" 2>&1 | tee "$log" || status=$?
    local passed failed skipped reports
    passed=$(grep -E '^✔ Test ' "$log" | grep -vc '^✔ Test run with' || true)
    failed=$(grep -E '^✘ Test .*failed after' "$log" | grep -vc '^✘ Test run with' || true)
    skipped=$(grep -c '^➜ Test ' "$log" || true)
    reports=$(grep -c -E '(WARNING|ERROR): (ThreadSanitizer|AddressSanitizer)' "$log" || true)
    echo "== skipped in this run:"
    grep -E '^➜ (Test|Suite) ' "$log" | sed 's/^/   /' || echo "   (none)"
    echo "== tests: $passed passed, $failed failed, $skipped skipped; sanitizer reports: $reports"
    local summary
    summary=$(grep -e '^✔ Test run with' -e '^✘ Test run with' "$log" | tail -1 || true)
    echo "== ${summary:-no test summary (the run did not finish)}"
    echo "== full log: $log"
    return $status
}

run_thread() {
    echo "== swift test --sanitize=thread (filter: $tsan_filter)"
    echo "   HTTPCORE_SANITIZER=thread: longer waits; 3 wall-clock tests skip themselves (listed at the end)"
    mkdir -p .build-tsan
    HTTPCORE_SANITIZER=thread SOAK_OPERATIONS="${SOAK_OPERATIONS:-1000}" \
        TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
        run_logged .build-tsan/sanitize-thread.log \
        --sanitize=thread --scratch-path .build-tsan --filter "$tsan_filter"
}

run_address() {
    echo "== swift test --sanitize=address (the whole suite, child processes too)"
    # Leak checking is off: the Swift runtime's metadata caches and long-lived singletons
    # (URLSession, the NIO event loop group) are reported as leaks at exit. The built tools the
    # tests start inherit ASAN_OPTIONS (BuiltExecutable.inheritedVariables), so they do not exit 1
    # on those reports either.
    echo "   HTTPCORE_SANITIZER=address: longer waits; 3 wall-clock tests skip themselves (listed at the end)"
    mkdir -p .build-asan
    HTTPCORE_SANITIZER=address ASAN_OPTIONS="detect_leaks=0 halt_on_error=1 ${ASAN_OPTIONS:-}" \
        run_logged .build-asan/sanitize-address.log \
        --sanitize=address --scratch-path .build-asan
}

case "${1:-all}" in
    thread) run_thread ;;
    address) run_address ;;
    all) run_thread; run_address ;;
    *) echo "usage: $0 [thread|address|all]" >&2; exit 64 ;;
esac
