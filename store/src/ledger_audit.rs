//! The ledger audit: every payment's ledger rows, provider calls and (in the sandbox) the money
//! the provider moved, reconciled with its status and amounts, the fee taken from the fee rule.
//! For tests, audits and the soak (`ledger::audit`), never for request paths.

pub mod increases;

use std::collections::HashMap;

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::{
    payments::process,
    states::{PaymentPurpose, PaymentStatus, ProviderCallStatus},
};

use crate::{db::Db, on_pool};

/// Labelled amounts, `(what, cents)`, sorted.
pub type Facts = Vec<(String, i64)>;

/// What a mismatch was found on: a payment in its status, or rows whose payment does not exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audited {
    Payment(PaymentStatus),
    MissingPayment,
}

impl Audited {
    /// The payment's status, or `missing`.
    pub fn as_str(self) -> &'static str {
        match self {
            Audited::Payment(status) => status.as_str(),
            Audited::MissingPayment => "missing",
        }
    }
}

/// One payment whose records do not match its status (or rows whose payment does not exist).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerMismatch {
    pub payment_id: Uuid,
    pub status: Audited,
    /// What the status calls for and what is recorded, as sorted `(what, cents)`: `ledger <kind>`
    /// rows, `call <kind>` provider calls, `sandbox <kind>` money the sandbox provider moved,
    /// `payment fee` and `payment refunded` on the payment row.
    pub expected: Vec<(String, i64)>,
    pub found: Vec<(String, i64)>,
}

/// A payment as the audit reads it.
#[derive(Clone, Debug, FromRow)]
pub struct AuditedPayment {
    pub id: Uuid,
    pub task_id: Uuid,
    #[sqlx(try_from = "String")]
    pub status: PaymentStatus,
    pub amount_cents: i64,
    pub refunded_cents: i64,
    pub fee_cents: i64,
    pub provider: String,
    pub session_id: String,
    /// Its kind of charge: which takes a fee is the process's (`process::charge`).
    #[sqlx(try_from = "String")]
    pub purpose: PaymentPurpose,
}

/// A ledger row or a provider call, as the audit reads it: `status` is the call's (`None` for a
/// ledger row).
#[derive(Clone, Debug)]
pub struct AuditedMovement {
    pub payment_id: Uuid,
    pub task_id: Option<Uuid>,
    pub kind: String,
    pub amount_cents: i64,
    pub status: Option<ProviderCallStatus>,
}

/// What the sandbox provider records it refunded and transferred out of a session's charge.
#[derive(Clone, Copy, Debug, Default)]
pub struct SandboxMoved {
    pub refunded_cents: i64,
    pub transferred_cents: i64,
}

/// What a payment in its status must have, with the fee from the fee rule (never the row's own
/// fee): nothing before money moved; the charge once held; once refunded the refund of all of it
/// (ledger row and provider call); once released the payout (and its transfer, when there is
/// anything to pay) and the fee of what was not refunded, and the refund of the rest. Sorted.
pub fn expected_facts(payment: &AuditedPayment) -> Vec<(String, i64)> {
    let amount = payment.amount_cents;
    let fee_cents = |cents| process::charge(payment.purpose).fee_cents(cents);
    let mut facts: Vec<(&str, i64)> = match payment.status {
        PaymentStatus::Held => vec![("ledger charge", amount), ("payment fee", fee_cents(amount))],
        PaymentStatus::Refunded => vec![
            ("ledger charge", amount),
            ("ledger refund", amount),
            ("call refund", amount),
            ("payment refunded", amount),
        ],
        PaymentStatus::Released => {
            let refunded = payment.refunded_cents;
            let fee = fee_cents(amount - refunded);
            let payout = amount - refunded - fee;
            let mut facts =
                vec![("ledger charge", amount), ("ledger payout", payout), ("ledger fee", fee), ("payment fee", fee)];
            if payout > 0 {
                facts.push(("call transfer", payout));
            }
            if refunded > 0 {
                facts.extend([("ledger refund", refunded), ("call refund", refunded)]);
            }
            facts
        }
        PaymentStatus::Pending | PaymentStatus::Processing | PaymentStatus::Failed | PaymentStatus::Expired => vec![],
    };
    facts.sort();
    facts.into_iter().map(|(what, cents)| (what.to_owned(), cents)).collect()
}

