#!/usr/bin/env bash
# Runs every check: formatting, lints, all Rust tests, then the browser end-to-end tests.
# This is the README's test command; .ci/run calls it.
#
# Clippy, the tests and the e2e server share one build profile (Cargo.toml: `test` = `dev`), so
# each dependency is checked once and built once. Tests that need ../shared/data (or
# $VIRADA_DATA) and cannot find it fail when CI is set; otherwise they print SKIPPED and are
# counted in the closing lines. Tests that need PostgreSQL (VIRADA_TEST_PG) do the same; here
# scripts/pg-test.sh always provides it.
set -euo pipefail
cd "$(dirname "$0")/.."

# A clean checkout (CI) builds everything once: incremental compilation's caches would only
# cost time and disk there.
if [ -n "${CI:-}" ]; then
  export CARGO_INCREMENTAL=0
fi

started=$(date +%s)
phase_start=$started
SKIP_LOG=$(mktemp)
export VIRADA_SKIP_LOG=$SKIP_LOG

phase() {
  local now
  now=$(date +%s)
  if [ "$now" -gt "$started" ]; then
    echo "   ($(( now - phase_start )) s)"
  fi
  phase_start=$now
  echo "== $1"
}

summary() {
  local status=$?
  echo "== done in $(( $(date +%s) - started )) s"
  local skipped
  skipped=$(sort -u "$SKIP_LOG" | grep -c . || true)
  if [ "$skipped" -gt 0 ]; then
    echo "== $skipped skipped for missing data (../shared/data or VIRADA_DATA) or PostgreSQL (VIRADA_TEST_PG): $(sort -u "$SKIP_LOG" | paste -sd ',' | sed 's/,/, /g')"
  else
    echo "== 0 skipped for missing data or PostgreSQL"
  fi
  rm -f "$SKIP_LOG"
  exit "$status"
}
trap summary EXIT

if [ -x scripts/e2e.sh ]; then
  # Node, npm and Chromium are checked (and the npm packages installed) first, so a missing one
  # is reported before the build.
  phase "browser test prerequisites"
  scripts/e2e.sh --check
  # The browser app's JavaScript, type-checked (every module is `// @ts-check`; TypeScript pinned
  # in e2e/package.json; crates/web/tsconfig.json says which checks).
  phase "tsc --noEmit (the browser app)"
  e2e/node_modules/.bin/tsc --noEmit -p crates/web/tsconfig.json
fi
phase "cargo fmt --check"
cargo fmt --all -- --check
phase "cargo clippy (warnings denied)"
cargo clippy --workspace --all-targets -- -D warnings
# The tests run with a throwaway PostgreSQL (scripts/pg-test.sh): the store crate's suite
# (crates/store/tests) runs every check on both stores whenever VIRADA_TEST_PG is set (and fails
# under CI when it is not), then every server test runs again with its games in PostgreSQL.
phase "cargo test (with a throwaway PostgreSQL for the store suite)"
scripts/pg-test.sh cargo test --workspace
# docs/DEPLOY.md followed from scratch (a cluster of its own with SCRAM passwords, the role, the
# migrations, two instances of the binary the tests built, health, a move across, a clean stop).
phase "DEPLOY.md followed from scratch (scripts/deploy-check.sh)"
scripts/deploy-check.sh target/debug/virada
phase "server tests on PostgreSQL (VIRADA_TEST_STORE=postgres)"
# The binaries the workspace build made (`cargo test -p` would rebuild with other features).
VIRADA_TEST_STORE=postgres scripts/pg-test.sh scripts/run-built-tests.sh virada-server
if [ -x scripts/e2e.sh ]; then
  phase "browser end-to-end tests"
  VIRADA_NPM_INSTALLED=1 scripts/e2e.sh
fi
phase "all checks passed"
