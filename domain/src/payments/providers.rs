//! Which provider serves a payment. New checkouts go to today's provider
//! (Stripe when `STRIPE_SECRET_KEY` is set, else the sandbox); everything that
//! follows — status checks, expiry, transfers, refunds — goes to the provider
//! named on the payment row, so switching providers never sends an old
//! sandbox payment to Stripe (or the reverse).

use std::sync::Arc;

use store::db::Db;

use crate::{
    config::Config,
    payments::{PaymentError, PaymentProvider, Sandbox, Stripe},
};

#[derive(Clone)]
pub struct Providers {
    sandbox: Arc<Sandbox>,
    stripe: Option<Arc<Stripe>>,
}

impl Providers {
    /// `public_url` is where the sandbox's checkout page is served.
    pub fn from_config(config: &Config, db: &Db, public_url: &str) -> Self {
        let stripe =
            config.stripe_secret_key.as_ref().map(|key| Arc::new(Stripe::new(key.clone(), &config.stripe_api_base)));
        Self { sandbox: Arc::new(Sandbox::new(db.clone(), public_url)), stripe }
    }

    /// The provider for new checkouts and payout onboarding.
    pub fn current(&self) -> &dyn PaymentProvider {
        match &self.stripe {
            Some(stripe) => stripe.as_ref(),
            None => self.sandbox.as_ref(),
        }
    }

    /// The provider that holds a payment made through `name` (`payments.provider`).
    pub fn named(&self, name: &str) -> Result<&dyn PaymentProvider, PaymentError> {
        match (name, &self.stripe) {
            ("sandbox", _) => Ok(self.sandbox.as_ref()),
            ("stripe", Some(stripe)) => Ok(stripe.as_ref()),
            ("stripe", None) => {
                Err(PaymentError::Misconfigured("a Stripe payment needs STRIPE_SECRET_KEY to be managed".into()))
            }
            (other, _) => Err(PaymentError::Misconfigured(format!("unknown payment provider {other:?}"))),
        }
    }

    /// The sandbox, always available: its hosted page serves old sandbox sessions
    /// even after switching to Stripe, and tests inject its faults.
    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }
}
