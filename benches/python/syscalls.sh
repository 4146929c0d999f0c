#!/usr/bin/env bash
# System calls per call of bench_orchestrator.py's save and its floor under `strace -f -c`: a
# run of N calls minus a run of none (the interpreter's start and the setup), divided by N.
#   bash benches/python/syscalls.sh [N]        # default 1000
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-$here/../../.venv/bin/python}
n=${1:-1000}
count() {
  local out
  out=$(mktemp)
  strace -f -c -o "$out" "$python" "$here/calls_orchestrator.py" "$1" "$2" >/dev/null
  awk '$NF == "total" { print $4 }' "$out"  # % time, seconds, usecs/call, calls
  rm -f "$out"
}
for side in save floor-save; do
  base=$(count "$side" 0)
  total=$(count "$side" "$n")
  echo "$side: $(( (total - base) / n )) system calls per call"
done
