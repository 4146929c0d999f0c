#!/usr/bin/env bash
# Reliability harnesses (RELIABILITY.md) with CI counts; each prints its count line at the end.
# Runs after 40-python.sh and 50-node.sh so that Python and Node workers join the race.
# - crash-harness: 200 SIGKILLs (CRASH_KILLS=1000 for the bench run), seed CRASH_SEED (1).
# - concurrency-harness: Rust register workers (+ Python from .venv and Node from
#   bindings-node when those are built; otherwise printed as skipped) and a lifecycle race.
# - ownership-harness: 8 processes contend for one session (claims, takeovers, writes, kill -9s)
#   for OWNERSHIP_SECONDS (5 in CI; 30 for the figures in RELIABILITY.md).
# The hostile table, torn-at-every-byte and fuzz-corpus replay are Rust tests (30-rust-tests.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --locked -p session-state-harness --bins
./target/debug/crash-harness --kills "${CRASH_KILLS:-200}"
./target/debug/concurrency-harness
./target/debug/ownership-harness --seconds "${OWNERSHIP_SECONDS:-5}"
