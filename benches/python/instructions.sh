#!/usr/bin/env bash
# Instructions per call of bench_orchestrator.py's sides under callgrind: a run of N calls
# minus a run of none (the interpreter's start and the setup), divided by N.
#   bash benches/python/instructions.sh [N]        # default 100
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-$here/../../.venv/bin/python}
n=${1:-100}
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$python" "$here/calls_orchestrator.py" "$1" "$2" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for side in load load-other skill-load json-loads save skill-save; do
  base=$(count "$side" 0)
  total=$(count "$side" "$n")
  echo "$side: $(( (total - base) / n )) instructions per call"
done
