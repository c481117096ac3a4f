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
# auth single-flight + refresh, session renewal, cache (memory + disk), pagination prefetch,
# polling, retry/budget, the loopback auth and transport contract tests, and the chaos soak
# (16 tasks through shared clients; 1,000 operations here). The loopback tests have sub-second
# timeouts, which TSan's slowdown can trip on a loaded machine: a timeout there is not a race.
tsan_filter='AuthRefreshTests|AuthSessionTests|AuthCredentialStoreTests|CacheTests|CacheStorageTests|PaginationTests|PollingTests|RetryTests|AuthLoopbackTests|TransportContractTests|SoakTests'

run_thread() {
    echo "== swift test --sanitize=thread (filter: $tsan_filter)"
    SOAK_OPERATIONS="${SOAK_OPERATIONS:-1000}" TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
        swift test --sanitize=thread --scratch-path .build-tsan --filter "$tsan_filter"
}

run_address() {
    echo "== swift test --sanitize=address (whole suite)"
    # Leak checking is off: the Swift runtime's metadata caches and long-lived singletons
    # (URLSession, the NIO event loop group) are reported as leaks at exit.
    # The BinaryTests suites run the built CLIs as child processes with a clean environment, so
    # those children do not see detect_leaks=0 and exit 1 on the runtime's leak reports; skip them.
    ASAN_OPTIONS="detect_leaks=0 halt_on_error=1 ${ASAN_OPTIONS:-}" \
        swift test --sanitize=address --scratch-path .build-asan --skip 'BinaryTests'
}

case "${1:-all}" in
    thread) run_thread ;;
    address) run_address ;;
    all) run_thread; run_address ;;
    *) echo "usage: $0 [thread|address|all]" >&2; exit 64 ;;
esac
