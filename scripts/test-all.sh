#!/usr/bin/env bash
# Runs every check: formatting, lints, all Rust tests, then the browser end-to-end tests.
# This is the README's test command; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy (warnings denied)"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo test"
cargo test --workspace
if [ -x scripts/e2e.sh ]; then
  echo "== browser end-to-end tests"
  scripts/e2e.sh
fi
