//! The default provider: a hosted checkout page served by this server at
//! `/sandbox/checkout/{session_id}` (see `http::payments_sandbox`), with a
//! test card form. Sessions live in the database so any node can serve them;
//! payout accounts are set up on a local page (`/sandbox/payouts/{account}`);
//! transfers (even to a tasker without one, where Stripe would refuse and the
//! outbox would retry) and refunds succeed at once, each recorded on the
//! session at the amount asked for (within the charge) — unless a fault
//! was injected ([`SandboxFaults`]), which is how tests and the soak drive the
//! failure paths a real provider has (an outage, a transfer refused until the
//! tasker sets up payouts).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use async_trait::async_trait;
use uuid::Uuid;

use store::{
    db::{Db, Timestamp},
    payments,
    sandbox_sessions::{self, SandboxSession},
};

use crate::payments::{
    CheckoutRequest, CheckoutSession, CheckoutStatus, Onboarding, OnboardingRequest, PaymentError, PaymentProvider,
    RefundRequest, SESSION_ID_PLACEHOLDER, TransferRequest,
};

/// The test card that is always declined (as in Stripe's test mode).
pub const DECLINED_CARD: &str = "4000000000000002";

pub struct Sandbox {
    db: Db,
    public_url: String,
    faults: SandboxFaults,
}

/// The provider calls a fault can be injected into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    CreateCheckout,
    CheckoutStatus,
    ExpireCheckout,
    Transfer,
    Refund,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The next `n` calls fail as an outage would (retryable).
    Unavailable(u32),
    /// Every call fails as an outage would, until cleared.
    Down,
    /// Every call is refused (e.g. a transfer to a tasker without a payout account), until cleared.
    Refused,
}

/// Faults injected into the sandbox, shared by every clone of the handle.
#[derive(Clone, Default)]
pub struct SandboxFaults {
    faults: Arc<Mutex<HashMap<Call, Fault>>>,
}

impl SandboxFaults {
    pub fn inject(&self, call: Call, fault: Fault) {
        self.faults.lock().expect("faults lock").insert(call, fault);
    }

    pub fn clear(&self) {
        self.faults.lock().expect("faults lock").clear();
    }

    /// Consumes one injected failure of `call`, if any.
    fn check(&self, call: Call) -> Result<(), PaymentError> {
        let mut faults = self.faults.lock().expect("faults lock");
        let outage = || PaymentError::Unavailable(format!("sandbox: injected outage of {call:?}"));
        match faults.get(&call).copied() {
            None => Ok(()),
            Some(Fault::Down) => Err(outage()),
            Some(Fault::Refused) => Err(PaymentError::Rejected {
                code: "sandbox_refused".into(),
                message: format!("sandbox: injected refusal of {call:?}"),
            }),
            Some(Fault::Unavailable(left)) => {
                if left <= 1 {
                    faults.remove(&call);
                } else {
                    faults.insert(call, Fault::Unavailable(left - 1));
                }
                Err(outage())
            }
        }
    }
}

impl Sandbox {
    pub fn new(db: Db, public_url: &str) -> Self {
        Self { db, public_url: public_url.trim_end_matches('/').to_owned(), faults: SandboxFaults::default() }
    }

    pub fn faults(&self) -> &SandboxFaults {
        &self.faults
    }

    /// One session per payment, so a retried create returns the same session.
    pub fn session_id(payment_id: Uuid) -> String {
        format!("cs_sandbox_{}", payment_id.simple())
    }

    pub fn checkout_url(&self, session_id: &str) -> String {
        format!("{}/sandbox/checkout/{session_id}", self.public_url)
    }

    /// The local stand-in for Stripe's hosted Connect onboarding.
    pub fn onboarding_url(&self, account_ref: &str) -> String {
        format!("{}/sandbox/payouts/{account_ref}", self.public_url)
    }
}

fn database(error: sqlx::Error) -> PaymentError {
    PaymentError::Unavailable(format!("sandbox store: {error}"))
}

