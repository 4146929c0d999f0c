#!/usr/bin/env bash
# Formatting and clippy (host), warnings are errors.
set -euo pipefail
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
