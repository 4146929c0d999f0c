#!/usr/bin/env bash
# Compatibility check with the real agent-teams 0.1.0 crate (not part of the main workspace).
# 1. writes goldens with the crate into tests/vectors/teams/crate-written/ and fails if they
#    changed from the committed ones;
# 2. checks the crate reads tests/vectors/teams/{ours,read}/ with session-state's values and
#    rejects tests/vectors/teams/bad/ as session-state does.
# `ours/` is written by `cargo test -p session-state --test team_vectors` (run first).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
# `--locked`: the committed Cargo.lock is used as it is, never rewritten by a run. When the
# core's dependencies change, cargo refuses here: update it with
# `cargo update -p session-state --manifest-path tests/compat-agent-teams/Cargo.toml`.
cargo run --quiet --locked --manifest-path "$here/Cargo.toml" -- all
if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$repo" diff --exit-code -- tests/vectors/teams/crate-written \
        || { echo "compat-agent-teams: crate-written goldens drifted (commit them if intended)" >&2; exit 1; }
fi
