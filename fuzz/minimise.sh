#!/usr/bin/env bash
# Folds what fuzz/run.sh found (fuzz/corpus.new/<target>) into the committed corpus, one folder
# (fuzz/corpus) that every target reads. Each target runs every input once (libFuzzer's
# set-cover merge, edges only: no hit counts, no value profile) and records the edges each input
# covers; fuzz/cover.py then keeps a smallest set of inputs that covers every (target, edge)
# pair any input covers. Prints each target's edge coverage of the result.
# Needs cargo-fuzz; on a stable toolchain run it as `RUSTC_BOOTSTRAP=1 fuzz/minimise.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(orchestrator_parse orchestrator_salvage registry_parse team_parse)
flags=(-use_counters=0 -use_value_profile=0 -timeout=10 -rss_limit_mb=2048)
cargo fuzz build -O
bin=fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/inputs" "$work/kept"
for dir in fuzz/corpus fuzz/corpus.new/*; do
  [ -d "$dir" ] && find "$dir" -maxdepth 1 -type f -exec cp -t "$work/inputs" {} +
done
for t in "${targets[@]}"; do
  mkdir "$work/$t"
  "$bin/$t" -set_cover_merge=1 -merge_control_file="$work/$t.control" "${flags[@]}" \
    "$work/$t" "$work/inputs" >/dev/null 2>&1
done
python3 fuzz/cover.py $(printf "$work/%s.control " "${targets[@]}") | xargs cp -t "$work/kept"
chmod 755 "$work/kept"
rm -rf fuzz/corpus && mv "$work/kept" fuzz/corpus
echo "fuzz/corpus: $(ls fuzz/corpus | wc -l) files, $(cat fuzz/corpus/* | wc -c) bytes"
for t in "${targets[@]}"; do
  "$bin/$t" -runs=0 "${flags[@]}" fuzz/corpus 2>&1 | grep -o 'INITED cov: [0-9]*' \
    | sed "s/INITED cov:/$t: edges/"
done
