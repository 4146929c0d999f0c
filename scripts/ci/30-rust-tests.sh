#!/usr/bin/env bash
# Every Rust test of the workspace (unit, integration, doc tests).
set -euo pipefail
cargo test --workspace --locked
