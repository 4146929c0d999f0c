#!/usr/bin/env bash
# Formatting and clippy (host), warnings are errors.
set -euo pipefail
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
# The scripts' own checks.
python3 -m doctest scripts/count-tests.py
