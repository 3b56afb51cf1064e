#!/usr/bin/env bash
# A throwaway PostgreSQL server for the store tests and benchmarks/postgres.py.
#
#   bash .ci/postgres.sh start   # installs the distribution's server if missing, starts it,
#                                # prints the URL to export as EVIDENCEGATE_TEST_POSTGRES
#   bash .ci/postgres.sh stop    # stops it and deletes its data directory
#
# The cluster lives in $EVIDENCEGATE_PG_DIR (default /tmp/evidencegate-pg), listens on
# 127.0.0.1:$EVIDENCEGATE_PG_PORT (default 54329) and trusts local connections: it is for tests.
# As root the server runs as the "postgres" user (PostgreSQL refuses to run as root).
set -euo pipefail
dir="${EVIDENCEGATE_PG_DIR:-/tmp/evidencegate-pg}"
port="${EVIDENCEGATE_PG_PORT:-54329}"

as_server_user() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

bindir() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
  if [ -z "$found" ]; then found="$(dirname "$(command -v initdb)")"; fi
  echo "$found"
}

case "${1:-}" in
  start)
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then
      apt-get update -q >/dev/null && apt-get install -y -q postgresql >/dev/null
    fi
    bin="$(bindir)"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      mkdir -p "$dir"
      [ "$(id -u)" = 0 ] && chown postgres "$dir"
      as_server_user "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 \
        --locale=C.UTF-8 >"$dir/initdb.log" 2>&1
    fi
    if ! as_server_user "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      as_server_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start >/dev/null
    fi
    "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -Atqc \
      "SELECT 1 FROM pg_database WHERE datname = 'evidencegate_test'" | grep -q 1 ||
      "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres evidencegate_test
    echo "postgresql://postgres@127.0.0.1:$port/evidencegate_test"
    ;;
  stop)
    bin="$(bindir)"
    as_server_user "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
