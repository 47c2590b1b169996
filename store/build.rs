//! Rebuilds the store when a migration is added or changed: `sqlx::migrate!` embeds
//! `migrations/` at compile time, and cargo does not watch that folder (it is outside the crate).
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=../migrations");
}
