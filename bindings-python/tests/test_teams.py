"""session_state.teams against the crate-written vectors and bad input."""

import json
from pathlib import Path

import pytest

from session_state import MemoryStore
from session_state.errors import InvalidInputError, InvalidKeyError, NotFoundError
from session_state.teams import BackendType, MemoryConfig, SessionState, SpawnConfig, TeamStore

VECTORS = Path(__file__).resolve().parents[2] / "tests" / "vectors" / "teams"
FIXTURES = sorted((VECTORS / "fixtures").rglob("*.json"))


def test_vectors_are_there():
    assert len(FIXTURES) >= 2, VECTORS


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture_round_trips_to_identical_bytes(path):
    data = path.read_bytes()
    state = SessionState.from_json(data)
    assert state.to_json() == data
    assert SessionState.from_dict(json.loads(data)).to_json() == data


def test_from_config_and_back():
    config = SpawnConfig(
        name="coder",
        prompt="You write Rust code.",
        model="gpt-5-codex",
        allowed_tools=["Bash", "Read"],
        env={"RUST_LOG": "debug"},
        memory_config=MemoryConfig(),
    )
    state = SessionState.from_config(config, BackendType.CODEX, now="2026-03-01T13:34:56+01:00")
    assert state.created_at == "2026-03-01T12:34:56Z"
    assert state.backend_type == "codex"
    assert state.parse_backend_type() is BackendType.CODEX
    assert state.metadata == {}
    back = state.to_spawn_config()
    assert back == config


def test_unknown_backend_is_kept_and_reported():
    doc = json.loads((VECTORS / "fixtures").rglob("reviewer.json").__next__().read_bytes())
    doc["backendType"] = "aider"
    state = SessionState.from_dict(doc)
    assert state.backend_type == "aider"
    assert state.parse_backend_type() is None
    assert json.loads(state.to_json())["backendType"] == "aider"


@pytest.mark.parametrize(
    "change",
    [
        {"env": None},
        {"memoryConfig": {"max_turns": 5}},
        {"createdAt": "2026-03-01T12:34:56"},
        {"maxTurns": "ten"},
    ],
)
def test_bad_documents_are_invalid_input(change):
    doc = {"name": "x", "backendType": "codex", "prompt": "p", "createdAt": "2026-03-01T12:34:56Z"}
    doc.update(change)
    with pytest.raises(InvalidInputError):
        SessionState.from_dict(doc)


def test_team_store_in_memory_keeps_created_at_and_metadata_on_respawn():
    teams = TeamStore(store=MemoryStore())
    config = SpawnConfig(name="coder", prompt="p")
    first = teams.record_spawn("t", config, "codex")
    first.metadata["thread_id"] = "abc"
    teams.replace("t", "coder", first)
    again = teams.record_spawn("t", SpawnConfig(name="coder", prompt="new prompt"), "codex")
    assert again.created_at == first.created_at
    assert again.metadata == {"thread_id": "abc"}
    assert again.prompt == "new prompt"
    listing = teams.list("t")
    assert [m.name for m in listing.members] == ["coder"] and listing.skipped == []
    assert teams.list_teams() == [{"name": "t", "sessions": 1}]
    plan = teams.resume_plan("t")
    assert plan["members"][0]["action"] == "respawn"
    assert teams.delete("t", "coder") is True
    with pytest.raises(NotFoundError):
        teams.load("t", "coder")


@pytest.mark.parametrize("bad", ["..", "a/b", "a\\b", "a\x00b", "x" * 256, ""])
def test_unsafe_names_are_invalid_key(bad):
    teams = TeamStore(store=MemoryStore())
    with pytest.raises(InvalidKeyError):
        teams.load(bad, "coder")
    with pytest.raises(InvalidKeyError):
        teams.record_spawn("t", SpawnConfig(name=bad, prompt="p"), "codex")


def test_file_store_default_root_is_expanded(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    teams = TeamStore()
    teams.record_spawn("t", SpawnConfig(name="a", prompt="p"), BackendType.CLAUDE_CODE)
    assert (tmp_path / ".claude" / "teams" / "t" / "sessions" / "a.json").is_file()


def test_team_store_replace_takes_the_agent_and_refuses_a_rename():
    teams = TeamStore(store=MemoryStore())
    state = teams.record_spawn("t", SpawnConfig(name="coder", prompt="p"), "codex")
    state.prompt = "new"
    assert teams.replace("t", "coder", state).prompt == "new"
    state.name = "other"
    with pytest.raises(InvalidInputError, match="cannot rename it to `other`"):
        teams.replace("t", "coder", state)
    assert teams.load("t", "coder").prompt == "new"


def test_merge_metadata_sets_and_removes_entries_and_keeps_the_others(tmp_path):
    ts = TeamStore(root=tmp_path)
    ts.record_spawn("t", SpawnConfig(name="a", prompt="p"), BackendType.CODEX)
    ts.merge_metadata("t", "a", {"thread": "x", "run": "1"})
    saved = ts.merge_metadata("t", "a", {"run": None, "pr": "7"})
    assert saved.metadata == {"thread": "x", "pr": "7"}
    assert ts.load("t", "a").metadata == {"thread": "x", "pr": "7"}
    with pytest.raises(InvalidInputError, match=r"`entries\.run` is invalid: expected a string or null, got a number$"):
        ts.merge_metadata("t", "a", {"run": 1})
    with pytest.raises(InvalidInputError, match="entries"):
        ts.merge_metadata("t", "a", [("run", "1")])  # type: ignore[arg-type]
    with pytest.raises(NotFoundError):
        ts.merge_metadata("t", "nobody", {"x": "1"})
    assert ts.load("t", "a").metadata == {"thread": "x", "pr": "7"}


MERGE_FROM_A_PROCESS = """
import sys
from session_state.teams import TeamStore
ts = TeamStore(root=sys.argv[1])
for i in range(20):
    ts.merge_metadata("t", "shared", {f"{sys.argv[2]}-{i}": "1"})
"""


def test_merge_metadata_from_several_processes_loses_no_entry(tmp_path):
    import subprocess
    import sys

    ts = TeamStore(root=tmp_path)
    ts.record_spawn("t", SpawnConfig(name="shared", prompt="p"), BackendType.CODEX)
    writers = [
        subprocess.Popen([sys.executable, "-c", MERGE_FROM_A_PROCESS, str(tmp_path), f"w{n}"])
        for n in range(4)
    ]
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0, 0]
    assert sorted(ts.load("t", "shared").metadata) == sorted(
        f"w{n}-{i}" for n in range(4) for i in range(20)
    )


def test_an_error_in_a_map_names_its_key_as_written():
    ts = TeamStore(store=MemoryStore())
    state = SessionState.from_config(SpawnConfig(name="a", prompt="p"), BackendType.CODEX)
    state.env = {"MY_VAR": 1}  # type: ignore[dict-item]
    with pytest.raises(InvalidInputError) as info:
        ts.save("t", state)
    assert "`state.env.MY_VAR` is invalid" in str(info.value), str(info.value)
