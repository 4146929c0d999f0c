"""Parity with the Node package: ``record_agent_start``'s status and start time,
``TeamStore.update``."""

from datetime import datetime, timedelta, timezone

import pytest

from session_state import InvalidInputError, MemoryStore, NotFoundError
from session_state.orchestrator import OrchestratorStore
from session_state.teams import BackendType, SessionState, SpawnConfig, TeamStore

NOW = "2026-03-01T12:34:56Z"


@pytest.fixture
def sessions():
    s = OrchestratorStore(store=MemoryStore())
    s.record_new("g", project={"name": "p", "path": "/p"}, suffix="abc123")
    s.start()
    return s


def test_record_agent_start_sets_status_and_started_like_node(sessions):
    before = datetime.now(timezone.utc)
    doc = sessions.record_agent_start("code-1", "code", "Write")
    agent = doc["agents"][0]
    assert agent["status"] == "in_progress"
    started = datetime.fromisoformat(agent["started"].replace("Z", "+00:00"))
    assert before - timedelta(seconds=1) <= started <= datetime.now(timezone.utc) + timedelta(seconds=1)
    assert sessions.load()["agents"][0] == agent


def test_record_agent_start_takes_no_status_or_start_time(sessions):
    # The agent's status and start time are the verb's to set: the native half refuses them.
    for member in ({"status": "pending"}, {"started": "2025-12-27T10:30:00Z"}):
        with pytest.raises(InvalidInputError) as info:
            sessions._native.record_agent_start({"id": "a", "type": "code", "task": "t", **member})
        assert info.value.context == {"field": next(iter(member))}
    assert sessions.load()["agents"] == []


def test_record_agent_start_still_requires_id_type_task(sessions):
    with pytest.raises(InvalidInputError, match="task"):
        sessions.record_agent_start("a", "code", None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="id"):
        sessions.record_agent_start(None, "code", "t")  # type: ignore[arg-type]


@pytest.fixture
def teams():
    store = TeamStore(store=MemoryStore())
    config = SpawnConfig(name="coder", prompt="p", model="gpt-5-codex")
    store.save("my-team", SessionState.from_config(config, BackendType.CODEX, now=NOW))
    return store


def test_team_update_merges_document_keys_like_node(teams):
    updated = teams.update("my-team", "coder", {"metadata": {"codex_thread_id": "t-1"}, "model": None})
    assert isinstance(updated, SessionState)
    assert updated.metadata == {"codex_thread_id": "t-1"}
    assert updated.model is None
    assert updated.prompt == "p" and updated.created_at == NOW  # untouched keys stay
    assert teams.load("my-team", "coder") == updated
    again = teams.update("my-team", "coder", {"maxTurns": 7, "x_custom": {"k": 1}})
    assert again.max_turns == 7 and again.extra == {"x_custom": {"k": 1}}
    assert again.metadata == {"codex_thread_id": "t-1"}


def test_team_update_errors_like_node(teams):
    with pytest.raises(InvalidInputError, match="rename"):
        teams.update("my-team", "coder", {"name": "other"})
    with pytest.raises(InvalidInputError):
        teams.update("my-team", "coder", {"allowedTools": None})
    with pytest.raises(NotFoundError):
        teams.update("my-team", "nobody", {})
    with pytest.raises(TypeError, match="changes"):
        teams.update("my-team", "coder", None)  # type: ignore[arg-type]
    assert teams.load("my-team", "coder").model == "gpt-5-codex"  # nothing written
