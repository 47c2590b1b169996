//! Every integration test of this crate, as modules of one test binary: one link instead of
//! one per file. Run one file's tests with `cargo test -p realtime --test hub <file>::`.

#[macro_use]
mod common;

mod abuse;
mod backpressure;
mod cluster;
mod disconnect;
mod online;
mod presence;
mod protocol;
mod recovery;

/// `autotests = false` means a new file under `tests/` is compiled only once it is declared
/// above: this fails instead of the file's tests silently never running.
#[test]
fn every_test_file_is_part_of_the_test_binary() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let root = std::fs::read_to_string(tests.join("hub.rs")).unwrap();
    let manifest = std::fs::read_to_string(tests.join("../Cargo.toml")).unwrap();
    for entry in std::fs::read_dir(&tests).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let Some(name) = file.strip_suffix(".rs") else { continue };
        let declared = root.lines().any(|line| line == format!("mod {name};"));
        let own_binary = manifest.contains(&format!("path = \"tests/{file}\""));
        assert!(declared || own_binary, "tests/{file} is in no test binary: add `mod {name};` to tests/hub.rs");
    }
}
