-- What the sandbox provider actually paid out of each charge: the refund to the
-- poster and the transfer to the tasker, as the amounts it was asked for. One
-- of each per payment, as Stripe's idempotency keys allow; the ledger audit
-- reconciles them with the provider calls.
alter table sandbox_sessions add column refunded_cents bigint not null default 0;
alter table sandbox_sessions add column transferred_cents bigint not null default 0;