/// What is recorded for a payment, labelled as [`expected_facts`] labels it; a ledger row of
/// another task than its payment's is labelled so, and never matches.
pub fn found_facts(
    payment: &AuditedPayment,
    ledger: &[AuditedMovement],
    calls: &[AuditedMovement],
) -> Vec<(String, i64)> {
    let mut facts: Vec<(String, i64)> = ledger
        .iter()
        .map(|row| match row.task_id {
            Some(task) if task != payment.task_id => (format!("ledger {} of task {task}", row.kind), row.amount_cents),
            _ => (format!("ledger {}", row.kind), row.amount_cents),
        })
        .collect();
    facts.extend(calls.iter().map(|call| (format!("call {}", call.kind), call.amount_cents)));
    match payment.status {
        PaymentStatus::Held | PaymentStatus::Released => facts.push(("payment fee".into(), payment.fee_cents)),
        PaymentStatus::Refunded => facts.push(("payment refunded".into(), payment.refunded_cents)),
        PaymentStatus::Pending | PaymentStatus::Processing | PaymentStatus::Failed | PaymentStatus::Expired => {}
    }
    facts.sort();
    facts
}

/// The sandbox's side of a payment's provider calls: every call made (done) moved exactly its
/// amount, and nothing moved without a call. A call still owed (pending or parked) may or may not
/// have reached the sandbox yet, so its kind is left out. `(expected, found)`, sorted.
pub fn sandbox_facts(calls: &[AuditedMovement], moved: SandboxMoved) -> (Facts, Facts) {
    let mut expected = Vec::new();
    let mut found = Vec::new();
    for (kind, cents) in [("refund", moved.refunded_cents), ("transfer", moved.transferred_cents)] {
        let call = calls.iter().find(|call| call.kind == kind);
        match call {
            Some(call) if call.status == Some(ProviderCallStatus::Done) => {
                expected.push((format!("sandbox {kind}"), call.amount_cents));
                found.push((format!("sandbox {kind}"), cents));
            }
            Some(_) => {}
            None if cents != 0 => found.push((format!("sandbox {kind}"), cents)),
            None => {}
        }
    }
    (expected, found)
}

/// Checks every payment one by one (a charge and its refund cancelling out in a total would hide
/// a missing pair): its ledger rows, its provider calls and, in the sandbox, the money the
/// provider moved, against its status and amounts; and finds ledger rows and calls whose payment
/// is missing. Reads everything: for tests, audits and the soak, not for request paths.
#[instrument(skip_all)]
pub async fn audit(db: &Db) -> sqlx::Result<Vec<LedgerMismatch>> {
    let payments = audited_payments(db).await?;
    let ledger = audited_ledger_rows(db).await?;
    let calls = audited_provider_calls(db).await?;
    let sandbox = audited_sandbox_sessions(db).await?.into_iter().collect();
    let mut mismatches = reconcile(payments, ledger, calls, &sandbox);
    mismatches.extend(increases::mismatches(db).await?);
    mismatches.sort_by_key(|mismatch| mismatch.payment_id);
    Ok(mismatches)
}

