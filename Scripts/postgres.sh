#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback for the HTTPCorePostgres tests (and for trying the
# fleet features by hand).
#
#   Scripts/postgres.sh start   creates a cluster in a temporary folder, starts it on 127.0.0.1
#                               and a free port, waits until it answers, prints its URL
#   Scripts/postgres.sh url     prints the running cluster's URL
#   Scripts/postgres.sh stop    stops the cluster and deletes its folder
#
# Run the tests that need it with:
#   export HTTPCORE_POSTGRES_URL=$(Scripts/postgres.sh start)
#   swift test --filter HTTPCorePostgresTests
#   Scripts/postgres.sh stop
#
# The server refuses to run as root, so under root the cluster belongs to the `postgres` user.
# When PostgreSQL is missing and this runs as root with apt-get, it installs the distribution's
# package. The cluster trades durability for speed (fsync off): it is for tests only.
set -euo pipefail

state_dir="${HTTPCORE_POSTGRES_STATE:-$(cd "$(dirname "$0")/.." && pwd)/.build/postgres}"
state_file="$state_dir/cluster.env"

die() {
    echo "postgres.sh: $*" >&2
    exit 1
}

find_bindir() {
    local dir
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
    done
    command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return 0; }
    return 1
}

install_if_missing() {
    find_bindir >/dev/null && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "postgres.sh: installing PostgreSQL from the distribution's packages" >&2
        DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    fi
    find_bindir >/dev/null || die "PostgreSQL is not installed (no initdb); install it, e.g. 'apt-get install -y postgresql'."
}

# Runs a command as the cluster's owner: `postgres` under root, else the current user.
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
    if [ -f "$state_file" ]; then
        # shellcheck disable=SC1090
        . "$state_file"
        if as_owner "$BINDIR/pg_ctl" status -D "$DATA" >/dev/null 2>&1; then
            echo "$URL"
            return 0
        fi
        rm -rf "$DATA"
        rm -f "$state_file"
    fi
    install_if_missing
    local bindir data port password user=httpcore database=httpcore_test
    bindir=$(find_bindir)
    data=$(mktemp -d "${TMPDIR:-/tmp}/httpcore-postgres.XXXXXX")
    [ "$(id -u)" = 0 ] && chown postgres: "$data"
    chmod 700 "$data"
    password=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
    printf '%s\n' "$password" >"$data/.pwfile"
    [ "$(id -u)" = 0 ] && chown postgres: "$data/.pwfile"
    as_owner "$bindir/initdb" -D "$data/cluster" -U "$user" --pwfile="$data/.pwfile" \
        --auth=scram-sha-256 -E UTF8 --no-sync >"$data/initdb.log" 2>&1 ||
        die "initdb failed; see $data/initdb.log"
    rm -f "$data/.pwfile"
    port=$(free_port)
    as_owner "$bindir/pg_ctl" start -D "$data/cluster" -l "$data/server.log" -w -t 30 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $data -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        >/dev/null || die "the server did not start; see $data/server.log"
    PGPASSWORD="$password" "$bindir/createdb" -h 127.0.0.1 -p "$port" -U "$user" "$database" ||
        die "could not create the database"
    mkdir -p "$state_dir"
    local url="postgres://$user:$password@127.0.0.1:$port/$database"
    umask 077
    printf 'BINDIR=%q\nDATA=%q\nURL=%q\n' "$bindir" "$data/cluster" "$url" >"$state_file"
    echo "$url"
}

stop() {
    [ -f "$state_file" ] || return 0
    # shellcheck disable=SC1090
    . "$state_file"
    as_owner "$BINDIR/pg_ctl" stop -D "$DATA" -m immediate >/dev/null 2>&1 || true
    rm -rf "$(dirname "$DATA")"
    rm -f "$state_file"
}

url() {
    [ -f "$state_file" ] || die "no cluster is running; run 'Scripts/postgres.sh start'."
    # shellcheck disable=SC1090
    . "$state_file"
    echo "$URL"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
url) url ;;
*)
    echo "usage: Scripts/postgres.sh start|stop|url" >&2
    exit 64
    ;;
esac
