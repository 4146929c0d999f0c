"""The seed's instance state of ``session_state.moai.SessionManager``: ``_sessions``,
``_chains``, ``_metadata``, ``_results``, ``_save_sessions()``, ``_load_sessions()``,
``_session_file``, ``_transcript_dir``, as the seed's callers (MoAI-ADK's own tests among them)
read and change them."""

import json
import logging

import pytest

from conftest import run_without_root_override
from session_state import InvalidInputError
from session_state.moai import SessionManager


def manager(tmp_path, name="agent-sessions.json"):
    return SessionManager(session_file=tmp_path / "memory" / name, transcript_dir=tmp_path / "transcripts")


def on_disk(m):
    return json.loads(m._session_file.read_text(encoding="utf-8"))


def test_a_new_manager_has_the_seed_attributes_empty(tmp_path):
    m = manager(tmp_path)
    assert (m._sessions, m._chains, m._metadata, m._results) == ({}, {}, {}, {})
    assert m._session_file == tmp_path / "memory" / "agent-sessions.json"
    assert m._transcript_dir == tmp_path / "transcripts"


def test_the_maps_follow_each_change_as_the_seed_dicts_do(tmp_path):
    m = manager(tmp_path)
    m.register_agent_result("planner", "id-1", {"n": 1}, chain_id="C")
    m.register_agent_result("coder", "id-2", {"n": 2}, chain_id="C")
    assert m._sessions == {"planner": "id-1", "coder": "id-2"}
    assert m._chains == {"C": ["id-1", "id-2"]}
    assert m._results["id-2"]["result"] == {"n": 2}
    assert m._results["id-2"]["agent_name"] == "coder"
    assert m._results["id-2"]["chain_id"] == "C"
    meta = m._metadata["id-1"]
    assert (meta["agent_name"], meta["chain_id"], meta["resume_count"]) == ("planner", "C", 0)
    assert "created_at" in meta
    m.increment_resume_count("id-1")
    assert m._metadata["id-1"]["resume_count"] == 1
    assert "last_resumed_at" in m._metadata["id-1"]
    m.clear_agent_session("coder")
    assert "coder" not in m._sessions and "id-2" not in m._results and "id-2" not in m._metadata
    m.create_chain("D", ["x"])
    assert m._chains["D"] == []
    m.clear_chain("C")
    assert "C" not in m._chains and "id-1" not in m._results


def test_a_map_held_by_the_caller_stays_the_managers_map(tmp_path):
    m = manager(tmp_path)
    sessions = m._sessions
    m.register_agent_result("a", "id-1", None)
    assert m._sessions is sessions
    assert sessions == {"a": "id-1"}


def test_an_edited_resume_count_is_what_should_resume_sees(tmp_path):
    m = manager(tmp_path)
    m.register_agent_result("a", "id-1", None)
    m._metadata["id-1"]["resume_count"] = 5
    assert m.should_resume("a", "Implement the parser", "Implement the lexer") is False
    assert on_disk(m)["metadata"]["id-1"]["resume_count"] == 5
    m._metadata["id-1"]["resume_count"] = 0
    assert m.should_resume("a", "Implement the parser", "Implement the lexer") is True


def test_save_sessions_writes_replaced_maps(tmp_path):
    m = manager(tmp_path)
    m._sessions = {"agent1": "id123"}
    m._chains = {"chain1": ["id123"]}
    m._save_sessions()
    data = on_disk(m)
    assert data["sessions"] == {"agent1": "id123"}
    assert data["chains"] == {"chain1": ["id123"]}
    assert data["metadata"] == {}
    assert data["last_updated"]
    assert m.get_resume_id("agent1") == "id123"


def test_save_sessions_writes_an_entry_as_given_in_utf8(tmp_path):
    m = manager(tmp_path)
    m._sessions["agent_1"] = "session_001"
    m._metadata["session_001"] = {"note": "테스트 with éàü"}
    m._save_sessions()
    text = m._session_file.read_text(encoding="utf-8")
    assert "테스트 with éàü" in text
    assert json.loads(text)["metadata"] == {"session_001": {"note": "테스트 with éàü"}}
    assert manager(tmp_path)._metadata == {"session_001": {"note": "테스트 with éàü"}}