fn unknown_session(session_id: &str) -> PaymentError {
    PaymentError::Rejected {
        code: "resource_missing".into(),
        message: format!("No such checkout session: {session_id}"),
    }
}

fn beyond_the_charge(what: &str, amount_cents: i64, session_id: &str) -> PaymentError {
    PaymentError::Rejected {
        code: "amount_too_large".into(),
        message: format!(
            "sandbox: a {what} of {amount_cents} cents is not possible from {session_id} \
             (not positive, more than is left of the charge, or another {what} was already made)"
        ),
    }
}

/// How long a sandbox bank debit takes to settle (days at a real bank).
pub const DEBIT_SETTLES_AFTER: std::time::Duration = std::time::Duration::from_secs(2 * 60);
/// Stripe's BECS test accounts: the first settles, the second fails.
pub const DEBIT_ACCOUNT_SETTLES: &str = "000123456";
pub const DEBIT_ACCOUNT_FAILS: &str = "111111113";

fn status_of(session: &SandboxSession, now: Timestamp) -> CheckoutStatus {
    match session.status.as_str() {
        "complete" => match session.settles_at {
            Some(settles_at) if settles_at > now => CheckoutStatus::Processing { payment_intent: None },
            Some(_) if session.debit_fails => CheckoutStatus::Failed,
            _ => CheckoutStatus::Paid { charge_ref: session.charge_ref.clone(), payment_intent: None },
        },
        "open" if session.expires_at > now => CheckoutStatus::Open,
        _ => CheckoutStatus::Expired,
    }
}

#[async_trait]
impl PaymentProvider for Sandbox {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    async fn create_checkout(&self, request: &CheckoutRequest) -> Result<CheckoutSession, PaymentError> {
        self.faults.check(Call::CreateCheckout)?;
        let id = Self::session_id(request.payment_id);
        let session = SandboxSession {
            id: id.clone(),
            description: request.description.clone(),
            amount_cents: request.amount_cents,
            fee_cents: request.fee_cents,
            currency: request.currency.clone(),
            success_url: request.success_url.replace(SESSION_ID_PLACEHOLDER, &id),
            cancel_url: request.cancel_url.clone(),
            metadata: serde_json::to_string(&request.metadata).unwrap_or_else(|_| "{}".into()),
            status: "open".into(),
            charge_ref: None,
            created_at: Timestamp::now(),
            expires_at: Timestamp(request.expires_at),
            completed_at: None,
            settles_at: None,
            debit_fails: false,
            refunded_cents: 0,
            transferred_cents: 0,
        };
        sandbox_sessions::insert(&self.db, &session).await.map_err(database)?;
        Ok(CheckoutSession { url: self.checkout_url(&id), id })
    }

    async fn checkout_status(&self, session_id: &str) -> Result<CheckoutStatus, PaymentError> {
        self.faults.check(Call::CheckoutStatus)?;
        let session = sandbox_sessions::session(&self.db, session_id).await.map_err(database)?;
        let session = session.ok_or_else(|| unknown_session(session_id))?;
        Ok(status_of(&session, Timestamp::now()))
    }

    async fn expire_checkout(&self, session_id: &str) -> Result<CheckoutStatus, PaymentError> {
        self.faults.check(Call::ExpireCheckout)?;
        sandbox_sessions::expire(&self.db, session_id).await.map_err(database)?;
        self.checkout_status(session_id).await
    }

    async fn transfer(&self, request: &TransferRequest) -> Result<String, PaymentError> {
        self.faults.check(Call::Transfer)?;
        let session = Self::session_id(request.payment_id);
        if !sandbox_sessions::record_transfer(&self.db, &session, request.amount_cents).await.map_err(database)? {
            return Err(beyond_the_charge("transfer", request.amount_cents, &session));
        }
        Ok(format!("tr_sandbox_{}", request.payment_id.simple()))
    }

