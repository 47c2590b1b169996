//! The ledger audit's look at price increases: every increase's payment has its own ledger rows
//! (audited as every payment's are, in `ledger_audit`), and must also agree with its price
//! increase and its parent payment.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::PaymentStatus;

use super::{Audited, LedgerMismatch};
use crate::{db::Db, on_pool};

/// Every increase's payment that disagrees with its increase or its parent.
pub async fn mismatches(db: &Db) -> sqlx::Result<Vec<LedgerMismatch>> {
    Ok(audited_increases(db).await?.iter().filter_map(increase_mismatch).collect())
}

/// An increase's payment as the audit reads it: its own status, whether it was ever held, whether
/// its parent is a payment of the same task that was held, and its price increase's status.
#[derive(Clone, Debug, FromRow)]
pub struct AuditedIncrease {
    pub payment_id: Uuid,
    #[sqlx(try_from = "String")]
    pub status: PaymentStatus,
    pub was_held: bool,
    pub parent_held_on_task: bool,
    pub increase_status: Option<String>,
}

/// What an increase's payment must agree with (its own money is audited as every payment's is):
/// a parent on its task that was held, and a price increase that is `paid` exactly when the
/// payment reached escrow; one charged after its increase closed is refunded at once.
pub fn increase_mismatch(row: &AuditedIncrease) -> Option<LedgerMismatch> {
    let expected_increase = match (row.status, row.was_held) {
        (PaymentStatus::Held | PaymentStatus::Released, _) | (PaymentStatus::Refunded, true) => "paid",
        (PaymentStatus::Refunded, false) => "closed",
        (PaymentStatus::Pending | PaymentStatus::Processing, _) => "approved or closed",
        (PaymentStatus::Failed | PaymentStatus::Expired, _) => "not paid",
    };
    let found = row.increase_status.as_deref().unwrap_or("missing");
    let agrees = match expected_increase {
        "approved or closed" => matches!(found, "approved" | "closed"),
        // An expired or failed checkout is detached from its increase, which may be approved again.
        "not paid" => found != "paid",
        expected => found == expected,
    };
    (!agrees || !row.parent_held_on_task).then(|| LedgerMismatch {
        payment_id: row.payment_id,
        status: Audited::Payment(row.status),
        expected: vec![(format!("increase {expected_increase}"), 1), ("parent held on the task".into(), 1)],
        found: vec![
            (format!("increase {found}"), 1),
            ("parent held on the task".into(), i64::from(row.parent_held_on_task)),
        ],
    })
}

#[instrument(skip_all)]
pub async fn audited_increases(db: &Db) -> sqlx::Result<Vec<AuditedIncrease>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, AuditedIncrease>(
            "select p.id as payment_id, p.status, (p.held_at is not null) as was_held,
                    exists (select 1 from payments parent where parent.id = p.parent_payment_id
                            and parent.task_id = p.task_id and parent.held_at is not null) as parent_held_on_task,
                    (select i.status from price_increases i where i.payment_id = p.id) as increase_status
             from payments p where p.purpose = 'increase' order by p.id",
        )
        .fetch_all(pool)
        .await
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn an_increase(status: &str, was_held: bool, increase_status: Option<&str>) -> AuditedIncrease {
        AuditedIncrease {
            payment_id: Uuid::now_v7(),
            status: PaymentStatus::parse(status).expect("a payment status"),
            was_held,
            parent_held_on_task: true,
            increase_status: increase_status.map(Into::into),
        }
    }

    #[test]
    fn an_increase_is_paid_exactly_when_its_payment_reached_escrow() {
        let agreeing = [
            an_increase("held", true, Some("paid")),
            an_increase("released", true, Some("paid")),
            an_increase("refunded", true, Some("paid")),
            an_increase("refunded", false, Some("closed")),
            an_increase("pending", false, Some("approved")),
            an_increase("processing", false, Some("closed")),
            an_increase("expired", false, None),
            an_increase("failed", false, Some("pending")),
        ];
        for row in &agreeing {
            assert_eq!(increase_mismatch(row), None, "{row:?}");
        }
        let disagreeing = [
            an_increase("held", true, Some("approved")),
            an_increase("held", true, None),
            an_increase("refunded", false, Some("paid")),
            an_increase("expired", false, Some("paid")),
            an_increase("pending", false, Some("paid")),
            // Closed is the only answer for a charge refunded before it was ever held, and
            // approved or closed the only ones while its checkout is open.
            an_increase("refunded", false, Some("approved")),
            an_increase("processing", false, Some("pending")),
            AuditedIncrease { parent_held_on_task: false, ..an_increase("held", true, Some("paid")) },
        ];
        for row in &disagreeing {
            assert!(increase_mismatch(row).is_some(), "{row:?}");
        }
    }
}
