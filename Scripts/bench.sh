#!/usr/bin/env bash
# Builds the benchmarks (Scripts/Benchmarks, a package of its own) in release mode, in
# Scripts/Benchmarks/.build-release, and prints HTTPCore's cost next to raw transports as a
# Markdown table on stdout. docs/performance.md explains the workloads, the floors and the method.
#
#   Scripts/bench.sh                          # every workload, default sizes (a few minutes)
#   Scripts/bench.sh --workloads get,cache    # a subset; --list shows them
#   Scripts/bench.sh --rounds 21 --iterations 500
#   Scripts/bench.sh --strict                 # exit 2 when a floor does not hold
#   Scripts/bench.sh --workloads postgres --postgres-url "$(Scripts/postgres.sh start)"
#                                             # workload 10 (also reads HTTPCORE_POSTGRES_URL)
#   Scripts/bench.sh --processes 1            # every round in one process (default: rounds of the
#                                             # per-request workloads shared by 3 processes)
#
# Uses `wrk` for the server-ceiling row when it is on PATH, and a raw AsyncHTTPClient loop when not.
set -euo pipefail
cd "$(dirname "$0")/Benchmarks"
# SwiftPM reuses its build plan for the root package (a path dependency here) even after files
# were added to it, and then cannot find them: plan again whenever the list of files changed.
sources=$(cd ../.. && find Sources -name '*.swift' | LC_ALL=C sort | cksum)
if [ "$(cat .build-release/sources.cksum 2>/dev/null)" != "$sources" ]; then
    rm -f .build-release/release.yaml
fi
swift build -c release --scratch-path .build-release --product httpcore-bench >&2
echo "$sources" > .build-release/sources.cksum
exec .build-release/release/httpcore-bench "$@"
