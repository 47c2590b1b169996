#!/usr/bin/env bash
# The benchmark matrix of the README. Needs Redis on 127.0.0.1:6379 for the clustered runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -p ws-load
bin="${CARGO_TARGET_DIR:-target}/release/ws-load"
run() { echo; echo "### ws-load $*"; "$bin" "$@" 2>&1 | grep -v '^hub stats'; }
# Latency at a moderate load: topics of 100 sockets, 500 events/s (50k deliveries/s).
run --conns 10000,18000 --per-topic 100 --events 2000 --rate 500
# Throughput: one topic watched by every socket, 200 events/s (2M deliveries/s offered).
run --conns 10000 --events 200 --rate 200
# Two nodes through Redis.
run --nodes 2 --conns 10000 --per-topic 100 --events 2000 --rate 500
run --nodes 2 --conns 10000 --events 200 --rate 200
# 50k sockets: one process may hold ~20k descriptors here, so three nodes through Redis.
run --nodes 3 --conns 50000 --per-topic 100 --events 2000 --rate 500
