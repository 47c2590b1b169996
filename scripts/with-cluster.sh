#!/usr/bin/env bash
# Runs a command against a fresh loopback cluster (scripts/cluster.sh up), stopped and deleted
# afterwards whatever the command's outcome. The command gets CLUSTER_DIR, BASE_URL,
# DATABASE_URL, the node ports, and for the browser suite E2E_BASE_URL and E2E_NODE_URLS.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CLUSTER_DIR=${CLUSTER_DIR:-$(mktemp -d /tmp/taskhub-cluster-XXXXXX)}
# On failure the nodes' warnings are printed before the cluster (and its logs) is deleted, so a
# CI log says what the servers saw.
on_exit() {
  local status=$?
  if [ "$status" -ne 0 ]; then
    for log in "$CLUSTER_DIR"/node-*.log; do
      [ -f "$log" ] || continue
      echo "--- $(basename "$log"): warnings and errors (last 200) ---" >&2
      grep -aE ' (WARN|ERROR) ' "$log" | tail -n 200 >&2 || true
    done
  fi
  "$here/cluster.sh" down >/dev/null 2>&1 || true
  exit "$status"
}
trap on_exit EXIT
"$here/cluster.sh" up
eval "$("$here/cluster.sh" env | sed 's/^/export /')"
export E2E_BASE_URL=$BASE_URL
export E2E_NODE_URLS="http://127.0.0.1:$NODE_1_PORT,http://127.0.0.1:$NODE_2_PORT"
"$@"
