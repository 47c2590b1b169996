//! Lets `TASKHUB_SKIP_POSTGRES=1` / `TASKHUB_SKIP_REDIS=1` mark the tests that need those
//! services as ignored (see server/tests/common/services.rs): a test that did not run is never
//! reported as passed.
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    for (var, cfg) in [("TASKHUB_SKIP_POSTGRES", "taskhub_skip_postgres"), ("TASKHUB_SKIP_REDIS", "taskhub_skip_redis")]
    {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        println!("cargo::rerun-if-env-changed={var}");
        if std::env::var(var).is_ok_and(|value| !value.trim().is_empty() && value.trim() != "0") {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
}
