#!/usr/bin/env bash
# Python package: install it the way the README shows, run pytest and mypy --strict.
set -euo pipefail
cd "$(dirname "$0")/../.."
py=.venv/bin/python
[ -x "$py" ] || { echo "no .venv: run scripts/setup first"; exit 1; }
"$py" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./bindings-python
# Calls that must be rejected are marked `# type: ignore[code]` in typing/usage.py: under
# --strict (warn_unused_ignores) mypy fails if one of them stops being an error.
# Run from inside tests/ so `import session_state` is the installed wheel, not the source tree.
(cd bindings-python/tests && "../../$py" -m pytest -q -p no:cacheprovider)
(cd bindings-python && "../$py" -m mypy --strict typing/usage.py)
# The stub of the native module against the installed module: every name, and each function's
# and constructor's parameters (names, kinds, defaults). No allowlist: stubtest sees all of it.
(cd bindings-python/tests && "../../$py" -m mypy.stubtest session_state._native)
