#!/usr/bin/env bash
# The README's first command, exactly as written there: it prints the example's resume summary.
# Run by CI so that its build (the `cargo run -p session-state-cli` feature set, which differs
# from the one `cargo test --workspace` unifies over every member and dev-dependency) is made
# here: the same command typed right after CI compiles nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(cargo run -p session-state-cli -- resume --root examples/project)
grep -q "RESUMING SESSION" <<<"$out" \
    || { echo "readme: the first command did not print the resume summary:" >&2; echo "$out" >&2; exit 1; }
echo "readme: ok"
