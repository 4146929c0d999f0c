#!/usr/bin/env bash
# The core does no I/O of its own: no binding, runtime or fs crate among its normal
# dependencies, and it builds for wasm32-unknown-unknown. Its modules import each other
# without a cycle.
set -euo pipefail
forbidden='^(pyo3|napi|napi-derive|wasm-bindgen|js-sys|tokio|tempfile|session-state-fs) '
tree=$(cargo tree -p session-state -e normal --prefix none --locked | sort -u)
if bad=$(grep -E "$forbidden" <<<"$tree"); then
  echo "core depends on crates it must not use:"; echo "$bad"; exit 1
fi
python3 scripts/check-core-imports.py
echo "core dependencies ok ($(wc -l <<<"$tree") crates)"
cargo build -p session-state --target wasm32-unknown-unknown --locked
# The public API is documented without broken or redundant links (docs/API.md names it).
RUSTDOCFLAGS="-D warnings" cargo doc -p session-state --no-deps --locked --quiet