def test_an_existing_file_is_offered_as_it_is(tmp_path):
    folder = tmp_path / "memory"
    folder.mkdir()
    doc = {
        "sessions": {"agent-1": "id-abc"},
        "chains": {"SPEC-001": ["id-abc"]},
        "metadata": {"id-abc": {"agent_name": "agent-1", "created_at": "2025-01-01T00:00:00"}},
    }
    (folder / "agent-sessions.json").write_text(json.dumps(doc), encoding="utf-8")
    m = manager(tmp_path)
    assert m._sessions == doc["sessions"]
    assert m._chains == doc["chains"]
    assert m._metadata == doc["metadata"]
    assert m._results == {}


def test_a_corrupt_file_gives_empty_maps_and_one_warning(tmp_path, caplog):
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "agent-sessions.json").write_text("{ invalid json", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="session_state.moai"):
        m = manager(tmp_path)
        assert (m._sessions, m._chains) == ({}, {})
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1


def test_save_sessions_keeps_what_another_manager_wrote_meanwhile(tmp_path):
    mine, other = manager(tmp_path), manager(tmp_path)
    mine.register_agent_result("a", "id-a", None)
    assert mine._sessions == {"a": "id-a"}
    other.register_agent_result("b", "id-b", None)
    mine._sessions["c"] = "id-c"
    mine._save_sessions()
    assert on_disk(mine)["sessions"] == {"a": "id-a", "b": "id-b", "c": "id-c"}


def test_a_removed_entry_is_removed_from_the_file(tmp_path):
    m = manager(tmp_path)
    m.register_agent_result("a", "id-a", None)
    m.register_agent_result("b", "id-b", None)
    del m._sessions["a"]
    m._save_sessions()
    assert on_disk(m)["sessions"] == {"b": "id-b"}


def test_a_changed_entry_of_the_wrong_shape_is_refused_and_nothing_written(tmp_path):
    m = manager(tmp_path)
    m.register_agent_result("a", "id-a", None)
    before = m._session_file.read_bytes()
    m._metadata["id-a"]["resume_count"] = "many"
    with pytest.raises(InvalidInputError) as info:
        m._save_sessions()
    assert "metadata" in str(info.value) and "id-a" in str(info.value)
    assert m._session_file.read_bytes() == before
    m._sessions = ["not", "a", "dict"]
    with pytest.raises(InvalidInputError):
        m._save_sessions()
    assert m._session_file.read_bytes() == before


def test_load_sessions_drops_the_changes_not_saved(tmp_path):
    m = manager(tmp_path)
    m.register_agent_result("a", "id-a", None)
    m._sessions["b"] = "id-b"
    m._load_sessions()
    assert m._sessions == {"a": "id-a"}
    assert on_disk(m)["sessions"] == {"a": "id-a"}


def test_nothing_to_save_writes_nothing(tmp_path):
    m = manager(tmp_path)
    m.register_agent_result("a", "id-a", None)
    before = m._session_file.read_bytes()
    assert m._sessions == {"a": "id-a"}
    m._save_sessions()
    assert m._session_file.read_bytes() == before


# Run where mode 555 holds for root too (`run_without_root_override`).
SAVE_INTO_A_READ_ONLY_FOLDER = r"""
import logging, os, sys
from pathlib import Path
from session_state.moai import SessionManager
root = Path(sys.argv[1])
m = SessionManager(session_file=root / "memory" / "agent-sessions.json",
                   transcript_dir=root / "transcripts")
m.register_agent_result("a", "id-a", None)
m._sessions["b"] = "id-b"
logging.basicConfig(level=logging.ERROR, format="%(name)s|%(message)s", stream=sys.stdout)
m._session_file.parent.chmod(0o555)
try:
    m._save_sessions()
finally:
    m._session_file.parent.chmod(0o755)
"""


