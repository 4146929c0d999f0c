"""OrchestratorStore ownership over a FileStore: claim, the fenced writes of other owners,
takeover after expiry, renew, release, heartbeat and the live sessions."""

import json
import time
from pathlib import Path

import pytest

from session_state import FileStore
from session_state.errors import ConflictError, InvalidInputError, NotFoundError
from session_state.orchestrator import OrchestratorStore

CURRENT = ".claude/orchestrator-session.json"
OWNER_FILE = ".claude/orchestrator-session.owner.json"


def files(root: Path) -> dict:
    """Every file below `root` with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def two(tmp_path):
    """Two handles on one folder: `a` owning the session it created, `b` writing as `b`."""
    store = FileStore(tmp_path)
    a = OrchestratorStore(store=store)
    claimed = a.claim("orchestrator-a")
    assert claimed["lease"]["owner"] == "orchestrator-a"
    assert claimed["lease"]["epoch"] == 1
    assert a.writer == {"owner": "orchestrator-a", "epoch": 1}
    a.record_new("goal", suffix="abc123")
    b = OrchestratorStore(store=store, owner="orchestrator-b")
    assert b.writer == {"owner": "orchestrator-b"}
    return tmp_path, a, b


def test_another_owner_is_refused_naming_the_owner_and_nothing_is_written(two):
    root, a, b = two
    before = files(root)
    with pytest.raises(ConflictError) as refused:
        b.start()
    assert refused.value.context["owner"] == "orchestrator-a"
    assert "orchestrator-a" in str(refused.value)
    with pytest.raises(ConflictError) as claim:
        b.claim("orchestrator-b")
    assert claim.value.context["owner"] == "orchestrator-a"
    assert claim.value.hint is None  # not expired: no takeover offered
    b.set_writer(None)
    with pytest.raises(ConflictError):
        b.record_agent_start("x", "t", "k")
    assert files(root) == before
    assert a.start()["status"] == "in_progress"
    assert b.load()["status"] == "in_progress"


def test_takeover_after_expiry(tmp_path):
    store = FileStore(tmp_path)
    a = OrchestratorStore(store=store)
    b = OrchestratorStore(store=store, owner="orchestrator-b")
    a.claim("orchestrator-a", lease_seconds=1)
    a.record_new("goal", suffix="abc123")
    with pytest.raises(ConflictError):
        b.claim("orchestrator-b", takeover=True, skew_seconds=0)
    time.sleep(1.5)
    with pytest.raises(ConflictError) as refused:
        b.claim("orchestrator-b", skew_seconds=0)
    assert refused.value.hint == "takeover"
    assert "takeover=True" in str(refused.value)
    assert a.lease()["owner"] == "orchestrator-a"
    taken = b.claim("orchestrator-b", takeover=True, skew_seconds=0)["lease"]
    assert (taken["owner"], taken["epoch"], taken["took_over_from"]) == (
        "orchestrator-b",
        2,
        "orchestrator-a",
    )
    assert b.start()["status"] == "in_progress"
    with pytest.raises(ConflictError) as fenced:
        a.pause()
    assert fenced.value.context["owner"] == "orchestrator-b"
    assert b.load()["status"] == "in_progress"


def test_renew_and_release(two):
    root, a, b = two
    first = a.lease()
    renewed = a.renew("orchestrator-a", 600)
    assert renewed["lease_seconds"] == 600
    assert renewed["epoch"] == first["epoch"]
    with pytest.raises(ConflictError):
        b.renew("orchestrator-b")
    with pytest.raises(ConflictError):
        b.release("orchestrator-b")
    released = a.release("orchestrator-a")["lease"]
    assert released["owner"] is None
    assert released["epoch"] == 1
    assert released["released_by"] == "orchestrator-a"
    assert json.loads((root / OWNER_FILE).read_bytes())["owner"] is None
    with pytest.raises(NotFoundError):
        a.renew("orchestrator-a")
    # A released session takes every write; the next claim goes on counting epochs.
    assert b.start()["status"] == "in_progress"
    assert b.claim("orchestrator-b")["lease"]["epoch"] == 2


def test_heartbeat_and_live_sessions_show_stale_ones(two):
    root, a, b = two
    beat = a.heartbeat("orchestrator-a")
    assert beat["renewed"] is True
    assert beat["live"]["goal"] == "goal"
    other = b.heartbeat("orchestrator-b", ttl_seconds=60)
    assert other["renewed"] is False
    assert other["lease"]["owner"] == "orchestrator-a"
    # No `process` given: the orchestrator running this Python process is recorded.
    assert isinstance(other["live"]["process"].get("pid"), int)
    live = {s["entry"]["owner"]: s for s in a.live_sessions()}
    assert set(live) == {"orchestrator-a", "orchestrator-b"}
    assert not any(s["stale"] for s in live.values())
    # `b` stopped beating long ago: listed as stale with the reason, never dropped.
    entry_path = root / live["orchestrator-b"]["key"]
    entry = json.loads(entry_path.read_bytes())
    entry["heartbeat"] = "2020-01-01T00:00:00Z"
    entry_path.write_text(json.dumps(entry))
    live = {s["entry"]["owner"]: s for s in a.live_sessions()}
    assert live["orchestrator-b"]["stale"] is True
    assert "TTL of 60 s" in live["orchestrator-b"]["reason"]
    assert live["orchestrator-a"]["stale"] is False


def test_scopes_are_claimed_and_released(two):
    _, a, b = two
    held = b.claim("orchestrator-b", scopes=["chain-1"], process={"pid": 42})
    assert held["lease"] is None
    assert held["live"]["scopes"] == ["chain-1"]
    assert held["live"]["process"] == {"pid": 42}
    with pytest.raises(ConflictError):
        a.claim("orchestrator-a", scopes=["chain-1"])
    assert b.release("orchestrator-b", scopes=["chain-1"])["live"].get("scopes", []) == []
    assert a.claim("orchestrator-a", scopes=["chain-1"])["live"]["scopes"] == ["chain-1"]


def test_bad_arguments_are_typed_errors(two):
    _, a, _ = two
    with pytest.raises(InvalidInputError):
        a.claim("")
    with pytest.raises(InvalidInputError):
        a.claim("orchestrator-a", lease_seconds=0)
    with pytest.raises(InvalidInputError):
        a._native.claim({"owner": "orchestrator-a", "unknown": 1})
    with pytest.raises(InvalidInputError):
        a.set_writer({"epoch": 1})  # type: ignore[arg-type]


def test_a_claim_without_a_process_records_this_one_or_the_one_named(tmp_path, monkeypatch):
    import os

    s = OrchestratorStore(store=FileStore(tmp_path))
    assert s.claim("me")["lease"]["process"]["pid"] == os.getpid()
    monkeypatch.setenv("SESSION_STATE_PID", "1")
    assert s.heartbeat("me")["live"]["process"]["pid"] == 1


@pytest.mark.parametrize("pid", ["abc", "0", "-5", "1.5"])
def test_a_pid_variable_that_names_no_process_is_invalid_input(tmp_path, monkeypatch, pid):
    s = OrchestratorStore(store=FileStore(tmp_path))
    monkeypatch.setenv("SESSION_STATE_PID", pid)
    for call in (lambda: s.claim("me"), lambda: s.heartbeat("me")):
        with pytest.raises(InvalidInputError, match=f"SESSION_STATE_PID `{pid}` is not a process id"):
            call()
    assert s.lease() is None and s.live_sessions() == []
    # A process given in the call does not read the variable.
    assert s.heartbeat("me", process={"pid": 7})["live"]["process"]["pid"] == 7
