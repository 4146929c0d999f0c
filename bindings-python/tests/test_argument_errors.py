"""A wrong argument is an ``InvalidInputError`` naming the argument and the member at fault
(message and ``.context["field"]``), never a "corrupt file" error about a file that is fine,
and never serde's "at line 1 column 82" of a JSON text the caller did not write."""

from pathlib import Path

import pytest

from session_state import CorruptStateError, InvalidInputError, MemoryStore
from session_state import orchestrator
from session_state.orchestrator import OrchestratorStore
from session_state.teams import BackendType, SessionState, SpawnConfig, TeamStore

NOW = "2026-03-01T12:34:56Z"


# -------------------------------------------------------------- item 1: orchestrator documents


def test_save_session_of_a_bad_dict_names_the_argument_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidInputError) as info:
        orchestrator.save_session({})
    assert str(info.value).startswith("`state` is not an orchestrator session: field `schema_version`")
    assert info.value.context == {"field": "schema_version"}
    assert ".claude" not in str(info.value)
    assert not (tmp_path / ".claude").exists()


def test_store_save_of_a_wrong_type_names_the_field():
    store = OrchestratorStore(store=MemoryStore())
    with pytest.raises(InvalidInputError) as info:
        store.save({"schema_version": "1.0", "goal": 1})
    assert str(info.value).startswith(
        "`state` is not an orchestrator session: field `goal`: invalid type"
    ), str(info.value)
    assert info.value.context == {"field": "goal"}


def test_archive_without_session_id_names_the_missing_field(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidInputError) as info:
        orchestrator.archive_session({"schema_version": "1.0", "goal": "g"})
    assert str(info.value) == "`state` is not an orchestrator session: field `session_id` is missing"
    assert info.value.context == {"field": "session_id"}


@pytest.mark.parametrize("call", ["resume_summary", "render_resume"])
def test_summaries_of_a_bad_dict_name_the_argument(call):
    with pytest.raises(InvalidInputError) as info:
        getattr(orchestrator, call)({"schema_version": "1.0", "goal": []})
    assert str(info.value).startswith("`state` is not an orchestrator session: field `goal`")


def test_a_corrupt_file_is_still_corrupt_state(tmp_path):
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "orchestrator-session.json").write_text('{"schema_version": "1.0", "goal": 1}')
    with pytest.raises(CorruptStateError, match="orchestrator-session.json"):
        OrchestratorStore(tmp_path).load()


# ---------------------------------------------------- item 4: members named, no line/column


def test_record_new_names_the_project_member_at_fault():
    store = OrchestratorStore(store=MemoryStore())
    with pytest.raises(InvalidInputError) as info:
        store.record_new("", project={"name": 5})
    assert str(info.value).startswith("`project.name` is invalid: invalid type: integer `5`")
    assert info.value.context == {"field": "project.name"}


def test_record_new_takes_a_project_without_members():
    # The seed never reads `project`: its members may be absent, and stay absent.
    store = OrchestratorStore(store=MemoryStore())
    doc = store.record_new("g", project={}, suffix="abc123")
    assert doc["project"] == {}


def test_record_agent_start_names_the_member():
    store = OrchestratorStore(store=MemoryStore())
    store.record_new("g", project={"name": "p", "path": "/p"}, suffix="abc123")
    with pytest.raises(InvalidInputError) as info:
        store.record_agent_start("a", "t", 1)
    assert info.value.context == {"field": "task"}
    assert "column" not in str(info.value)


@pytest.mark.parametrize(
    "call, member",
    [
        (lambda s: s.record_new(None), "goal"),
        (lambda s: s.record_decision(None, "why"), "decision"),
        (lambda s: s.record_agent_fail("a", None), "error"),
        (lambda s: s.record_task_done(1, None), "outcome"),
        (lambda s: s.record_context(None), "tokens"),
        (lambda s: s.claim(None), "claim.owner"),
        (lambda s: s.release(None), "release.owner"),
        (lambda s: s.heartbeat(None), "heartbeat.owner"),
    ],
)
def test_a_required_argument_given_none_is_named_with_its_type(call, member):
    s = OrchestratorStore(store=MemoryStore())
    if member != "goal":
        s.record_new("g")
        s.record_agent_start("a", "code", "t")
        s.record_task_add("t1")
    with pytest.raises(InvalidInputError) as info:
        call(s)
    assert str(info.value).startswith(f"`{member}` is invalid: invalid type: null"), str(info.value)
    assert "missing field" not in str(info.value)


def test_a_whole_number_argument_names_its_range_not_a_rust_type():
    s = OrchestratorStore(store=MemoryStore())
    s.record_new("g")
    s.record_agent_start("a", "code", "t")
    with pytest.raises(InvalidInputError) as info:
        s.record_context(2.5)
    assert str(info.value).endswith(
        "expected a whole number from 0 to 18446744073709551615"
    ), str(info.value)


