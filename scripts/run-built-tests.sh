#!/usr/bin/env bash
# Runs the test binaries that `cargo test --workspace` built for one package, as `cargo test -p`
# would run them (from the package's folder), without building them again: `cargo test -p X`
# alone resolves X's dependencies' features anew and so rebuilds the server and everything above
# it (about 5 minutes on 2 cores), where the workspace build already has the binaries.
#   scripts/run-built-tests.sh PACKAGE [TEST ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
package=$1
shift
# Every test executable of the package, from cargo's own list (already fresh: no compiling).
mapfile -t built < <(cargo test --workspace --no-run --message-format=json 2>/dev/null |
  python3 -c '
import json, sys
package = sys.argv[1]
for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if msg.get("reason") != "compiler-artifact" or not msg.get("executable"):
        continue
    if not msg.get("profile", {}).get("test"):
        continue
    name = msg["package_id"]
    # "path+file:///…/crates/server#virada-server@0.1.0", "path+file:///…/virada#0.1.0"
    # (the folder is the name) or, before cargo 1.77, "virada-server 0.1.0 (…)"
    if "#" in name:
        url, fragment = name.split("#", 1)
        name = fragment.rsplit("@", 1)[0] if "@" in fragment else url.rstrip("/").rsplit("/", 1)[1]
    else:
        name = name.split(" ", 1)[0]
    if name == package:
        print(msg["manifest_path"].rsplit("/", 1)[0] + "\t" + msg["executable"])
' "$package")
if [ "${#built[@]}" -eq 0 ]; then
  echo "run-built-tests: no test binaries of $package in the workspace build" >&2
  exit 1
fi
for entry in "${built[@]}"; do
  dir=${entry%%$'\t'*}
  exe=${entry#*$'\t'}
  echo "     Running $exe"
  (cd "$dir" && "$exe" "$@")
done
