#!/usr/bin/env python3
"""save_session / load_session of a 200-agent session: session_state.orchestrator against the
skill's functions (../shared/reference/session_state_skill.py) and LangGraph's SqliteSaver
(`put` / `get_tuple` of a checkpoint holding the same document, file database), in one run,
each side in its own temporary folder of the same filesystem. Two durabilities, each compared
like with like:

- no fsync: the skill (never fsyncs), ours with `FileStore(..., durable=False)` (and into a
  `MemoryStore`: what a save costs besides the file), SqliteSaver
  with `PRAGMA synchronous=OFF`, and the floor: the document's bytes written to a temporary
  file and renamed over, read back (no JSON);
- durable: ours by default (fsync of the file and its folder), SqliteSaver as it comes (WAL,
  `synchronous=FULL`), and the floor with the same fsyncs.

    .venv/bin/python benches/python/bench_orchestrator.py [repeats]   # default 1000

SqliteSaver is the `langgraph-checkpoint-sqlite` package, installed into the bench's venv
only (`.venv/bin/pip install langgraph-checkpoint-sqlite`); without it its rows are skipped.
So is orjson (`.venv/bin/pip install orjson`), the reference row of the fastest plain way:
its `dumps` (indent 2) written and renamed over, its `loads` of the file, nothing checked.
Prints a table: the median over rounds of the mean time per call (the sides take turns,
so a change of load hits all of them), and the speed-ups of ours.
"""

import copy
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SKILL = REPO.parent / "shared" / "reference" / "session_state_skill.py"


def skill_module():
    if not SKILL.exists():
        sys.exit(f"the skill oracle is not there: {SKILL}")
    spec = importlib.util.spec_from_file_location("skill_oracle", SKILL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def session(agents=200):
    return {
        "schema_version": "1.0",
        "session_id": "2025-12-27-abc123",
        "created": "2025-12-27T10:30:00Z",
        "updated": "2025-12-27T12:30:00Z",
        "project": {"name": "my-project", "path": "/path/to/my-project", "git_branch": "dev"},
        "goal": "Add sensitivity analysis to RMediation::medci()",
        "mode": "default",
        "status": "in_progress",
        "agents": [
            {
                "id": f"code-{i}", "type": "code", "task": f"Implement part {i} of the method",
                "status": "complete" if i % 3 else "in_progress",
                "started": "2025-12-27T10:35:00Z", "completed": "2025-12-27T11:35:00Z",
                "result_summary": f"part {i} done, tests green", "progress": 60,
                "context_tokens": 1200 + i,
            }
            for i in range(agents)
        ],
        "completed_work": [{"task": f"task {i}", "outcome": "ok", "files": [f"R/f{i}.R"]}
                           for i in range(50)],
        "pending_tasks": [f"pending {i}" for i in range(20)],
        "decisions_made": [{"decision": f"d{i}", "rationale": "because",
                            "timestamp": "2025-12-27T10:40:00Z"} for i in range(20)],
        "context_usage": {"estimated_tokens": 25000, "percentage": 20, "last_compression": None},
        "errors": [],
    }


def timed(fn, repeats):
    fn()  # warm up (creates folders)
    start = time.perf_counter()
    for _ in range(repeats):
        fn()
    return (time.perf_counter() - start) / repeats


def ours_side(durable):
    from session_state import orchestrator as ours
    from session_state.stores import FileStore

    def side(state, repeats):
        store = FileStore(os.getcwd(), durable=durable)
        save = timed(lambda: ours.save_session(state, store=store), repeats)
        load = timed(lambda: ours.load_session(store=store), repeats)
        assert len(ours.load_session(store=store)["agents"]) == 200
        return save, load
    return side


def ours_other_writer(state, repeats):
    """A load of a file another handle wrote (the check runs; a handle skips it for the
    file it saved last itself)."""
    from session_state import orchestrator as ours
    from session_state.stores import FileStore

    ours.save_session(state, store=FileStore(os.getcwd(), durable=False))
    reader = FileStore(os.getcwd(), durable=False)
    load = timed(lambda: ours.load_session(store=reader), repeats)
    return None, load


def ours_store_save(state, repeats):
    """`OrchestratorStore.save`, which returns the saved document as a new dict (built while
    the file store commits on the helper thread); `save_session` only stamps the caller's."""
    from session_state.orchestrator import OrchestratorStore
    from session_state.stores import FileStore

    sessions = OrchestratorStore(store=FileStore(os.getcwd(), durable=False))
    save = timed(lambda: sessions.save(state), repeats)
    assert len(sessions.save(state)["agents"]) == 200
    return save, None


def ours_memory(state, repeats):
    """Ours into a MemoryStore: the same calls without a file (the dict read and checked, the
    pretty JSON, the store's update in memory): what a save adds to the write of its bytes."""
    from session_state import orchestrator as ours
    from session_state.stores import MemoryStore

    store = MemoryStore()
    save = timed(lambda: ours.save_session(state, store=store), repeats)
    load = timed(lambda: ours.load_session(store=store), repeats)
    return save, load


def skill_side(state, repeats):
    skill = skill_module()
    save = timed(lambda: skill.save_session(state), repeats)
    load = timed(skill.load_session, repeats)
    assert len(skill.load_session()["agents"]) == 200
    return save, load


def sqlite_side(durable):
    def side(state, repeats):
        import sqlite3
        from langgraph.checkpoint.base import empty_checkpoint
        from langgraph.checkpoint.sqlite import SqliteSaver

        conn = sqlite3.connect("checkpoints.sqlite", check_same_thread=False)
        saver = SqliteSaver(conn)
        saver.setup()
        if not durable:
            conn.execute("PRAGMA synchronous=OFF")
        config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}

        def put():
            checkpoint = empty_checkpoint()  # a new id, as each step of a graph writes
            checkpoint["channel_values"] = {"session": state}
            saver.put(config, checkpoint, {}, {})

        save = timed(put, repeats)
        load = timed(lambda: saver.get_tuple(config), repeats)
        got = saver.get_tuple(config).checkpoint["channel_values"]["session"]
        assert len(got["agents"]) == 200
        conn.close()
        return save, load
    return side


