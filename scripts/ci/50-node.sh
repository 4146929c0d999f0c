#!/usr/bin/env bash
# Node package (bindings-node): install the pinned dev tools from package-lock.json, fail when
# the declarations generated from the core (scripts/gen-types) drift, build the addon
# (release), fail when the committed index.js / index.d.ts differ from what the build
# generates, then run the node tests and the TypeScript check (`npm test`), and the Node bench
# with a few calls (benches/node).
set -euo pipefail
cd "$(dirname "$0")/../../bindings-node"
committed=$(mktemp -d)
trap 'rm -rf "$committed"' EXIT
cp index.js index.d.ts "$committed/"
npm ci --no-audit --no-fund
# The generated declarations (bindings-shared/types.d.ts, the Python TypedDicts) are what the
# core's types give today.
bash ../scripts/gen-types/run.sh --check
npm run build
for generated in index.js index.d.ts; do
  if ! cmp -s "$committed/$generated" "$generated"; then
    echo "bindings-node/$generated changed when rebuilt: commit the regenerated file" >&2
    diff -u "$committed/$generated" "$generated" >&2 || true
    exit 1
  fi
done
npm test
# A few calls only: the bench keeps working (it checks what it loads; no time is checked).
node ../benches/node/bench_orchestrator.mjs 20 > /dev/null
