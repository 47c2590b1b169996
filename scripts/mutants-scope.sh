#!/usr/bin/env bash
# `make mutants`: cargo-mutants over the whole scope (docs/mutants.md), the money, moderation and
# authorization code, one group of files at a time, each against the tests that exercise it, so a
# mutant costs its build and a narrow test run rather than the whole suite. The filters pick the
# SQLite half of the backend matrix: the mutated Rust is the same on both backends.
#
# usage: [MUTANTS_GROUPS="disputes escrow"] scripts/mutants-scope.sh [cargo-mutants args, e.g. --iterate]
# MUTANTS_GROUPS runs only the groups named (below); all of them by default.
# Each group's report is in $CARGO_TARGET_DIR/mutants/<group>/mutants.out; the totals, and every
# survivor, are printed at the end. Exits 2 when a mutant survived, as cargo-mutants does.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
reports=${CARGO_TARGET_DIR:-$root/target}/mutants
mutants_args=("$@")

# Every payment, refund, payout, dispute and ledger test, and the transfer holds of a suspension or
# an identity check (about 140 tests, 40 s when they all pass).
money=(--lib --test api -- payments:: store::ledger_audit payments_lifecycle::sqlite:: payments_sandbox::sqlite::
  payments_failures::sqlite:: payments_processing::sqlite:: payments_races::sqlite:: payments_live::sqlite::
  refund_amounts::sqlite:: job_changes::sqlite:: job_changes_stripe::sqlite:: price_increases::sqlite::
  earnings::sqlite:: earnings_refunds::sqlite:: ledger_audit::sqlite:: operator_routes::sqlite:: standoffs::sqlite::
  disputes::sqlite:: payments_stripe:: payouts_stripe::sqlite:: provider_limits::sqlite::
  moderation_actions::sqlite::held_money moderation_records::sqlite::a_held_transfer verification_identity::payout_hold::sqlite::)

groups=()
# group NAME "FILES" TEST-TARGETS -- TEST-NAME-FILTERS
group() {
  local name=$1 files=() file
  if [ -n "${MUTANTS_GROUPS:-}" ] && [[ " $MUTANTS_GROUPS " != *" $name "* ]]; then return; fi
  for file in $2; do files+=(--file "$file"); done
  shift 2
  groups+=("$name")
  echo "=== $name: ${files[*]}"
  MUTANTS_OUT=$reports/$name "$root/scripts/mutants.sh" "${files[@]}" "${mutants_args[@]}" -- "$@"
}

group admin "server/src/http/admin.rs server/src/http/disputes.rs" --test api -- disputes::sqlite:: \
  refund_amounts::sqlite:: operator_routes::sqlite:: marketplace_access::sqlite::
group disputes "domain/src/payments/disputes.rs store/src/disputes.rs" "${money[@]}"
group escrow-store "store/src/escrow.rs store/src/ledger.rs store/src/release.rs
  store/src/cancellations.rs" "${money[@]}"
group provider-calls "store/src/provider_calls.rs domain/src/payments/calls.rs" "${money[@]}"
group escrow "domain/src/payments/escrow.rs domain/src/payments/releases.rs domain/src/payments/payment_requests.rs
  domain/src/payments/cancellation_requests.rs domain/src/payments/tips.rs" "${money[@]}"
group ledger-audit "store/src/ledger_audit.rs store/src/ledger_audit/increases.rs" "${money[@]}"
group increases "domain/src/payments/increases.rs" "${money[@]}"
group payouts "domain/src/payments/payouts.rs domain/src/payments/sweep.rs" "${money[@]}"
group stripe "domain/src/payments/stripe.rs domain/src/payments/webhook.rs domain/src/payments/providers.rs" "${money[@]}"
group sandbox "domain/src/payments/sandbox.rs" "${money[@]}"

group rules "model/src/payments/fees.rs model/src/payments/rules.rs" --lib -- payments::
group extract "server/src/http/extract.rs" --test api -- operator_routes::sqlite:: \
  operators::an_unverified_operator_address_is_no_operator_sqlite moderation_removed::sqlite:: \
  marketplace_access::sqlite:: robustness::behind_a_trusted_proxy robustness::sqlite::malformed \
  accounts::sqlite::posting_needs accounts::sqlite::protected_routes sessions_and_privacy::sqlite::signing_out

count() { [ -f "$1" ] && wc -l < "$1" || echo 0; }
echo
printf '%-16s %7s %7s %9s %8s\n' group caught missed unviable timeout
survived=0
for name in "${groups[@]}"; do
  out=$reports/$name/mutants.out
  printf '%-16s %7s %7s %9s %8s\n' "$name" "$(count "$out/caught.txt")" "$(count "$out/missed.txt")" \
    "$(count "$out/unviable.txt")" "$(count "$out/timeout.txt")"
  if [ -s "$out/missed.txt" ] || [ -s "$out/timeout.txt" ]; then survived=1; fi
done
for name in "${groups[@]}"; do
  cat "$reports/$name/mutants.out/missed.txt" "$reports/$name/mutants.out/timeout.txt" 2>/dev/null
done
[ "$survived" = 0 ] || exit 2
