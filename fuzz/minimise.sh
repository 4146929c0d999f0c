#!/usr/bin/env bash
# Folds what fuzz/run.sh found (fuzz/corpus.new/<target>) into the committed corpus
# (fuzz/corpus/<target>), minimised with `cargo +nightly fuzz cmin`, then the smallest inputs
# within 400 KB per target; the fixture seeds are kept even when cmin finds them redundant.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in orchestrator_parse orchestrator_salvage registry_parse team_parse; do
  mkdir -p "$work/$t" "$work/seeds-$t"
  cp fuzz/corpus/"$t"/* "$work/seeds-$t/"
  cp fuzz/corpus/"$t"/* "$work/$t/"
  if [ -d "fuzz/corpus.new/$t" ]; then cp fuzz/corpus.new/"$t"/* "$work/$t/" 2>/dev/null || true; fi
  cargo +nightly fuzz cmin "$t" "$work/$t" >/dev/null 2>&1
  # Keep the committed corpus small: the seeds plus the smallest minimised inputs, 400 KB per target.
  python3 - "$work/$t" "$work/seeds-$t" fuzz/corpus/"$t" <<'PY'
import os, shutil, sys
found, seeds, out = sys.argv[1:]
budget = 400_000 - sum(os.path.getsize(os.path.join(seeds, f)) for f in os.listdir(seeds))
for f in sorted(os.listdir(found), key=lambda f: os.path.getsize(os.path.join(found, f))):
    size = os.path.getsize(os.path.join(found, f))
    if size > budget:
        break
    budget -= size
    shutil.copy(os.path.join(found, f), os.path.join(out, f))
PY
  echo "$t: $(ls fuzz/corpus/"$t" | wc -l) files, $(du -sh fuzz/corpus/"$t" | cut -f1)"
done
