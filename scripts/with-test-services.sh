#!/usr/bin/env bash
# Runs a command with PostgreSQL and Redis available to the tests:
#   TEST_DATABASE_URL / TEST_REDIS_URL when set, otherwise throwaway instances
#   started here from the installed binaries (and stopped afterwards), shared by
#   every test process of the run. Both listen on unix sockets in a temp dir only,
#   so no TCP port is picked, raced for or reused.
# When that is not possible the tests start their own (server/tests/common/services.rs),
# or fail naming the variable to set; they never report a variant that did not run as passed.
set -euo pipefail

started_dirs=()
redis_dirs=()
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for dir in "${started_dirs[@]}"; do
    as_postgres "$(pg_bin pg_ctl)" -D "$dir" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
  done
  for dir in "${redis_dirs[@]}"; do rm -rf "$dir"; done
}
trap cleanup EXIT

loud() {
  printf '\n\033[1;31m*** %s ***\033[0m\n\n' "$*" >&2
}

pg_bin() { ls /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1; }

# initdb refuses to run as root; the Debian package's postgres user does it then.
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {
  local initdb dir
  initdb=$(pg_bin initdb)
  [ -n "$initdb" ] || return 1
  dir=$(mktemp -d /tmp/taskhub-pg-XXXXXX)
  started_dirs+=("$dir")
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as_postgres "$initdb" -D "$dir" -A trust -U postgres --no-sync >/dev/null || return 1
  as_postgres "$(pg_bin pg_ctl)" -D "$dir" -w -l "$dir/log" \
    -o "-c listen_addresses='' -k $dir -c fsync=off -c max_connections=300" start >/dev/null || return 1
  export TEST_DATABASE_URL="postgres://postgres@localhost/postgres?host=$dir"
  echo "started a throwaway PostgreSQL on $dir" >&2
}

start_redis() {
  command -v redis-server >/dev/null || return 1
  local dir
  dir=$(mktemp -d /tmp/taskhub-redis-XXXXXX)
  redis_dirs+=("$dir")
  redis-server --port 0 --unixsocket "$dir/redis.sock" --unixsocketperm 700 --save '' --appendonly no \
    --daemonize no >"$dir/log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do
    [ "$(redis-cli -s "$dir/redis.sock" ping 2>/dev/null)" = PONG ] || { sleep 0.1; continue; }
    export TEST_REDIS_URL="redis+unix://$dir/redis.sock"
    echo "started a throwaway Redis on $dir/redis.sock" >&2
    return 0
  done
  cat "$dir/log" >&2
  return 1
}

if [ -z "${TEST_DATABASE_URL:-}" ]; then
  start_postgres || loud "No throwaway PostgreSQL here; each test process will try its own, or fail: set TEST_DATABASE_URL."
fi
if [ -z "${TEST_REDIS_URL:-}" ]; then
  start_redis || loud "No throwaway Redis here; each test process will try its own, or fail: set TEST_REDIS_URL."
fi

"$@"
