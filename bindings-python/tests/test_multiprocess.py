"""Four processes registering 250 results each into one folder: all 1,000 are there."""

import json
import multiprocessing

import pytest

from session_state.moai import SessionManager


def worker(root: str, n: int, journal: bool) -> None:
    from pathlib import Path

    m = SessionManager(
        session_file=Path(root) / "memory" / "agent-sessions.json",
        transcript_dir=Path(root) / "transcripts",
        journal=journal,
        durable=False,  # 1,000 writes in a row: lost updates do not depend on the fsyncs
    )
    for i in range(250):
        m.register_agent_result(f"agent-{n}-{i % 7}", f"id-{n}-{i}", {"n": n, "i": i}, f"chain-{i % 3}")
    m.close()


@pytest.mark.parametrize("journal", [False, True], ids=["plain", "journal"])
def test_four_processes_lose_no_registration(tmp_path, journal):
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=worker, args=(str(tmp_path), n, journal)) for n in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=300)
        assert p.exitcode == 0
    data = json.loads((tmp_path / "memory" / "agent-sessions.json").read_text(encoding="utf-8"))
    assert len(data["results"]) == 1000
    assert len(data["metadata"]) == 1000
    assert sum(len(ids) for ids in data["chains"].values()) == 1000
    assert {r["result"]["n"] for r in data["results"].values()} == {0, 1, 2, 3}
    m = SessionManager(session_file=tmp_path / "memory" / "agent-sessions.json",
                       transcript_dir=tmp_path / "transcripts")
    assert m.get_all_sessions()["total_results"] == 1000
    assert len(m.get_all_sessions()["sessions"]) == 28


def load_elsewhere(root: str) -> None:
    from session_state import orchestrator
    from session_state.stores import FileStore

    doc = orchestrator.load_session(store=FileStore(root))
    assert doc is not None and doc["goal"] == "forked"


def test_a_forked_child_loads_after_its_parent_checked_a_file(tmp_path):
    """The check of another writer's file runs on a helper thread; a fork copies no thread,
    so the child must start its own rather than wait for one it does not have."""
    from session_state import orchestrator
    from session_state.stores import FileStore

    state = {"schema_version": "1.0", "session_id": "2025-12-27-fork", "goal": "forked",
             "created": "2025-12-27T10:00:00Z", "status": "in_progress"}
    orchestrator.save_session(state, store=FileStore(tmp_path))
    load_elsewhere(str(tmp_path))  # a new handle: the parent's helper thread starts
    child = multiprocessing.get_context("fork").Process(target=load_elsewhere, args=(str(tmp_path),))
    child.start()
    child.join(timeout=60)
    if child.is_alive():
        child.kill()
    assert child.exitcode == 0
