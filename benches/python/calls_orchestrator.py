#!/usr/bin/env python3
"""One call of bench_orchestrator.py's 200-agent document, repeated, for instruction counts
under callgrind (`benches/python/instructions.sh`) and system call counts under strace
(`benches/python/syscalls.sh`), each of which subtracts a run of 0 calls:

    .venv/bin/python benches/python/calls_orchestrator.py SIDE N

SIDE: `load` (ours, the file this handle saved), `load-other` (a file another handle wrote),
`save` (ours, `durable=False`), `skill-load`, `skill-save`, `json-loads` (`json.loads` of
the file's bytes, read each call), `floor-save` (the bench's floor: the bytes written to a
temporary file and renamed over).
"""

import json
import os
import sys
import tempfile
from pathlib import Path

from bench_orchestrator import floor_write, session, skill_module


def call(side, folder):
    from session_state import orchestrator as ours
    from session_state.stores import FileStore

    state = session()
    store = FileStore(folder, durable=False)
    ours.save_session(state, store=store)
    if side == "load":
        return lambda: ours.load_session(store=store)
    if side == "load-other":
        other = FileStore(folder, durable=False)
        return lambda: ours.load_session(store=other)
    if side == "save":
        return lambda: ours.save_session(state, store=store)
    if side == "floor-save":
        data = json.dumps(state, indent=2).encode()
        return lambda: floor_write(data, durable=False)
    if side == "json-loads":
        path = Path(folder, ".claude", "orchestrator-session.json")
        return lambda: json.loads(path.read_bytes())
    skill = skill_module()
    skill.save_session(state)
    if side == "skill-load":
        return skill.load_session
    if side == "skill-save":
        return lambda: skill.save_session(state)
    sys.exit(f"unknown side {side!r}")


def main():
    side, count = sys.argv[1], int(sys.argv[2])
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        fn = call(side, folder)
        if count:
            fn()  # the first call pages code in
        for _ in range(count):
            fn()


if __name__ == "__main__":
    main()
