#!/usr/bin/env bash
# The type declarations generated from the core's serde types:
#   bindings-shared/types.schema.json  JSON Schema of every document and result type
#   bindings-shared/types.d.ts         TypeScript, used by bindings-node and bindings-wasm
#   bindings-python/python/session_state/_types.py  the same types as TypedDicts
# `run.sh` writes them; `run.sh --check` generates them into a temporary folder and fails when
# a committed file differs (CI: scripts/ci/50-node.sh). Needs `npm ci` in bindings-node (for
# json-schema-to-typescript).
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-write}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run --quiet --locked -p session-state-gen-types >"$out/types.schema.json"
node scripts/gen-types/to-ts.mjs "$out/types.schema.json" "$out/types.d.ts"
python3 scripts/gen-types/to-typeddicts.py "$out/types.schema.json" "$out/_types.py"
targets=(
  "types.schema.json:bindings-shared/types.schema.json"
  "types.d.ts:bindings-shared/types.d.ts"
  "_types.py:bindings-python/python/session_state/_types.py"
)
drift=0
for pair in "${targets[@]}"; do
  generated=$out/${pair%%:*} committed=${pair#*:}
  if [ "$mode" = --check ]; then
    if ! cmp -s "$generated" "$committed"; then
      echo "gen-types: $committed differs from what the core generates: run scripts/gen-types/run.sh and commit it" >&2
      diff -u "$committed" "$generated" >&2 || true
      drift=1
    fi
  else
    mkdir -p "$(dirname "$committed")"
    cp "$generated" "$committed"
  fi
done
[ "$drift" -eq 0 ] && echo "gen-types: ${mode#--}: ok"
exit "$drift"
