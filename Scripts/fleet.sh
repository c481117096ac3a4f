#!/usr/bin/env bash
# The fleet proof (issue #45): many workers on one Basecamp account, sharing their sign-in, rate
# limit, cache and webhook dedupe through PostgreSQL, against the sandbox playing Basecamp as
# strictly as the service does. docs/fleet.md explains what it shows and how to read the report.
#
#   Scripts/fleet.sh                    8 workers x 4 tasks for 60 s, 3 receivers, coordinated
#   Scripts/fleet.sh --uncoordinated    the same fleet with in-process parts only
#   Scripts/fleet.sh --seconds 20       a shorter run
#   DATABASE_URL=postgres://… Scripts/fleet.sh   use that server instead of a throwaway cluster
#
# Options: --seconds N, --workers N, --tasks N, --receivers N, --token-lifetime SECONDS,
# --no-build (use the basecamp-fleet already built), --keep (keep the run's folder).
# It ends with the report's last line; the exit status is 1 when a coordinated run misses the
# goal or an uncoordinated one shows no failure.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=60 workers=8 tasks=4 receivers=3 lifetime=5 coordinated=1 build=1 keep=0
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    --tasks) tasks=$2; shift 2 ;;
    --receivers) receivers=$2; shift 2 ;;
    --token-lifetime) lifetime=$2; shift 2 ;;
    --uncoordinated) coordinated=0; shift ;;
    --no-build) build=0; shift ;;
    --keep) keep=1; shift ;;
    *) echo "fleet.sh: unknown option $1 (see the comment at the top of Scripts/fleet.sh)" >&2; exit 64 ;;
    esac
done

cd "$root"
if [ "$build" = 1 ]; then
    echo "fleet.sh: building basecamp-fleet" >&2
    swift build --product basecamp-fleet >&2
fi
bin="$(swift build --show-bin-path)/basecamp-fleet"
[ -x "$bin" ] || { echo "fleet.sh: $bin is missing; build it or drop --no-build" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/fleet.XXXXXX")
counts="$work/counts.jsonl"
pids=()
receiver_pids=()
started_postgres=0
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ "$started_postgres" = 1 ] && Scripts/postgres.sh stop
    if [ "$keep" = 1 ]; then echo "fleet.sh: the run's logs and counts are in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# Waits for a process's "listening on URL" line and prints the URL.
listening_url() {
    local log=$1 tries=0
    until grep -q "listening on http" "$log" 2>/dev/null; do
        tries=$((tries + 1))
        [ "$tries" -gt 300 ] && { echo "fleet.sh: no listening line in $log" >&2; cat "$log" >&2; exit 1; }
        sleep 0.1
    done
    grep -o "listening on http[^ ]*" "$log" | head -1 | cut -d' ' -f3
}

run="fleet-$(date +%s)-$$"
shared=(--run "$run")
if [ "$coordinated" = 1 ]; then
    if [ -z "${DATABASE_URL:-}" ]; then
        Scripts/postgres.sh url >/dev/null 2>&1 || started_postgres=1
        DATABASE_URL=$(Scripts/postgres.sh start)
    fi
    shared+=(--database "$DATABASE_URL")
    mode="coordinated (PostgreSQL)"
else
    shared+=(--uncoordinated --credentials-file "$work/credentials.json")
    mode="uncoordinated (in-process parts)"
fi

receiver_urls=()
for replica in $(seq 1 "$receivers"); do
    "$bin" receiver "${shared[@]}" --replica "$replica" --counts "$counts" \
        >"$work/receiver-$replica.log" 2>&1 &
    pids+=($!)
    receiver_pids+=($!)
done
for replica in $(seq 1 "$receivers"); do
    receiver_urls+=(--receiver "$(listening_url "$work/receiver-$replica.log")")
done

"$bin" sandbox --token-lifetime "$lifetime" "${receiver_urls[@]}" --counts "$counts" >"$work/sandbox.log" 2>&1 &
sandbox_pid=$!
pids+=("$sandbox_pid")
sandbox=$(listening_url "$work/sandbox.log")
shared+=(--sandbox "$sandbox")

"$bin" signin "${shared[@]}" >"$work/signin.log" 2>&1 || { cat "$work/signin.log" >&2; exit 1; }

echo "fleet.sh: $workers workers x $tasks tasks for $seconds s, $receivers receivers, $mode" >&2
worker_pids=()
for worker in $(seq 1 "$workers"); do
    "$bin" worker "${shared[@]}" --worker "$worker" --tasks "$tasks" --seconds "$seconds" --counts "$counts" \
        >"$work/worker-$worker.log" 2>&1 &
    worker_pids+=($!)
    pids+=($!)
done
for pid in "${worker_pids[@]}"; do wait "$pid" || echo "fleet.sh: a worker failed; see $work" >&2; done

# The sandbox lets queued webhook deliveries finish before it writes its line; then the receivers stop.
kill -TERM "$sandbox_pid"
wait "$sandbox_pid" || { echo "fleet.sh: the sandbox failed" >&2; cat "$work/sandbox.log" >&2; }
for pid in "${receiver_pids[@]}"; do kill -TERM "$pid"; done
for pid in "${receiver_pids[@]}"; do wait "$pid" || echo "fleet.sh: a receiver failed; see $work" >&2; done
pids=()

expect=goal
[ "$coordinated" = 0 ] && expect=failures
"$bin" report "$counts" --expect "$expect"