    /// Refunds exactly the amount asked for, as Stripe does: at most once per payment and never
    /// more than what is left of the charge, so a short or doubled refund shows in its records.
    async fn refund(&self, request: &RefundRequest) -> Result<String, PaymentError> {
        self.faults.check(Call::Refund)?;
        let session = Self::session_id(request.payment_id);
        if !sandbox_sessions::record_refund(&self.db, &session, request.amount_cents).await.map_err(database)? {
            return Err(beyond_the_charge("refund", request.amount_cents, &session));
        }
        Ok(format!("re_sandbox_{}", request.payment_id.simple()))
    }

    /// The account is created not ready; the tasker makes it ready on the
    /// local onboarding page, as they would on Stripe's.
    async fn onboarding(&self, request: &OnboardingRequest) -> Result<Onboarding, PaymentError> {
        let account_ref = match &request.account_ref {
            Some(account_ref) => account_ref.clone(),
            // Random, not derived from the user id: the page's address is what lets one finish the setup.
            None => format!("acct_sandbox_{}", Uuid::new_v4().simple()),
        };
        let ready = self.payout_account_ready(&account_ref).await?;
        let url = (!ready).then(|| self.onboarding_url(&account_ref));
        Ok(Onboarding { account_ref, url, ready })
    }

    async fn payout_account_ready(&self, account_ref: &str) -> Result<bool, PaymentError> {
        let account = payments::payout_account_by_ref(&self.db, account_ref).await.map_err(database)?;
        Ok(account.is_some_and(|(_, ready)| ready))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outage_of_n_calls_fails_exactly_the_next_n_calls_of_that_kind() {
        let faults = SandboxFaults::default();
        faults.inject(Call::Transfer, Fault::Unavailable(3));
        let outcomes: Vec<bool> = (0..5).map(|_| faults.check(Call::Transfer).is_ok()).collect();
        assert_eq!(outcomes, [false, false, false, true, true]);
        assert!(faults.check(Call::Refund).is_ok(), "another kind of call is not affected");
    }

    fn a_session(status: &str, expires_at: i64, settles_at: Option<i64>, debit_fails: bool) -> SandboxSession {
        SandboxSession {
            id: "cs_sandbox_1".into(),
            description: "Fix the fence".into(),
            amount_cents: 10_000,
            fee_cents: 1_000,
            currency: "aud".into(),
            success_url: String::new(),
            cancel_url: String::new(),
            metadata: "{}".into(),
            status: status.into(),
            charge_ref: Some("ch_sandbox_1".into()),
            created_at: Timestamp(0),
            expires_at: Timestamp(expires_at),
            completed_at: settles_at.map(|_| Timestamp(0)),
            settles_at: settles_at.map(Timestamp),
            debit_fails,
            refunded_cents: 0,
            transferred_cents: 0,
        }
    }

    /// A debit is processing until the moment it settles, and settled (or failed) from then on; an
    /// open session is open until the moment it expires, and expired from then on.
    #[test]
    fn a_debit_settles_and_a_session_expires_at_their_own_moment() {
        let paid = CheckoutStatus::Paid { charge_ref: Some("ch_sandbox_1".into()), payment_intent: None };
        let processing = CheckoutStatus::Processing { payment_intent: None };
        let settling = a_session("complete", 0, Some(5_000), false);
        assert_eq!(status_of(&settling, Timestamp(4_999)), processing);
        assert_eq!(status_of(&settling, Timestamp(5_000)), paid);
        let failing = a_session("complete", 0, Some(5_000), true);
        assert_eq!(status_of(&failing, Timestamp(4_999)), processing);
        assert_eq!(status_of(&failing, Timestamp(5_000)), CheckoutStatus::Failed);
        assert_eq!(status_of(&a_session("complete", 0, None, false), Timestamp(9_000)), paid, "paid by card");
        let open = a_session("open", 5_000, None, false);
        assert_eq!(status_of(&open, Timestamp(4_999)), CheckoutStatus::Open);
        assert_eq!(status_of(&open, Timestamp(5_000)), CheckoutStatus::Expired);
        assert_eq!(status_of(&a_session("expired", 5_000, None, false), Timestamp(1_000)), CheckoutStatus::Expired);
    }
}