/// The audit of what was read: every payment's facts against what its status calls for, then
/// every ledger row and call left over (their payment is missing).
pub fn reconcile(
    payments: Vec<AuditedPayment>,
    ledger: Vec<AuditedMovement>,
    calls: Vec<AuditedMovement>,
    sandbox: &HashMap<String, SandboxMoved>,
) -> Vec<LedgerMismatch> {
    let mut ledger = group_by_payment(ledger);
    let mut calls = group_by_payment(calls);
    let mut mismatches = Vec::new();
    for payment in payments {
        let ledger = ledger.remove(&payment.id).unwrap_or_default();
        let calls = calls.remove(&payment.id).unwrap_or_default();
        let mut expected = expected_facts(&payment);
        let mut found = found_facts(&payment, &ledger, &calls);
        if payment.provider == "sandbox" {
            let moved = sandbox.get(&payment.session_id).copied().unwrap_or_default();
            let (sandbox_expected, sandbox_found) = sandbox_facts(&calls, moved);
            expected.extend(sandbox_expected);
            found.extend(sandbox_found);
            expected.sort();
            found.sort();
        }
        if expected != found {
            let status = Audited::Payment(payment.status);
            mismatches.push(LedgerMismatch { payment_id: payment.id, status, expected, found });
        }
    }
    let mut orphans: HashMap<Uuid, Vec<(String, i64)>> = HashMap::new();
    let leftovers = ledger.into_values().flatten().map(|row| ("ledger", row));
    for (what, row) in leftovers.chain(calls.into_values().flatten().map(|call| ("call", call))) {
        orphans.entry(row.payment_id).or_default().push((format!("{what} {}", row.kind), row.amount_cents));
    }
    for (payment_id, found) in orphans {
        mismatches.push(LedgerMismatch { payment_id, status: Audited::MissingPayment, expected: vec![], found });
    }
    mismatches.sort_by_key(|mismatch| mismatch.payment_id);
    mismatches
}

fn group_by_payment(rows: Vec<AuditedMovement>) -> HashMap<Uuid, Vec<AuditedMovement>> {
    let mut grouped: HashMap<Uuid, Vec<AuditedMovement>> = HashMap::new();
    for row in rows {
        grouped.entry(row.payment_id).or_default().push(row);
    }
    grouped
}

#[instrument(skip_all)]
pub async fn audited_payments(db: &Db) -> sqlx::Result<Vec<AuditedPayment>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, AuditedPayment>(
            "select id, task_id, status, amount_cents, refunded_cents, fee_cents, provider, session_id, purpose
             from payments order by id",
        )
        .fetch_all(pool)
        .await
    })
}

#[instrument(skip_all)]
pub async fn audited_ledger_rows(db: &Db) -> sqlx::Result<Vec<AuditedMovement>> {
    let rows = on_pool!(db, |pool| {
        sqlx::query_as::<_, (Uuid, Uuid, String, i64)>(
            "select payment_id, task_id, kind, amount_cents from ledger_entries order by payment_id, kind",
        )
        .fetch_all(pool)
        .await
    })?;
    Ok(rows
        .into_iter()
        .map(|(payment_id, task_id, kind, amount_cents)| AuditedMovement {
            payment_id,
            task_id: Some(task_id),
            kind,
            amount_cents,
            status: None,
        })
        .collect())
}

#[instrument(skip_all)]
pub async fn audited_provider_calls(db: &Db) -> sqlx::Result<Vec<AuditedMovement>> {
    let rows = on_pool!(db, |pool| {
        sqlx::query_as::<_, (Uuid, String, i64, String)>(
            "select payment_id, kind, amount_cents, status from provider_calls order by payment_id, kind",
        )
        .fetch_all(pool)
        .await
    })?;
    Ok(rows
        .into_iter()
        .map(|(payment_id, kind, amount_cents, status)| AuditedMovement {
            payment_id,
            task_id: None,
            kind,
            amount_cents,
            // The CHECK constraint allows only the enum's values.
            status: ProviderCallStatus::parse(&status),
        })
        .collect())
}

