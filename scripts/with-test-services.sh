#!/usr/bin/env bash
# Runs a command with PostgreSQL and Redis available to the tests:
#   TEST_DATABASE_URL / TEST_REDIS_URL when set, otherwise throwaway instances
#   started here from the installed binaries (and stopped afterwards).
# When neither is possible it says so loudly; under CI=true that is a failure.
set -euo pipefail

started_dirs=()
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for dir in "${started_dirs[@]}"; do
    as_postgres "$(pg_bin pg_ctl)" -D "$dir" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
  done
}
trap cleanup EXIT

loud() {
  printf '\n\033[1;31m*** %s ***\033[0m\n\n' "$*" >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
}

spare_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 30000))
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
  done
}

pg_bin() { ls /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1; }

# initdb refuses to run as root; the Debian package's postgres user does it then.
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {
  local initdb port dir
  initdb=$(pg_bin initdb)
  [ -n "$initdb" ] || return 1
  port=$(spare_port)
  dir=$(mktemp -d /tmp/taskhub-pg-XXXXXX)
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as_postgres "$initdb" -D "$dir" -A trust -U postgres --no-sync >/dev/null || return 1
  started_dirs+=("$dir")
  as_postgres "$(pg_bin pg_ctl)" -D "$dir" -w -l "$dir/log" \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null || return 1
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "started a throwaway PostgreSQL on port $port" >&2
}

start_redis() {
  command -v redis-server >/dev/null || return 1
  local port
  port=$(spare_port)
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no >/dev/null &
  pids+=($!)
  for _ in $(seq 50); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
  export TEST_REDIS_URL="redis://127.0.0.1:$port"
  echo "started a throwaway Redis on port $port" >&2
}

if [ -z "${TEST_DATABASE_URL:-}" ]; then
  start_postgres || loud "No PostgreSQL: set TEST_DATABASE_URL or install postgresql. Postgres tests will be SKIPPED."
fi
if [ -z "${TEST_REDIS_URL:-}" ]; then
  start_redis || loud "No Redis: set TEST_REDIS_URL or install redis-server. Redis bus tests will be SKIPPED."
fi

"$@"
