#!/usr/bin/env bash
# Runs cargo-mutants on the server's crates (model, store, server; the tests are the server's) (`make mutants`, docs/mutants.md), cheaply on a second run:
#
# - The tree is mirrored into one scratch copy, $TARGET/mutants-work/tree, that every run reuses
#   (files whose content did not change keep their times), and mutated there in place. cargo-mutants'
#   default, a fresh temporary copy per run, makes each run start with a build of the workspace's
#   own crates from scratch (their paths changed), and leaves your own build of them stale too.
# - That copy builds into its own target dir, $TARGET/mutants-work/target, seeded once from your
#   target's dependencies, so it never rebuilds them and never touches your build.
#
# The mirror is what `git ls-files` lists (tracked and untracked files that are not ignored), as
# they are on disk. The report is in $TARGET/mutants.out (or $MUTANTS_OUT/mutants.out).
#
# usage: scripts/mutants.sh [cargo-mutants args] [-- [test targets] [-- test name filters]]
#   e.g. scripts/mutants.sh --file server/src/http/admin.rs -- --test api -- disputes::sqlite::
# The test targets (`--lib`, `--test api`) are given to every cargo call, the build's too:
# arguments after cargo-mutants' own `--` reach only `cargo test`, so its build step
# (`cargo test --no-run`) would otherwise build every test target of the crate for each mutant. An interrupted run leaves a mutated file only in the copy, which the next
# run mirrors again.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
work=$target/mutants-work
mkdir -p "$work/tree"

if [ ! -d "$work/target" ] && [ -d "$target/debug/deps" ]; then
  # The dependencies' build products (the workspace's own crates are rebuilt for the copy anyway).
  mkdir -p "$work/target"
  rsync -a --exclude /debug/incremental "$target/debug" "$work/target/"
fi

cd "$root"
git ls-files -z --cached --others --exclude-standard \
  | rsync -rl --checksum --from0 --files-from=- --ignore-missing-args . "$work/tree/"

mutants_args=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do mutants_args+=("$1"); shift; done
[ $# -gt 0 ] && shift
while [ $# -gt 0 ] && [ "$1" != -- ]; do mutants_args+=("--cargo-arg=$1"); shift; done
[ $# -gt 0 ] && shift

# nextest (`cargo install --locked cargo-nextest`) stops at a mutant's first failing test, where
# cargo test runs the whole set every time: most mutants are caught, so it halves a run.
if cargo nextest --version >/dev/null 2>&1; then mutants_args+=(--test-tool=nextest); fi

out=${MUTANTS_OUT:-$target}
mkdir -p "$out"
cd "$work/tree"
CARGO_TARGET_DIR=$work/target exec cargo mutants --in-place --package model --package store --package server --test-package server --output "$out" \
  "${mutants_args[@]}" -- -- "$@"
