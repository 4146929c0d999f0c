#!/usr/bin/env bash
# The browser package: clippy for wasm32, then build pkg-web/ and pkg-node/ (the build checks
# the gzip size budget of the optimised wasm), Node tests (API, shared vectors, the viewer page
# end to end in /usr/bin/chromium with screenshots in target/e2e/), tsc on the generated types,
# and the wasm-bindgen-test suites in headless Chromium (npm test runs all three).
# Over the size guard the tests still run, and the script fails at the end. The guard is
# above issue 7's 120 KB target for now: see bindings-wasm/README.md, "Size".
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo clippy -p session-state-wasm --all-targets --target wasm32-unknown-unknown --locked -- -D warnings
cd bindings-wasm
npm ci --no-audit --no-fund
over_budget=0
npm run build || {
  rc=$?
  [ "$rc" -eq 3 ] || exit "$rc"
  over_budget=1
}
npm test
if [ "$over_budget" -eq 1 ]; then
  echo "60-wasm: FAILED: the optimised wasm is over its gzip size guard (see the size: lines above)" >&2
  exit 1
fi
