#!/usr/bin/env bash
# Folds what fuzz/run.sh found (fuzz/corpus.new/<target>) into the committed corpus
# (fuzz/corpus/<target>): libFuzzer's set-cover merge over edge coverage (no hit-count or
# value-profile features), so each kept input covers an edge no smaller set does.
# Needs cargo-fuzz; on a stable toolchain run it as `RUSTC_BOOTSTRAP=1 fuzz/minimise.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fuzz build -O
bin=fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release
for t in orchestrator_parse orchestrator_salvage registry_parse team_parse; do
  work=$(mktemp -d)
  inputs=("fuzz/corpus/$t")
  [ -d "fuzz/corpus.new/$t" ] && inputs+=("fuzz/corpus.new/$t")
  "$bin/$t" -set_cover_merge=1 -use_counters=0 -use_value_profile=0 -timeout=10 \
    -rss_limit_mb=2048 "$work" "${inputs[@]}" >/dev/null 2>&1
  rm -rf "fuzz/corpus/$t" && mv "$work" "fuzz/corpus/$t"
  echo "$t: $(ls "fuzz/corpus/$t" | wc -l) files"
done
