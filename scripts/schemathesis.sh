#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI document with schemathesis, as a new user of the
# document would: a fresh server (SQLite, in-process bus, DEV_MODE) and a signed-in user.
# Fails on any server error, undocumented status, wrong content type or response that
# does not match its schema, an operation that does not ask for the credentials it declares
# (ignored_auth), and when schemathesis cannot test an operation. A second pass fuzzes the
# operator routes (/api/admin) as a signed-in user who is not an operator: every answer must
# be 403. Fails when schemathesis cannot be installed (everywhere, not only in CI).
#   SERVER_BIN               the server binary (default: $CARGO_TARGET_DIR/debug/server)
#   SCHEMATHESIS_EXAMPLES    test cases per operation and phase (default 15)
#   SCHEMATHESIS_SEED        the random seed (default 1, so a CI failure reproduces)
#   SCHEMATHESIS_VENV        where schemathesis is installed (default ~/.cache/taskhub/schemathesis-venv)
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
VALIDATOR_VERSION=0.9.0
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
server_bin="${SERVER_BIN:-$target_dir/debug/server}"
examples="${SCHEMATHESIS_EXAMPLES:-15}"
venv="${SCHEMATHESIS_VENV:-$HOME/.cache/taskhub/schemathesis-venv}"
operator_only_check="$PWD/scripts/schemathesis_operator_only.py"

loud() { printf '\n\033[1;31m*** %s ***\033[0m\n\n' "$*" >&2; }

wanted=("schemathesis==$SCHEMATHESIS_VERSION" "openapi-spec-validator==$VALIDATOR_VERSION")
installed=$("$venv/bin/pip" freeze 2>/dev/null || true)
if ! grep -qxF -e "${wanted[0]}" <<<"$installed" || ! grep -qxF -e "${wanted[1]}" <<<"$installed"; then
  echo "installing ${wanted[*]} into $venv"
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q "${wanted[@]}"; }; then
    loud "schemathesis could not be installed (python3 -m venv, pip install ${wanted[*]})"
    # A run that could not fuzz is not a pass, on a laptop as in CI.
    exit 1
  fi
fi

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

email=fuzzer@example.com
# Generous auth limits: the fuzzer signs in and uploads far faster than a person
# (the limits themselves are tested in server/tests/rate_limits.rs). The fuzzer is an
# operator, so the admin routes are exercised beyond their 403.
BIND_ADDR=127.0.0.1:0 DATA_DIR="$work/data" DEV_MODE=true REQUIRE_EMAIL_VERIFICATION=false \
  ADMIN_EMAILS="$email" AUTH_RATE_LIMIT_PER_MINUTE=100000 WEB_DIST="$work/no-web" \
  RUST_LOG="${RUST_LOG:-warn}" "$server_bin" >"$work/server.log" 2>&1 &
