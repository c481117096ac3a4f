#!/usr/bin/env bash
# CI: proves the benchmark package (Scripts/Benchmarks) still compiles, passes its unit tests and
# runs every workload end to end (debug build, tiny sizes). It checks that the table is printed,
# not the numbers: those need Scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/Benchmarks"
swift build --build-tests >&2
swift test --skip-build >&2
output=$(timeout 120 swift run --skip-build httpcore-bench --quick --rounds-detail)
printf '%s\n' "$output"
for workload in "| 1. GET" "| 2. 304" "| 3. 64 concurrent" "items / " "| 4. peak RSS" "| 5. observability" "| 6. decode" "MiB download, AsyncHTTPClient" "MiB upload, AsyncHTTPClient" "| 8. sandbox list page" "| 9. OpenAPI client GET" "| server ceiling"; do
    if ! grep -qF -- "$workload" <<<"$output"; then
        echo "ci-bench-quick: no row for \"$workload\" in the table" >&2
        exit 1
    fi
done
if ! grep -qF -- "- 1. GET" <<<"$output"; then
    echo "ci-bench-quick: --rounds-detail listed no per-round ratios for the GET rows" >&2
    exit 1
fi
# --quick shares the per-request rounds between two child processes (rounds-child) and pools them.
if ! grep -qF -- "rounds in 2 processes (2 + 1), pooled" <<<"$output" \
    || ! grep -q -- "- 2. 304 revalidation, .*per process (2+1 rounds): medians [0-9.]* [0-9.]*$" <<<"$output"; then
    echo "ci-bench-quick: the rounds were not shared by two processes, or their medians are missing" >&2
    exit 1
fi

# --awake-cores starts one SCHED_IDLE spinner per core and must stop every one of them.
if [[ "$(uname -s)" == "Linux" ]]; then
    awake=$(timeout 120 swift run --skip-build httpcore-bench --quick --workloads get --awake-cores)
    if ! grep -qF -- "Cores kept awake" <<<"$awake"; then
        echo "ci-bench-quick: --awake-cores did not say so in the header" >&2
        exit 1
    fi
    if pgrep -f "httpcore-bench spin" >/dev/null; then
        echo "ci-bench-quick: --awake-cores left a spinner running" >&2
        pkill -f "httpcore-bench spin" || true
        exit 1
    fi
fi

# The URLSession breakdown must still run and print all fourteen of its sides, and run one alone.
sides=$(timeout 120 swift run --skip-build httpcore-bench profile-urlsession 1)
printf '%s\n' "$sides"
# Each side's line starts with its exact name and then its time, so "client" is not satisfied by
# "client + hooks".
for side in "raw data(for:)" "bare session delegate" "in-place delegate" "URLSessionTransport.send" \
    "client" "client + hooks" "raw 304" "bare session delegate 304" "in-place delegate 304" \
    "URLSessionTransport.send 304" "client + cache 304" "after 304: in-memory transport" \
    "after 304: in-memory client" "after 304: in-memory client + cache"; do
    if [[ $'\n'"$sides" != *$'\n'"$side "[0-9]* ]]; then
        echo "ci-bench-quick: profile-urlsession printed no \"$side\" line" >&2
        exit 1
    fi
done
alone=$(timeout 120 swift run --skip-build httpcore-bench profile-urlsession 1 "client + cache")
printf '%s\n' "$alone"
if [[ "$alone" != "client + cache 304 "*" per call" ]]; then
    echo "ci-bench-quick: profile-urlsession 1 \"client + cache\" did not run that side alone" >&2
    exit 1
fi

# The in-memory pipeline with the hooks workload's observability, as profilers run it.
hooks=$(timeout 120 swift run --skip-build httpcore-bench profile-pipeline 100 hooks-bytes)
printf '%s\n' "$hooks"
if [[ "$hooks" != *" per call" ]]; then
    echo "ci-bench-quick: profile-pipeline 100 hooks-bytes printed no time per call" >&2
    exit 1
fi
