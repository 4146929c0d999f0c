"""Registry and team files are held to ``max_document_bytes`` as the orchestrator document is:
over it, ``InvalidInputError`` naming the limit, the file untouched; a raised limit reads it."""

import json

import pytest

from session_state import MemoryStore
from session_state.errors import InvalidInputError
from session_state.moai import SessionManager
from session_state.teams import TeamStore


def test_session_manager_refuses_a_registry_file_over_max_document_bytes(tmp_path):
    path = tmp_path / "agent-sessions.json"
    doc = {"sessions": {"a": "id-1"}, "chains": {}, "metadata": {}, "x-pad": "p" * 4096}
    path.write_text(json.dumps(doc))
    before = path.read_bytes()
    with pytest.raises(InvalidInputError, match="more than the limit of 1024 bytes") as info:
        SessionManager(session_file=path, transcript_dir=tmp_path / "t", max_document_bytes=1024)
    assert info.value.context["limit"] == "1024"
    assert "pass a larger `max_document_bytes=`" in str(info.value), str(info.value)
    assert path.read_bytes() == before
    assert not list(tmp_path.glob("*.corrupt-*")), "not corrupt: nothing kept aside"
    manager = SessionManager(session_file=path, transcript_dir=tmp_path / "t", max_document_bytes=8192)
    assert manager.get_resume_id("a") == "id-1"
    with pytest.raises(InvalidInputError, match="max_document_bytes"):
        SessionManager(session_file=path, transcript_dir=tmp_path / "t", max_document_bytes=-1)


def test_team_store_refuses_a_session_file_over_max_document_bytes():
    mem = MemoryStore()
    doc = {"name": "a", "backendType": "codex", "prompt": "p" * 4096, "createdAt": "2026-03-01T12:34:56Z"}
    mem.write("teams/t/sessions/a.json", json.dumps(doc).encode())
    with pytest.raises(InvalidInputError, match="more than the limit of 1024 bytes"):
        TeamStore(store=mem, max_document_bytes=1024).load("t", "a")
    listing = TeamStore(store=mem, max_document_bytes=1024).list("t")
    assert listing.members == [] and listing.skipped[0]["code"] == "invalid_input"
    assert TeamStore(store=mem, max_document_bytes=8192).load("t", "a").prompt == doc["prompt"]
    with pytest.raises(InvalidInputError, match="max_document_bytes"):
        TeamStore(store=mem, max_document_bytes="big")  # type: ignore[arg-type]