#[instrument(skip_all)]
pub async fn audited_sandbox_sessions(db: &Db) -> sqlx::Result<Vec<(String, SandboxMoved)>> {
    let rows = on_pool!(db, |pool| {
        sqlx::query_as::<_, (String, i64, i64)>(
            "select id, refunded_cents, transferred_cents from sandbox_sessions
             where refunded_cents <> 0 or transferred_cents <> 0",
        )
        .fetch_all(pool)
        .await
    })?;
    Ok(rows
        .into_iter()
        .map(|(id, refunded_cents, transferred_cents)| (id, SandboxMoved { refunded_cents, transferred_cents }))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a_payment(status: &str, amount: i64, refunded: i64, fee: i64) -> AuditedPayment {
        AuditedPayment {
            id: Uuid::now_v7(),
            task_id: Uuid::now_v7(),
            status: PaymentStatus::parse(status).expect("a payment status"),
            amount_cents: amount,
            refunded_cents: refunded,
            fee_cents: fee,
            provider: "sandbox".into(),
            session_id: "cs_sandbox_1".into(),
            purpose: PaymentPurpose::Task,
        }
    }

    fn row(payment: &AuditedPayment, kind: &str, cents: i64) -> AuditedMovement {
        AuditedMovement {
            payment_id: payment.id,
            task_id: Some(payment.task_id),
            kind: kind.into(),
            amount_cents: cents,
            status: None,
        }
    }

    fn call(payment: &AuditedPayment, kind: &str, cents: i64, status: &str) -> AuditedMovement {
        AuditedMovement {
            payment_id: payment.id,
            task_id: None,
            kind: kind.into(),
            amount_cents: cents,
            status: ProviderCallStatus::parse(status),
        }
    }

    fn moved(refunded_cents: i64, transferred_cents: i64) -> HashMap<String, SandboxMoved> {
        HashMap::from([("cs_sandbox_1".to_owned(), SandboxMoved { refunded_cents, transferred_cents })])
    }

    /// A split dispute of 10 001: 3 333 back to the poster, the fee on the rest, the rest paid.
    fn split() -> (AuditedPayment, Vec<AuditedMovement>, Vec<AuditedMovement>) {
        let payment = a_payment("released", 10_001, 3_333, 667);
        let ledger = vec![
            row(&payment, "charge", 10_001),
            row(&payment, "refund", 3_333),
            row(&payment, "payout", 6_001),
            row(&payment, "fee", 667),
        ];
        let calls = vec![call(&payment, "refund", 3_333, "done"), call(&payment, "transfer", 6_001, "done")];
        (payment, ledger, calls)
    }

    #[test]
    fn matching_records_pass() {
        let (payment, ledger, calls) = split();
        assert_eq!(reconcile(vec![payment], ledger, calls, &moved(3_333, 6_001)), vec![]);
        let held = a_payment("held", 5_005, 0, 501);
        assert_eq!(reconcile(vec![held.clone()], vec![row(&held, "charge", 5_005)], vec![], &HashMap::new()), vec![]);
        let refunded = a_payment("refunded", 8_001, 8_001, 800);
        let ledger = vec![row(&refunded, "charge", 8_001), row(&refunded, "refund", 8_001)];
        let calls = vec![call(&refunded, "refund", 8_001, "done")];
        assert_eq!(reconcile(vec![refunded], ledger, calls, &moved(8_001, 0)), vec![]);
    }

    #[test]
    fn a_short_refund_call_is_found_even_when_the_ledger_says_refunded_in_full() {
        let refunded = a_payment("refunded", 8_001, 8_001, 800);
        let ledger = vec![row(&refunded, "charge", 8_001), row(&refunded, "refund", 8_001)];
        let calls = vec![call(&refunded, "refund", 7_201, "done")];
        let [mismatch] = reconcile(vec![refunded], ledger, calls, &moved(7_201, 0)).try_into().unwrap();
        assert!(mismatch.found.contains(&("call refund".into(), 7_201)), "{mismatch:?}");
        assert!(mismatch.expected.contains(&("call refund".into(), 8_001)), "{mismatch:?}");
    }

    #[test]
    fn the_sandbox_must_have_moved_exactly_what_each_made_call_says() {
        let (payment, ledger, calls) = split();
        let short = reconcile(vec![payment.clone()], ledger.clone(), calls.clone(), &moved(3_000, 6_001));
        assert_eq!(short.len(), 1, "a refund the sandbox made short");
        let nothing = reconcile(vec![payment.clone()], ledger.clone(), calls, &moved(0, 0));
        assert_eq!(nothing.len(), 1, "calls marked done that the sandbox never saw");
        let owed = vec![call(&payment, "refund", 3_333, "pending"), call(&payment, "transfer", 6_001, "parked")];
        assert_eq!(
            reconcile(vec![payment.clone()], ledger, owed, &moved(3_333, 0)),
            vec![],
            "owed calls may be either"
        );
        let held = a_payment("held", 5_005, 0, 501);
        let unasked = reconcile(vec![held.clone()], vec![row(&held, "charge", 5_005)], vec![], &moved(5_005, 0));
        assert_eq!(unasked.len(), 1, "money the sandbox moved without a call");
    }

    #[test]
    fn a_tip_is_paid_out_whole_with_a_fee_of_nothing() {
        let tip = AuditedPayment { purpose: PaymentPurpose::Tip, ..a_payment("released", 1_000, 0, 0) };
        let ledger = vec![row(&tip, "charge", 1_000), row(&tip, "payout", 1_000), row(&tip, "fee", 0)];
        let calls = vec![call(&tip, "transfer", 1_000, "done")];
        assert_eq!(reconcile(vec![tip.clone()], ledger, calls.clone(), &moved(0, 1_000)), vec![]);
        let charged = vec![row(&tip, "charge", 1_000), row(&tip, "payout", 900), row(&tip, "fee", 100)];
        assert_eq!(reconcile(vec![tip], charged, calls, &moved(0, 1_000)).len(), 1, "a fee taken from a tip");
    }

    /// The writers make no transfer call of nothing (`payout > 0`); nor may the audit ask for one.
    /// (The release and dispute paths never leave a payment released with nothing to pay, but the
    /// audit judges rows, not paths.)
    #[test]
    fn a_release_with_nothing_to_pay_out_expects_no_transfer_call() {
        let payment = a_payment("released", 2_000, 2_000, 0);
        let ledger = vec![
            row(&payment, "charge", 2_000),
            row(&payment, "refund", 2_000),
            row(&payment, "payout", 0),
            row(&payment, "fee", 0),
        ];
        let calls = vec![call(&payment, "refund", 2_000, "done")];
        assert_eq!(reconcile(vec![payment], ledger, calls, &moved(2_000, 0)), vec![]);
    }

    #[test]
    fn the_fee_comes_from_the_fee_rule_not_the_payment_row() {
        // Rows that agree with a wrong fee on the payment row still fail.
        let payment = a_payment("released", 10_000, 0, 500);
        let ledger = vec![row(&payment, "charge", 10_000), row(&payment, "payout", 9_500), row(&payment, "fee", 500)];
        let calls = vec![call(&payment, "transfer", 9_500, "done")];
        let [mismatch] = reconcile(vec![payment], ledger, calls, &moved(0, 9_500)).try_into().unwrap();
        assert!(mismatch.expected.contains(&("ledger fee".into(), 1_000)), "{mismatch:?}");
        let held = a_payment("held", 5_000, 0, 499);
        assert_eq!(reconcile(vec![held.clone()], vec![row(&held, "charge", 5_000)], vec![], &HashMap::new()).len(), 1);
    }

    #[test]
    fn rows_without_their_payment_or_of_another_task_are_reported() {
        let (payment, ledger, calls) = split();
        let gone = a_payment("held", 1_000, 0, 100);
        let mut with_orphans = ledger.clone();
        with_orphans.push(row(&gone, "charge", 1_000));
        let mut orphan_calls = calls.clone();
        orphan_calls.push(call(&gone, "refund", 1_000, "pending"));
        let mismatches = reconcile(vec![payment.clone()], with_orphans, orphan_calls, &moved(3_333, 6_001));
        let [orphans] = mismatches.try_into().unwrap();
        assert_eq!((orphans.payment_id, orphans.status.as_str()), (gone.id, "missing"));
        assert_eq!(orphans.found, [("ledger charge".to_owned(), 1_000), ("call refund".to_owned(), 1_000)]);

        let mut elsewhere = ledger;
        elsewhere[0].task_id = Some(Uuid::now_v7());
        assert_eq!(reconcile(vec![payment], elsewhere, calls, &moved(3_333, 6_001)).len(), 1);
    }

    #[test]
    fn nothing_may_move_before_a_payment_is_held() {
        for status in ["pending", "processing", "expired", "failed"] {
            let open = a_payment(status, 4_000, 0, 400);
            assert_eq!(reconcile(vec![open.clone()], vec![], vec![], &HashMap::new()), vec![], "{status}");
            let charged = reconcile(vec![open.clone()], vec![row(&open, "charge", 4_000)], vec![], &HashMap::new());
            assert_eq!(charged.len(), 1, "{status} with a charge");
        }
    }
}
