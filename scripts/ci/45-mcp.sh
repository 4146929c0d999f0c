#!/usr/bin/env bash
# `session-state mcp` through the official MCP Python SDK (`mcp` from PyPI, in .venv from
# scripts/setup): the binary is built as `cargo test` builds it (dev profile, same features:
# nothing to do after 30-rust-tests.sh), then pytest runs cli/tests/mcp against it.
set -euo pipefail
cd "$(dirname "$0")/../.."
py=.venv/bin/python
[ -x "$py" ] || { echo "no .venv: run scripts/setup first"; exit 1; }
cargo test --workspace --locked --no-run --quiet
bin="${CARGO_TARGET_DIR:-$PWD/target}/debug/session-state"
[ -x "$bin" ] || { echo "no $bin after the build"; exit 1; }
SESSION_STATE_BIN="$bin" "$py" -m pytest -q -p no:cacheprovider cli/tests/mcp
