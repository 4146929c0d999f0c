#!/usr/bin/env bash
# The browser package: clippy for wasm32, then build pkg-web/ and pkg-node/ (the build checks
# the gzip size ceiling of the optimised wasm), Node tests (API, shared vectors, the viewer page
# end to end in /usr/bin/chromium with screenshots in target/e2e/), tsc on the generated types,
# and the wasm-bindgen-test suites in headless Chromium (npm test runs all three).
# Over the gzip size guard (scripts/build.mjs) the tests still run, and the script fails at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo clippy -p session-state-wasm --all-targets --target wasm32-unknown-unknown --locked -- -D warnings
cd bindings-wasm
npm ci --no-audit --no-fund
over_ceiling=0
npm run build || {
  rc=$?
  [ "$rc" -eq 3 ] || exit "$rc"
  over_ceiling=1
}
npm test
if [ "$over_ceiling" -eq 1 ]; then
  echo "60-wasm: FAILED: the optimised wasm is over its gzip size ceiling (see the size: lines above)" >&2
  exit 1
fi
