"""RedisStore on a redis-server of the test's own (127.0.0.1, a free port, a temp dir)."""

import json
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest

from session_state import AlreadyExistsError, RedisStore, StorageError, orchestrator
from session_state._native import AgentRegistry, Orchestrator
from session_state.moai import SessionManager
from session_state.orchestrator import OrchestratorStore
from session_state.testing import run_store_conformance


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (scripts/setup installs it)")
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        proc = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", folder,
             "--save", "", "--appendonly", "yes", "--appendfsync", "always"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            url = f"redis://127.0.0.1:{port}/0"
            deadline = time.monotonic() + 20
            while True:
                try:
                    RedisStore(url).ping()
                    break
                except StorageError:
                    assert time.monotonic() < deadline, "redis-server did not start"
                    time.sleep(0.05)
            yield url
        finally:
            proc.kill()
            proc.wait()


def test_redis_store_passes_the_conformance_suite(server_url: str) -> None:
    store = RedisStore(server_url + "?prefix=py-conformance")
    report = run_store_conformance(store)
    assert report["failed"] == 0, report


def test_an_orchestrator_session_saved_on_redis_reads_back(server_url: str) -> None:
    store = RedisStore(server_url + "?prefix=py-orchestrator")
    made = Orchestrator(store).record_new({"goal": "ship it", "mode": "auto"}, {"name": "p", "path": "/p"})
    again = Orchestrator(RedisStore(server_url + "?prefix=py-orchestrator")).load()
    assert again is not None and again["session_id"] == made["session_id"]
    assert again["goal"] == "ship it"
    assert store.list(".claude") != []


def test_a_down_server_is_a_storage_error_without_the_password() -> None:
    store = RedisStore(f"redis://:pw-123@127.0.0.1:{_free_port()}/0?connect_timeout_ms=200")
    with pytest.raises(StorageError) as caught:
        store.read("a")
    assert "pw-123" not in str(caught.value)
    assert "127.0.0.1" in str(caught.value)
    assert store.server.startswith("redis://127.0.0.1:")


def test_the_skill_orchestrator_store_takes_a_redis_store(server_url: str) -> None:
    url = server_url + "?prefix=py-skill"
    with tempfile.TemporaryDirectory() as folder:
        made = OrchestratorStore(folder, store=RedisStore(url)).record_new("on redis", "auto")
        again = OrchestratorStore(folder, store=RedisStore(url)).load()
        assert again is not None and again["session_id"] == made["session_id"]
        assert list(Path(folder).iterdir()) == []  # nothing on disk


def _state(session_id: str, goal: str) -> Dict[str, Any]:
    return {
        "schema_version": "1.0",
        "session_id": session_id,
        "created": "2025-12-27T10:30:00Z",
        "updated": "2025-12-27T10:30:00Z",
        "project": {"name": "p", "path": "/p"},
        "goal": goal,
        "mode": "default",
        "status": "in_progress",
        "agents": [],
        "completed_work": [],
        "pending_tasks": [],
        "decisions_made": [],
        "context_usage": {"estimated_tokens": 0, "percentage": 0, "last_compression": None},
        "errors": [],
    }


