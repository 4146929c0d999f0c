#!/usr/bin/env bash
# Runs every fuzz target one after another, SECONDS_PER_TARGET each (default 600), one job.
# Usage: fuzz/run.sh [seconds]   (needs `cargo install cargo-fuzz` and the nightly toolchain)
# Every target starts from the shared corpus fuzz/corpus; new inputs go to
# fuzz/corpus.new/<target> (not committed; fold them into fuzz/corpus with `fuzz/minimise.sh`),
# crashes to fuzz/artifacts/<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-600}"
for t in orchestrator_parse orchestrator_salvage registry_parse team_parse; do
  mkdir -p "fuzz/corpus.new/$t"
  echo "== $t: ${secs}s start $(date -u +%FT%TZ)"
  cargo +nightly fuzz run "$t" "fuzz/corpus.new/$t" fuzz/corpus -- \
    -max_total_time="$secs" -print_final_stats=1 -timeout=10 \
    -rss_limit_mb=2048 || echo "== $t: exit $?"
  echo "== $t: end $(date -u +%FT%TZ)"
done
