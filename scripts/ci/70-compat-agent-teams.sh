#!/usr/bin/env bash
# Byte-level compatibility with the real `agent-teams` 0.1.0 crate, both ways: its files load
# and re-save identically here (core tests), and the files we write parse in the crate (this).
# `tests/vectors/teams/ours/` is checked against a fresh write by the core tests (30-rust-tests).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tests/compat-agent-teams/run.sh
echo "compat-agent-teams: ok"