def test_save_sessions_logs_a_write_failure_as_the_seed(tmp_path):
    done = run_without_root_override(SAVE_INTO_A_READ_ONLY_FOLDER, str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "session_state.moai|Failed to save sessions: " in done.stdout, done.stdout + done.stderr


def test_results_persist_across_managers(tmp_path):
    """A deliberate difference: the seed's results lived in memory only."""
    manager(tmp_path).register_agent_result("a", "id-a", {"ok": True})
    assert manager(tmp_path)._results["id-a"]["result"] == {"ok": True}


def test_setting_transcript_dir_moves_the_lookup(tmp_path):
    m = manager(tmp_path)
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "agent-x.jsonl").write_text("{}\n", encoding="utf-8")
    assert m.export_transcript("x") is None
    m._transcript_dir = other
    assert m._transcript_dir == other
    assert m.export_transcript("x") == other / "agent-x.jsonl"


def test_registering_a_name_again_points_it_at_the_new_id(tmp_path):
    m = manager(tmp_path)
    m.register_agent_result("a", "id-1", 1, chain_id="C")
    m.register_agent_result("a", "id-2", 2, chain_id="C")
    assert m._sessions == {"a": "id-2"}
    # The seed keeps the entries of the first id, and both ids in the chain.
    assert set(m._metadata) == {"id-1", "id-2"}
    assert m._chains == {"C": ["id-1", "id-2"]}
    assert on_disk(m)["sessions"] == {"a": "id-2"}


def test_changes_naming_unknown_entries_change_nothing(tmp_path):
    m = manager(tmp_path)
    m.register_agent_result("a", "id-1", None, chain_id="C")
    before = m._session_file.read_bytes()
    state = (dict(m._sessions), dict(m._chains), json.dumps(m._metadata))
    m.increment_resume_count("nope")
    m.clear_agent_session("nope")
    m.clear_chain("nope")
    assert (dict(m._sessions), dict(m._chains), json.dumps(m._metadata)) == state
    assert m._session_file.read_bytes() == before


def test_resume_count_counts_on_from_an_edited_value(tmp_path):
    m = manager(tmp_path)
    m.register_agent_result("a", "id-1", None)
    m._metadata["id-1"]["resume_count"] = 3
    m._save_sessions()
    m.increment_resume_count("id-1")
    m.increment_resume_count("id-1")
    assert m._metadata["id-1"]["resume_count"] == 5
    assert on_disk(m)["metadata"]["id-1"]["resume_count"] == 5


def test_the_chain_and_session_views_read_the_maps(tmp_path):
    m = manager(tmp_path)
    m.register_agent_result("planner", "id-1", "plan", chain_id="C")
    m.register_agent_result("coder", "id-2", "code", chain_id="C")
    summary = m.get_chain_summary("C")
    assert summary["agents"] == ["planner", "coder"]
    assert summary["started_at"] == m._results["id-1"]["timestamp"]
    assert summary["completed_at"] == m._results["id-2"]["timestamp"]
    assert [r["result"] for r in m.get_chain_results("C")] == ["plan", "code"]
    every = m.get_all_sessions()
    assert every["sessions"] == m._sessions
    assert every["chains"] == list(m._chains)
    assert every["total_results"] == len(m._results) == 2


def test_an_empty_file_gives_empty_maps(tmp_path):
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "agent-sessions.json").write_text("", encoding="utf-8")
    m = manager(tmp_path)
    assert (m._sessions, m._chains, m._metadata, m._results) == ({}, {}, {}, {})
    m.register_agent_result("a", "id-1", None)
    assert on_disk(m)["sessions"] == {"a": "id-1"}


def test_create_chain_keeps_its_definition_beside_the_sessions_file(tmp_path):
    m = manager(tmp_path)
    m.create_chain("D", ["x", "y"], {"k": 1})
    assert m._chains["D"] == []
    chains = json.loads((tmp_path / "memory" / "workflow-chains.json").read_text(encoding="utf-8"))
    assert chains["D"]["expected_sequence"] == ["x", "y"]
    assert chains["D"]["metadata"] == {"k": 1}
    assert chains["D"]["created_at"]
