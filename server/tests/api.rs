//! Every integration test of this crate, as modules of one test binary: one link instead of
//! one per file. Run one file's tests with `cargo test -p server --test api <file>::`.

#[macro_use]
mod common;

mod accounts;
mod alert_writes;
mod alerts;
mod browse_reads;
mod chat_limits;
mod cluster;
mod control_characters;
mod database_sockets;
mod deployment;
mod disputes;
mod earnings;
mod earnings_refunds;
mod email_digests;
mod escrow_process;
mod fail_fast;
mod geocode_contact;
mod growth_limits;
mod job_changes;
mod job_changes_stripe;
mod last_active;
mod layers;
mod ledger_audit;
mod live_abuse;
mod marketplace_access;
mod marketplace_live;
mod message_photos;
mod moderation_actions;
mod moderation_guard;
mod moderation_live;
mod moderation_records;
mod moderation_removed;
mod moderation_reports;
mod notification_batches;
mod offers;
mod online_status;
mod openapi;
mod operator_routes;
mod operators;
mod own_cases;
mod payments_failures;
mod payments_lifecycle;
mod payments_live;
mod payments_processing;
mod payments_races;
mod payments_sandbox;
mod payments_stripe;
mod payouts_stripe;
mod places;
mod platform_names;
mod portfolio;
mod price_increases;
mod production_mode;
mod provider_limits;
mod push_delivery;
mod push_devices;
mod push_flood;
mod rate_limits;
mod read_receipts;
mod realtime;
mod refund_amounts;
mod removed_task_photos;
mod reputation;
mod robustness;
mod schema_parity;
mod schema_states;
mod search;
mod seed;
mod session_end;
mod sessions_and_privacy;
mod sharing_limits;
mod sms_twilio;
mod social_apple;
mod social_facebook;
mod social_google;
mod social_login_csrf;
mod social_sign_in;
mod social_unverified;
mod standoffs;
mod task_page;
mod task_photos;
mod tasks;
mod unsubscribe_links;
mod verification_identity;
mod verification_phone;
mod web_delivery;

/// `autotests = false` means a new file under `tests/` is compiled only once it is declared
/// above (or given a `[[test]]` of its own in Cargo.toml): this fails instead of the file's
/// tests silently never running.
#[test]
fn every_test_file_is_part_of_a_test_binary() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let root = std::fs::read_to_string(tests.join("api.rs")).unwrap();
    let manifest = std::fs::read_to_string(tests.join("../Cargo.toml")).unwrap();
    for entry in std::fs::read_dir(&tests).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let Some(name) = file.strip_suffix(".rs") else { continue };
        let declared = root.lines().any(|line| line == format!("mod {name};"));
        let own_binary = manifest.contains(&format!("path = \"tests/{file}\""));
        assert!(declared || own_binary, "tests/{file} is in no test binary: add `mod {name};` to tests/api.rs");
    }
}