def floor_write(data, durable, path="f.json", temp=".f.json.tmp"):
    """The floor of a save: `data` written to a temporary file and renamed over `path` (with
    the file and its folder fsynced when `durable`), nothing else."""
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, data)
    if durable:
        os.fsync(fd)
    os.close(fd)
    os.rename(temp, path)
    if durable:
        folder = os.open(".", os.O_RDONLY)
        os.fsync(folder)
        os.close(folder)


def floor_side(durable):
    def side(state, repeats):
        import json

        data = json.dumps(state, indent=2).encode()

        def read():
            with open("f.json", "rb") as f:
                f.read()

        return timed(lambda: floor_write(data, durable), repeats), timed(read, repeats)
    return side


def orjson_side(state, repeats):
    """The fastest plain way on record: orjson's dumps (indent 2) written and renamed over, and
    its loads of the file; no check of the document either way."""
    import orjson

    path, temp = "o.json", ".o.json.tmp"

    def write():
        with open(temp, "wb") as f:
            f.write(orjson.dumps(state, option=orjson.OPT_INDENT_2))
        os.rename(temp, path)

    def read():
        with open(path, "rb") as f:
            return orjson.loads(f.read())

    save, load = timed(write, repeats), timed(read, repeats)
    assert len(read()["agents"]) == 200
    return save, load


def has(module, package, rows):
    """Whether `module` imports; else says which `pip install` adds its `rows`."""
    try:
        importlib.import_module(module)
    except ImportError:
        print(f"{rows} skipped: `.venv/bin/pip install {package}` adds them")
        return False
    return True


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rounds = 5
    with_sqlite = has("langgraph.checkpoint.sqlite", "langgraph-checkpoint-sqlite",
                      "SqliteSaver's rows")
    with_orjson = has("orjson", "orjson", "orjson's row")
    modes = {
        "no fsync": [("skill (seed)", skill_side), ("ours, durable=False", ours_side(False)),
                     ("ours, load of a file another handle wrote", ours_other_writer),
                     ("ours, `OrchestratorStore.save` (returns the saved dict)", ours_store_save),
                     ("ours into a MemoryStore (no file)", ours_memory),
                     ("SqliteSaver, synchronous=OFF", sqlite_side(False)),
                     ("floor: write + rename / read", floor_side(False)),
                     ("reference: orjson dumps + write + rename / read + loads", orjson_side)],
        "durable": [("ours (default)", ours_side(True)),
                     ("SqliteSaver (default: WAL, synchronous=FULL)", sqlite_side(True)),
                     ("floor: write + fsync + rename + fsync folder / read", floor_side(True))],
    }
    here = os.getcwd()
    print(f"Python {sys.version.split()[0]}, 200 agents, median of {rounds} rounds of "
          f"{repeats // rounds} calls per side (the sides take turns), load average "
          f"{os.getloadavg()[0]:.1f} at the start")
    print("| durability | side | save | load | ours faster: save | load |")
    print("|---|---|---:|---:|---:|---:|")
    try:
        for mode, sides in modes.items():
            sides = [(n, f) for n, f in sides
                     if (with_sqlite or not n.startswith("SqliteSaver"))
                     and (with_orjson or "orjson" not in n)]
            times = {name: ([], []) for name, _ in sides}
            for _ in range(rounds):
                for name, side in sides:
                    with tempfile.TemporaryDirectory() as tmp:
                        os.chdir(tmp)
                        save, load = side(copy.deepcopy(session()), repeats // rounds)
                        os.chdir(here)
                    if save is not None:
                        times[name][0].append(save)
                    if load is not None:
                        times[name][1].append(load)
            rows = [(name, *(statistics.median(t) if t else None for t in times[name]))
                    for name, _ in sides]
            ours = next(r for r in rows if r[0].startswith("ours"))
            for name, save, load in rows:
                shown = [f"{t * 1e3:.3f} ms" if t else "" for t in (save, load)]
                ratio = ["" if name.startswith("ours") or t is None else f"{t / o:.2f}x"
                         for t, o in ((save, ours[1]), (load, ours[2]))]
                print(f"| {mode} | {name} | {' | '.join(shown)} | {' | '.join(ratio)} |")
    finally:
        os.chdir(here)


if __name__ == "__main__":
    main()
