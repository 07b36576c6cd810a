#!/usr/bin/env bash
# Browser end-to-end tests: builds the server, starts it on a free port with a throw-away
# database, and drives the web app in Debian's headless Chromium (playwright-core, node --test).
# Screenshots and the page-weight report go to e2e/screenshots/. Called by scripts/test-all.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

# Node 18+ and npm run the tests (node --test, playwright-core from npm).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "error: the browser tests need Node.js 18 or newer and npm (Debian: apt-get install nodejs npm)" >&2
  exit 1
fi
NODE_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
if [ "$NODE_MAJOR" -lt 18 ]; then
  echo "error: the browser tests need Node.js 18 or newer; found $(node --version)" >&2
  exit 1
fi

# The browser: $CHROMIUM if set, else chromium on the PATH, else Debian's package installed with
# apt-get when this user may (root with apt-get available), else a message saying what to do.
if [ -n "${CHROMIUM:-}" ]; then
  if [ ! -x "$CHROMIUM" ]; then
    echo "error: CHROMIUM=$CHROMIUM is not an executable file" >&2
    exit 1
  fi
else
  CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
  if [ -z "$CHROMIUM" ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
      echo "== installing chromium (Debian package, apt-get)"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq
      apt-get install -y -qq chromium >/dev/null
      CHROMIUM=$(command -v chromium)
    else
      echo "error: the browser tests need Chromium, and it is not installed." >&2
      echo "  Install it (Debian/Ubuntu: sudo apt-get install chromium) or point to a" >&2
      echo "  Chromium or Chrome binary: CHROMIUM=/path/to/chromium scripts/test-all.sh" >&2
      exit 1
    fi
  fi
fi
export CHROMIUM
echo "== browser: $CHROMIUM"
# The pinned npm packages (playwright-core, typescript): `npm ci` installs them as the lock file
# says. VIRADA_NPM_INSTALLED=1: the caller (test-all.sh, after `--check`) already did.
if [ "${VIRADA_NPM_INSTALLED:-}" != 1 ]; then
  echo "== npm ci (e2e/)"
  (cd e2e && npm ci --no-audit --no-fund --loglevel=error)
fi
# `scripts/e2e.sh --check`: the prerequisites only, installed (test-all.sh asks first, before the
# long build, and then type-checks the app with the TypeScript installed here).
if [ "${1:-}" = "--check" ]; then
  exit 0
fi

# `cargo test --workspace` (run just before by test-all.sh) already builds the `virada` binary
# for the CLI's integration tests, with the optimised test profile: asking cargo for the test
# build again is then a no-op, and its JSON messages name that up-to-date binary. A plain
# `cargo build -p virada` would unify features differently and rebuild half the dependencies.
if [ -n "${VIRADA_BIN:-}" ]; then
  BIN=$VIRADA_BIN # a binary built by the caller
else
echo "== building the server (cargo test --workspace --no-run)"
BIN=$(cargo test --workspace --no-run --message-format=json-render-diagnostics | node -e '
  let bin = "";
  require("readline").createInterface({ input: process.stdin }).on("line", (l) => {
    try {
      const m = JSON.parse(l);
      if (m.reason === "compiler-artifact" && m.executable && m.target.name === "virada" && m.target.kind.includes("bin") && !m.profile.test) bin = m.executable;
    } catch {}
  }).on("close", () => console.log(bin));')
if [ -z "$BIN" ]; then
  cargo build --profile test -p virada
  BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/virada"
fi
fi
echo "== server binary: $BIN"

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The tests create games and open streams faster than a person would: the per-address limits
# (tested in crates/server/tests/ownership_limits.rs) are lifted for this machine.
"$BIN" serve --addr 127.0.0.1:0 --db "$WORK/e2e.sqlite" --rate-limit-exempt 127.0.0.1 \
  --rate-limit-exempt ::1 >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
URL=""
for _ in $(seq 1 300); do
  URL=$(sed -n 's/^listening on \(http[^ ]*\).*/\1/p' "$WORK/server.out" | head -n 1)
  [ -n "$URL" ] && break
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "the server exited before listening:"; cat "$WORK/server.out" "$WORK/server.err"; exit 1
  fi
  sleep 0.1
done
if [ -z "$URL" ]; then
  echo "the server did not print 'listening on ...' within 30 s"; cat "$WORK/server.err"; exit 1
fi
echo "== server at $URL"

mkdir -p e2e/screenshots
started=$(date +%s)
set +e
(cd e2e && VIRADA_URL="$URL" VIRADA_BIN="$(realpath "$BIN")" node --test --test-reporter=tap --test-concurrency=1 tests/) | tee "$WORK/tap.txt"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "== server log (last 40 lines)"; tail -n 40 "$WORK/server.err" || true
fi
echo "== e2e: $(( $(date +%s) - started )) s in the browser; screenshots and page-weight.txt in e2e/screenshots/"
# The runner's own totals, repeated as the closing lines.
grep -E '^# (tests|pass|fail) ' "$WORK/tap.txt" || true
exit "$status"
