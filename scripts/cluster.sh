#!/usr/bin/env bash
# The scale-out deployment of docker-compose.yml on loopback, from installed binaries:
# PostgreSQL, Redis (redis.conf), two server nodes sharing JWT_SECRET, and nginx in front
# (deploy/nginx.conf with only its addresses and paths rewritten).
#
#   scripts/cluster.sh up          start everything (free loopback ports), print BASE_URL
#   scripts/cluster.sh down        stop everything and delete the state directory
#   scripts/cluster.sh status      what runs where
#   scripts/cluster.sh env         the cluster's addresses as shell assignments (BASE_URL, DATABASE_URL, …)
# Faults, for bench/soak:
#   scripts/cluster.sh kill-node N | start-node N | stop-redis | start-redis | stop-postgres |
#                      start-postgres | reload-nginx
#
# State (data, logs, pids, generated configs) lives in $CLUSTER_DIR (default .cluster/ in the
# repository). The machine's own PostgreSQL and Redis are never touched. The nodes run
# $SERVER_BIN (default: the debug build in $CARGO_TARGET_DIR) and serve web/dist.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${CLUSTER_DIR:-$repo/.cluster}
target_dir=${CARGO_TARGET_DIR:-$repo/target}
server_bin=${SERVER_BIN:-$target_dir/debug/server}
env_file=$dir/cluster.env

pg_bin() { ls /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1; }

# initdb and postgres refuse to run as root; the Debian package's postgres user does it then.
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

port_is_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Ports come from outside the kernel's ephemeral range: an outgoing connection (a node's pool,
# curl polling /readyz) takes its local port from that range and would make a node that binds
# the same port fail to start. Below it when there is room (Linux's default starts at 32768),
# else above it.
free_port() {
  local port low=32768 high=60999 from to
  [ -r /proc/sys/net/ipv4/ip_local_port_range ] && read -r low high </proc/sys/net/ipv4/ip_local_port_range
  if [ "$low" -gt 11024 ]; then from=10000 to=$low; else from=$((high + 1)) to=65536; fi
  [ "$to" -gt $((from + 1000)) ] || { echo "no loopback ports outside the ephemeral range $low-$high" >&2; return 1; }
  for _ in $(seq 100); do
    port=$((from + (RANDOM * 32768 + RANDOM) % (to - from)))
    if port_is_free "$port" && ! grep -qs "=$port\$" "$env_file"; then
      echo "$port"
      return
    fi
  done
  echo "no free loopback port found" >&2
  return 1
}