@pytest.mark.parametrize(
    "call, member, what",
    [
        (lambda s: s.record_new(b"x"), "goal", "bytes"),
        (lambda s: s.record_decision(b"d"), "decision", "bytes"),
        (lambda s: s.record_agent_progress("a", float("nan")), "percent", "Out of range float"),
        (lambda s: s.record_agent_done("a", "ok", files={"x"}), "files", "set"),
    ],
)
def test_a_recording_argument_json_cannot_hold_is_named(call, member, what):
    s = OrchestratorStore(store=MemoryStore())
    if member != "goal":
        s.record_new("g")
        s.record_agent_start("a", "code", "t")
    with pytest.raises(InvalidInputError) as info:
        call(s)
    assert str(info.value).startswith(f"`{member}` is not plain JSON data: "), str(info.value)
    assert what in str(info.value)


def test_record_spawn_names_the_config_attribute():
    teams = TeamStore(store=MemoryStore())
    with pytest.raises(InvalidInputError) as info:
        teams.record_spawn("t", SpawnConfig(name="coder", prompt="p", max_turns=2**40), BackendType.CODEX)
    assert str(info.value).startswith("`config.max_turns` is invalid: "), str(info.value)
    assert info.value.context == {"field": "config.max_turns"}
    assert "column" not in str(info.value)


def test_team_save_names_the_state_attribute():
    teams = TeamStore(store=MemoryStore())
    state = SessionState.from_config(SpawnConfig(name="coder", prompt="p"), BackendType.CODEX, now=NOW)
    state.max_turns = "x"  # type: ignore[assignment]
    with pytest.raises(InvalidInputError) as info:
        teams.save("t", state)
    assert info.value.context == {"field": "state.max_turns"}
    assert "column" not in str(info.value)


@pytest.fixture
def teams():
    store = TeamStore(store=MemoryStore())
    config = SpawnConfig(name="coder", prompt="p", model="gpt-5-codex")
    store.save("my-team", SessionState.from_config(config, BackendType.CODEX, now=NOW))
    return store


def test_team_update_names_the_changed_key(teams):
    with pytest.raises(InvalidInputError) as info:
        teams.update("my-team", "coder", {"maxTurns": "x"})
    assert str(info.value).startswith("`changes.maxTurns` is invalid: invalid type"), str(info.value)
    assert info.value.context == {"field": "changes.maxTurns"}
    assert "column" not in str(info.value)
    assert teams.load("my-team", "coder").max_turns is None  # nothing written


def test_team_update_refuses_a_document_key_in_snake_case(teams):
    with pytest.raises(InvalidInputError) as info:
        teams.update("my-team", "coder", {"max_turns": 7})
    assert str(info.value) == (
        "`changes.max_turns` is invalid: the key is `maxTurns` (a session state's keys are camelCase)"
    )
    assert info.value.context == {"field": "changes.max_turns"}
    assert teams.load("my-team", "coder").max_turns is None  # nothing written
    assert teams.update("my-team", "coder", {"maxTurns": 7}).max_turns == 7


def test_team_update_refuses_a_name_the_crate_refuses(teams):
    for name in ("../x", ""):
        with pytest.raises(InvalidInputError) as info:
            teams.update("my-team", "coder", {"name": name})
        assert str(info.value).startswith("`changes.name` is invalid: "), str(info.value)
        assert info.value.context["field"] == "changes.name"
    assert teams.load("my-team", "coder").name == "coder"  # nothing written


# ------------------------------------------------------------ item 3: unknown backend changes


def test_team_update_refuses_an_unknown_backend_like_node(teams):
    with pytest.raises(InvalidInputError) as info:
        teams.update("my-team", "coder", {"backendType": "bogus"})
    assert str(info.value) == "`changes.backendType` is invalid: unknown backend type `bogus`"
    assert info.value.context["field"] == "changes.backendType"
    with pytest.raises(InvalidInputError) as info:
        teams.update("my-team", "coder", {"backendType": 5})
    assert info.value.context["field"] == "changes.backendType"
    assert teams.load("my-team", "coder").backend_type == "codex"  # nothing written
    assert teams.update("my-team", "coder", {"backendType": "gemini-cli"}).backend_type == "gemini-cli"


def test_team_replace_refuses_an_unknown_backend(teams):
    state = teams.load("my-team", "coder")
    state.backend_type = "bogus"
    with pytest.raises(InvalidInputError) as info:
        teams.replace("my-team", "coder", state)
    assert info.value.context["field"] == "state.backend_type"
    assert teams.load("my-team", "coder").backend_type == "codex"


def test_an_unknown_backend_in_a_file_is_kept_byte_for_byte(tmp_path: Path):
    path = tmp_path / "teams" / "t" / "sessions" / "coder.json"
    path.parent.mkdir(parents=True)
    original = SessionState.from_dict(
        {"name": "coder", "backendType": "future-backend", "prompt": "p", "createdAt": NOW}
    ).to_json()
    path.write_bytes(original)
    teams = TeamStore(tmp_path)
    state = teams.load("t", "coder")
    assert state.backend_type == "future-backend"
    teams.save("t", state)
    assert path.read_bytes() == original
    updated = teams.update("t", "coder", {"backendType": "future-backend", "metadata": {"k": "v"}})
    assert updated.backend_type == "future-backend"
