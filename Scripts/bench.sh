#!/usr/bin/env bash
# Builds the benchmarks in release mode (in .build-release, so a shared debug build is left alone)
# and prints HTTPCore's cost next to raw transports as a Markdown table on stdout.
#
#   Scripts/bench.sh                          # every workload, default sizes (a few minutes)
#   Scripts/bench.sh --workloads get,cache    # a subset; --list shows them
#   Scripts/bench.sh --rounds 21 --iterations 500
#   Scripts/bench.sh --strict                 # exit 2 when a floor does not hold
#   Scripts/bench.sh --processes 1            # every round in one process (default: rounds of the
#                                             # per-request workloads shared by 3 processes)
#
# Uses `wrk` for the server-ceiling row when it is on PATH, and a raw AsyncHTTPClient loop when not.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --scratch-path .build-release --product httpcore-bench >&2
exec .build-release/release/httpcore-bench "$@"
