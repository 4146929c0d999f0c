#!/usr/bin/env bash
# The browser package: clippy for wasm32, then build pkg-web/ and pkg-node/ (fails above the
# gzip size budget), Node tests, tsc on the generated types, and the wasm-bindgen-test suites
# in headless Chromium (npm test runs all three).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo clippy -p session-state-wasm --all-targets --target wasm32-unknown-unknown --locked -- -D warnings
cd bindings-wasm
npm ci --no-audit --no-fund
npm run build
npm test