server_pid=$!
base=""
for _ in $(seq 600); do
  base=$(grep -o 'listening on http://[^ ]*' "$work/server.log" | head -n 1 | sed 's/listening on //') || true
  [ -n "$base" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$base" ]; then
  loud "the server did not start"; cat "$work/server.log" >&2; exit 1
fi

curl -fsS -o /dev/null -X POST "$base/api/auth/signup" -H 'Content-Type: application/json' -d "{
  \"email\": \"$email\", \"password\": \"correct horse\", \"first_name\": \"Fuzz\", \"last_name\": \"Tester\",
  \"account_type\": \"tasker\", \"skills\": [{\"name\": \"Plumbing\", \"level\": 80}], \"location\": \"Newtown NSW\"}"
# An operator needs a verified address: confirm it through the link in the dev mailbox.
confirm_token=""
for _ in $(seq 100); do
  confirm_token=$(curl -fsS "$base/dev/mailbox.json" | EMAIL="$email" python3 -c '
import json, os, sys
for mail in json.load(sys.stdin):
    if mail["to"] == os.environ["EMAIL"] and "Confirm" in mail["subject"]:
        print(mail["text"].split("token=", 1)[1].split()[0])
        break
') || true
  [ -n "$confirm_token" ] && break
  sleep 0.05
done
if [ -z "$confirm_token" ]; then
  loud "no confirmation mail for $email"; exit 1
fi
curl -fsS -o /dev/null -X POST "$base/api/auth/verify" -H 'Content-Type: application/json' \
  -d "{\"token\": \"$confirm_token\"}"
token=$(curl -fsS -X POST "$base/api/auth/login" -H 'Content-Type: application/json' \
  -d "{\"email\": \"$email\", \"password\": \"correct horse\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
# Someone who is signed in but not an operator, for the authorization pass.
curl -fsS -o /dev/null -X POST "$base/api/auth/signup" -H 'Content-Type: application/json' -d "{
  \"email\": \"member@example.com\", \"password\": \"correct horse\", \"first_name\": \"Member\", \"last_name\": \"Tester\",
  \"account_type\": \"customer\", \"skills\": [], \"location\": \"Newtown NSW\"}"
member_token=$(curl -fsS -X POST "$base/api/auth/login" -H 'Content-Type: application/json' \
  -d '{"email": "member@example.com", "password": "correct horse"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')

curl -fsS -o "$work/openapi.json" "$base/api/openapi.json"
"$venv/bin/openapi-spec-validator" --schema 3.1 "$work/openapi.json"

status=0
# From the scratch directory: schemathesis keeps a cache (.schemathesis/) where it runs.
# One worker: with two threads, CPython 3.11's ast.parse (hypothesis describing a filter lambda)
# fails with "AST constructor recursion depth mismatch" on some operations, a tool crash.
(cd "$work" && "$venv/bin/schemathesis" --no-color run "$base/api/openapi.json" \
  --header "Authorization: Bearer $token" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,ignored_auth \
  --max-examples "$examples" --seed "${SCHEMATHESIS_SEED:-1}" --workers 1 --generation-database none) \
  | tee "$work/report.txt" || status=$?
# Every operation in the document must have been tested ("Selected: 56/56", "Tested: 56").
selected=$(sed -n 's/^ *Selected: \([0-9]*\)\/.*/\1/p' "$work/report.txt")
tested=$(sed -n 's/^ *Tested: \([0-9]*\).*/\1/p' "$work/report.txt")
if [ -z "$selected" ] || [ "$selected" != "$tested" ]; then
  loud "schemathesis tested ${tested:-no} of ${selected:-the} operations"; status=1
fi
# Authorization: the operator routes as a non-operator. Every answer is 403, whatever was sent.
(cd "$work" && SCHEMATHESIS_HOOKS="$operator_only_check" "$venv/bin/schemathesis" --no-color \
  run "$base/api/openapi.json" --include-path-regex '^/api/admin' \
  --header "Authorization: Bearer $member_token" \
  --checks not_a_server_error,refused_to_non_operators \
  --max-examples "$examples" --seed "${SCHEMATHESIS_SEED:-1}" --workers 1 --generation-database none) \
  | tee "$work/report-member.txt" || status=$?
admin_selected=$(sed -n 's/^ *Selected: \([0-9]*\)\/.*/\1/p' "$work/report-member.txt")
admin_tested=$(sed -n 's/^ *Tested: \([0-9]*\).*/\1/p' "$work/report-member.txt")
if [ -z "$admin_selected" ] || [ "$admin_selected" = 0 ] || [ "$admin_selected" != "$admin_tested" ]; then
  loud "the non-operator pass tested ${admin_tested:-no} of ${admin_selected:-the} operator operations"; status=1
fi
if grep -q ' ERROR \|panicked' "$work/server.log"; then
  loud "the server logged errors while being fuzzed"; grep ' ERROR \|panicked' "$work/server.log" | tail -n 20 >&2; status=1
fi
if [ "$status" -ne 0 ]; then
  loud "schemathesis found problems (see above)"
fi
exit "$status"