wait_for() {
  local what=$1 seconds=$2
  shift 2
  for _ in $(seq $((seconds * 10))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "$what did not come up within ${seconds}s" >&2
  return 1
}

load_env() {
  [ -f "$env_file" ] || { echo "no cluster in $dir (scripts/cluster.sh up)" >&2; exit 1; }
  # shellcheck disable=SC1090
  . "$env_file"
}

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

start_postgres() {
  as_postgres "$(pg_bin pg_ctl)" -D "$dir/postgres" -w -t 60 -l "$dir/postgres/server.log" \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $dir/postgres -c fsync=off -c max_connections=200" start >/dev/null
}

stop_postgres() {
  as_postgres "$(pg_bin pg_ctl)" -D "$dir/postgres" -m "${1:-fast}" -w stop >/dev/null 2>&1 || true
}

start_redis() {
  redis-server "$repo/redis.conf" --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$dir/redis" \
    --daemonize yes --pidfile "$dir/redis/redis.pid" --logfile "$dir/redis/redis.log"
  wait_for Redis 20 redis-cli -p "$REDIS_PORT" ping || { tail -n 20 "$dir/redis/redis.log" >&2 2>/dev/null; return 1; }
}

stop_redis() {
  redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  wait_for "Redis shutdown" 10 port_is_free "$REDIS_PORT"
}

node_port() { eval echo "\$NODE_${1}_PORT"; }

start_node() {
  local n=$1 port
  port=$(node_port "$n")
  mkdir -p "$dir/node-$n"
  # One dev mailbox for the cluster (the e2e suite and the soak read it through either node);
  # the rest of each node's data directory is its own, as in docker-compose.yml.
  ln -sfn ../shared/mail "$dir/node-$n/mail"
  env DATABASE_URL="$DATABASE_URL" REDIS_URL="$REDIS_URL" JWT_SECRET="$JWT_SECRET" \
    BIND_ADDR="127.0.0.1:$port" PUBLIC_URL="$BASE_URL" DATA_DIR="$dir/node-$n" \
    MEDIA_URL="file://$dir/shared/media" WEB_DIST="$repo/web/dist" \
    TRUST_PROXY=true TRUSTED_PROXY_COUNT=1 DEV_MODE=true \
    AUTH_RATE_LIMIT_PER_MINUTE="${AUTH_RATE_LIMIT_PER_MINUTE:-100000}" \
    WS_MAX_CONNECTIONS_PER_CLIENT="${WS_MAX_CONNECTIONS_PER_CLIENT:-10000}" \
    TASK_POSTS_PER_HOUR="${TASK_POSTS_PER_HOUR:-100000}" \
    TASK_POSTS_PER_CLIENT_PER_HOUR="${TASK_POSTS_PER_CLIENT_PER_HOUR:-100000}" \
    QUESTIONS_PER_ACCOUNT_PER_HOUR="${QUESTIONS_PER_ACCOUNT_PER_HOUR:-100000}" \
    MESSAGES_PER_ACCOUNT_PER_MINUTE="${MESSAGES_PER_ACCOUNT_PER_MINUTE:-100000}" \
    WS_SUBSCRIBES_PER_SECOND="${WS_SUBSCRIBES_PER_SECOND:-100}" \
    PAYMENTS_SWEEP_SECS="${PAYMENTS_SWEEP_SECS:-5}" EMAIL_DELAY="$EMAIL_DELAY" \
    ADMIN_EMAILS="${ADMIN_EMAILS:-operator@example.com}" \
    RUST_LOG="${RUST_LOG:-warn,server=info,realtime=info}" \
    setsid "$server_bin" >>"$dir/node-$n.log" 2>&1 </dev/null &
  echo $! >"$dir/node-$n.pid"
  wait_for_node "$n" "$port"
}

# Waits up to 60 s for a node's /readyz, giving up at once if the node exits; either way a
# failure prints the end of the node's log, which says why.
wait_for_node() {
  local n=$1 port=$2
  for _ in $(seq 600); do
    curl -fsS --max-time 2 "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && return 0
    if ! pid_alive "$dir/node-$n.pid"; then
      echo "node $n exited while starting; its log ends:" >&2
      tail -n 20 "$dir/node-$n.log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "node $n did not come up within 60s; its log ends:" >&2
  tail -n 20 "$dir/node-$n.log" >&2
  return 1
}

kill_node() {
  local pidfile=$dir/node-$1.pid
  if pid_alive "$pidfile"; then
    kill -"${2:-TERM}" "$(cat "$pidfile")" 2>/dev/null || true
    wait_for "node $1 exit" 15 bash -c "! kill -0 $(cat "$pidfile") 2>/dev/null"
  fi
  rm -f "$pidfile"
}

write_nginx_conf() {
  mkdir -p "$dir/nginx/logs"
  # deploy/nginx.conf stays the source of truth for headers, upgrade and timeouts: only the
  # upstream addresses, the listen address and where nginx keeps its files change.
  sed -e "s|server server-1:8080;|server 127.0.0.1:$NODE_1_PORT;|" \
    -e "s|server server-2:8080;|server 127.0.0.1:$NODE_2_PORT;|" \
    -e "s|listen 80;|listen 127.0.0.1:$LB_PORT;|" \
    -e "s|^events {}|pid $dir/nginx/nginx.pid;\nerror_log $dir/nginx/logs/error.log warn;\nevents { worker_connections 8192; }|" \
    -e "s|^http {|http {\n    access_log off;\n    client_body_temp_path $dir/nginx/body;\n    proxy_temp_path $dir/nginx/proxy;\n    fastcgi_temp_path $dir/nginx/fastcgi;\n    uwsgi_temp_path $dir/nginx/uwsgi;\n    scgi_temp_path $dir/nginx/scgi;|" \
    "$repo/deploy/nginx.conf" >"$dir/nginx/nginx.conf"
  grep -q "127.0.0.1:$NODE_2_PORT" "$dir/nginx/nginx.conf" || { echo "deploy/nginx.conf changed shape; update cluster.sh" >&2; exit 1; }
}

nginx_cmd() { /usr/sbin/nginx -p "$dir/nginx" -c "$dir/nginx/nginx.conf" -e "$dir/nginx/logs/error.log" "$@"; }

up() {
  if [ -f "$env_file" ]; then
    echo "a cluster already runs in $dir (scripts/cluster.sh down first)" >&2
    exit 1
  fi
  [ -x "$server_bin" ] || { echo "no server binary at $server_bin (cargo build -p server, or set SERVER_BIN)" >&2; exit 1; }
  [ -n "$(pg_bin initdb)" ] || { echo "PostgreSQL binaries not found under /usr/lib/postgresql" >&2; exit 1; }
  mkdir -p "$dir/redis" "$dir/shared/mail" "$dir/shared/media"
  : >"$env_file"
  local pg_port redis_port node_1 node_2 lb
  pg_port=$(free_port); echo "PG_PORT=$pg_port" >>"$env_file"
  redis_port=$(free_port); echo "REDIS_PORT=$redis_port" >>"$env_file"
  node_1=$(free_port); echo "NODE_1_PORT=$node_1" >>"$env_file"
  node_2=$(free_port); echo "NODE_2_PORT=$node_2" >>"$env_file"
  lb=${CLUSTER_PORT:-$(free_port)}; echo "LB_PORT=$lb" >>"$env_file"
  cat >>"$env_file" <<EOF
BASE_URL=http://127.0.0.1:$lb
DATABASE_URL=postgres://postgres@127.0.0.1:$pg_port/taskhub
REDIS_URL=redis://127.0.0.1:$redis_port
JWT_SECRET=${JWT_SECRET:-$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')}
EMAIL_DELAY=${EMAIL_DELAY:-600}
EOF
  # Not `if ! (bring_up)`: errexit does not apply inside a condition.
  set +e
  (bring_up)
  local started=$?
  set -e
  if [ $started != 0 ]; then
    echo "cluster did not come up; last log lines:" >&2
    tail -n 5 "$dir"/postgres/server.log "$dir"/redis/redis.log "$dir"/node-*.log "$dir"/nginx/logs/error.log 2>/dev/null >&2 || true
    down >/dev/null
    exit 1
  fi
  load_env
  echo "cluster up: $BASE_URL (nodes on :$NODE_1_PORT and :$NODE_2_PORT, state in $dir)"
}

bring_up() {
  set -e
  load_env
  mkdir -p "$dir/postgres"
  chmod 755 "$dir" # nginx's workers (nobody) keep their temp files under it
  [ "$(id -u)" = 0 ] && chown postgres "$dir/postgres"
  as_postgres "$(pg_bin initdb)" -D "$dir/postgres" -A trust -U postgres -E UTF8 --no-sync >/dev/null
  start_postgres
  psql "postgres://postgres@127.0.0.1:$PG_PORT/postgres" -qc 'create database taskhub' >/dev/null
  start_redis
  start_node 1
  start_node 2
  write_nginx_conf
  nginx_cmd
  wait_for nginx 10 curl -fsS "$BASE_URL/readyz"
}

down() {
  [ -f "$env_file" ] || { rm -rf "$dir"; return; }
  load_env
  [ -f "$dir/nginx/nginx.pid" ] && nginx_cmd -s stop 2>/dev/null || true
  kill_node 1
  kill_node 2
  stop_redis || true
  stop_postgres immediate
  rm -rf "$dir"
  echo "cluster down"
}

status() {
  load_env
  local state
  for n in 1 2; do
    state=$(curl -fsS "http://127.0.0.1:$(node_port $n)/readyz" >/dev/null 2>&1 && echo ready || echo down)
    echo "node-$n   127.0.0.1:$(node_port $n)  $state"
  done
  state=$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null || echo down)
  echo "redis    127.0.0.1:$REDIS_PORT  $state"
  state=$(psql "$DATABASE_URL" -Atqc 'select 1' >/dev/null 2>&1 && echo up || echo down)
  echo "postgres 127.0.0.1:$PG_PORT  $state"
  state=$(curl -fsS "$BASE_URL/readyz" >/dev/null 2>&1 && echo up || echo down)
  echo "nginx    $BASE_URL  $state"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  env) load_env; grep -v '^JWT_SECRET=' "$env_file" ;;
  kill-node) load_env; kill_node "${2:?node number}" KILL ;;
  start-node) load_env; start_node "${2:?node number}" ;;
  stop-redis) load_env; stop_redis ;;
  start-redis) load_env; start_redis ;;
  stop-postgres) load_env; stop_postgres fast ;;
  start-postgres) load_env; start_postgres ;;
  reload-nginx) load_env; nginx_cmd -s reload ;;
  *)
    echo "usage: scripts/cluster.sh up|down|status|env|kill-node N|start-node N|stop-redis|start-redis|stop-postgres|start-postgres|reload-nginx" >&2
    exit 2
    ;;
esac