def test_the_skill_functions_take_a_store(
    server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    url = server_url + "?prefix=py-skill-functions"
    assert orchestrator.list_history(store=RedisStore(url)) == []
    state = _state("2025-12-27-redis1", "on redis")
    saved = orchestrator.save_session(state, store=RedisStore(url))
    assert saved == Path(".claude/orchestrator-session.json")
    assert state["updated"] != "2025-12-27T10:30:00Z"
    loaded = orchestrator.load_session(store=RedisStore(url))
    assert loaded is not None and loaded["goal"] == "on redis"
    assert orchestrator.load_session() is None  # the current folder holds nothing
    archived = orchestrator.archive_session(state, store=RedisStore(url))
    assert archived == Path(".claude/orchestrator-history/2025-12-27-redis1.json")
    assert orchestrator.load_session(store=RedisStore(url)) is None
    older = _state("2025-12-26-redis0", "older")
    older["created"] = "2025-12-26T10:30:00Z"
    orchestrator.archive_session(older, store=RedisStore(url))
    listed = orchestrator.list_history(store=RedisStore(url))
    assert [e["id"] for e in listed] == ["2025-12-27-redis1", "2025-12-26-redis0"]
    assert [e["id"] for e in orchestrator.list_history(1, store=RedisStore(url))] == [
        "2025-12-27-redis1"
    ]
    with pytest.raises(AlreadyExistsError):
        orchestrator.archive_session(state, store=RedisStore(url))
    assert orchestrator.list_history() == []
    assert list(tmp_path.iterdir()) == []  # nothing on disk


def test_the_moai_manager_keeps_its_registry_on_redis(
    server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    url = server_url + "?prefix=py-moai"
    manager = SessionManager(store=RedisStore(url))
    manager.register_agent_result("spec-builder", "id-1", {"ok": True}, "chain-a")
    manager.create_chain("chain-a", ["spec-builder", "tester"])
    # Another manager (another machine) over the same server sees it all.
    other = SessionManager(store=RedisStore(url))
    assert other.get_resume_id("spec-builder") == "id-1"
    assert other.get_agent_result("id-1") == {"ok": True}
    assert other.get_chain_status("chain-a")["missing"] == ["tester"]
    other.register_agent_result("tester", "id-2", {"ok": False}, "chain-a")
    assert manager.get_chain_status("chain-a")["complete"] is True
    # At the keys every other front end reads (the CLI, Node, `AgentRegistry`).
    store = RedisStore(url)
    assert store.list(".moai/memory") == [
        ".moai/memory/agent-sessions.json",
        ".moai/memory/workflow-chains.json",
    ]
    registry = AgentRegistry(
        store,
        ".moai/memory/agent-sessions.json",
        ".moai/memory/workflow-chains.json",
        ".moai/memory/agent-sessions.journal.jsonl",
    )
    assert registry.resume_id("tester") == "id-2"
    # Nothing of the registry on disk; transcripts stay in the local transcript folder.
    assert not (tmp_path / ".moai" / "memory").exists()
    assert manager.export_transcript("id-1") is None
    folder = tmp_path / ".moai" / "logs" / "agent-transcripts"
    (folder / "agent-id-1.jsonl").write_text('{"role": "user"}\n')
    assert manager.export_transcript("id-1") == folder / "agent-id-1.jsonl"


def test_the_moai_journal_folds_on_redis(
    server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    url = server_url + "?prefix=py-moai-journal"
    manager = SessionManager(store=RedisStore(url), journal=True)
    for i in range(5):
        manager.register_agent_result(f"agent-{i}", f"id-{i}", {"n": i})
    store = RedisStore(url)
    assert store.read(".moai/memory/agent-sessions.journal.jsonl")
    assert SessionManager(store=RedisStore(url)).get_resume_id("agent-4") == "id-4"
    manager.close()
    # Folded: the journal holds its header line only, the sessions file every registration.
    journal = (store.read(".moai/memory/agent-sessions.journal.jsonl") or b"").splitlines()
    assert len(journal) == 1 and b"generation" in journal[0]
    sessions = json.loads(store.read(".moai/memory/agent-sessions.json") or b"{}")
    assert sorted(sessions["sessions"]) == [f"agent-{i}" for i in range(5)]
    del manager  # its fold at collection runs while the server is up


def test_a_corrupt_registry_on_redis_is_kept_aside_and_salvaged(
    server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    url = server_url + "?prefix=py-moai-corrupt"
    SessionManager(store=RedisStore(url)).register_agent_result("a", "id-a", {"x": 1})
    store = RedisStore(url)
    whole = store.read(".moai/memory/agent-sessions.json") or b""
    store.write(".moai/memory/agent-sessions.json", whole[: len(whole) - 3])
    manager = SessionManager(store=RedisStore(url))
    kept = [k for k in store.list(".moai/memory") if ".corrupt-" in k]
    assert len(kept) == 1
    assert json.loads(store.read(".moai/memory/agent-sessions.json") or b"")  # whole again
    assert manager.get_resume_id("a") == "id-a"
