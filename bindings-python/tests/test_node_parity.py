"""Parity with the Node package: ``agent_started`` defaults, ``TeamStore.update``."""

from datetime import datetime, timedelta, timezone

import pytest

from session_state import InvalidInputError, MemoryStore, NotFoundError
from session_state.orchestrator import OrchestratorStore
from session_state.teams import BackendType, SessionState, SpawnConfig, TeamStore

NOW = "2026-03-01T12:34:56Z"


@pytest.fixture
def sessions():
    s = OrchestratorStore(store=MemoryStore())
    s.create_session("g", project={"name": "p", "path": "/p"}, suffix="abc123")
    s.start()
    return s


def test_agent_started_fills_status_and_started_like_node(sessions):
    before = datetime.now(timezone.utc)
    doc = sessions.agent_started({"id": "code-1", "type": "code", "task": "Write"})
    agent = doc["agents"][0]
    assert agent["status"] == "in_progress"
    started = datetime.fromisoformat(agent["started"].replace("Z", "+00:00"))
    assert before - timedelta(seconds=1) <= started <= datetime.now(timezone.utc) + timedelta(seconds=1)
    assert sessions.load()["agents"][0] == agent


def test_agent_started_keeps_given_status_and_started(sessions):
    doc = sessions.agent_started({"id": "a", "type": "code", "task": "t", "status": "pending",
                                  "started": "2025-12-27T10:30:00Z", "x_extra": [1]})
    agent = doc["agents"][0]
    assert (agent["status"], agent["started"], agent["x_extra"]) == ("pending", "2025-12-27T10:30:00Z", [1])


def test_agent_started_still_requires_id_type_task(sessions):
    with pytest.raises(InvalidInputError, match="agent"):
        sessions.agent_started({"id": "a", "type": "code"})
    with pytest.raises(TypeError, match="agent"):
        sessions.agent_started(None)  # type: ignore[arg-type]


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
