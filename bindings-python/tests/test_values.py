"""Values crossing into Rust are kept exactly or refused clearly (docs/python.md, "Values").

- ints outside the 64-bit range would become floats: ``InvalidInputError`` naming where;
- NaN and infinities are not JSON: ``InvalidInputError``;
- dict keys that are int, float, bool or None become strings as the seeds' ``json`` wrote
  them; other key types are ``InvalidInputError``;
- lists and dicts nested deeper than 100 levels: ``InvalidInputError`` saying the limit.
"""

import pytest

from session_state import InvalidInputError, MemoryStore
from session_state.moai import SessionManager
from session_state.orchestrator import OrchestratorStore, resume_summary
from session_state.teams import SessionState, SpawnConfig, TeamStore

NOW = "2026-03-01T12:34:56Z"


@pytest.fixture
def manager(tmp_path):
    return SessionManager(session_file=tmp_path / "m" / "s.json", transcript_dir=tmp_path / "t")


@pytest.fixture
def sessions():
    s = OrchestratorStore(store=MemoryStore())
    s.record_new("g", project={"name": "p", "path": "/p"}, suffix="abc123")
    return s


def nested(levels):
    value = 0
    for _ in range(levels):
        value = [value]
    return value


BIG = [2**64, 2**64 + 1, -(2**63) - 1, 10**30, -(10**40)]


@pytest.mark.parametrize("big", BIG)
def test_big_int_result_is_refused_not_turned_into_a_float(manager, big):
    with pytest.raises(InvalidInputError, match=str(big)) as info:
        manager.register_agent_result("a", "id-1", {"v": [1, {"deep": big}]})
    assert '["v"][1]["deep"]' in str(info.value)
    assert info.value.context["field"] == '["v"][1]["deep"]'
    assert manager.get_agent_result("id-1") is None  # nothing written


@pytest.mark.parametrize("edge", [2**64 - 1, -(2**63), 2**63, 0, -1])
def test_64_bit_ints_are_kept_exactly(manager, edge):
    manager.register_agent_result("a", "id-1", {"v": edge, "f": 1.5e300})
    got = manager.get_agent_result("id-1")
    assert got == {"v": edge, "f": 1.5e300} and type(got["v"]) is int


def test_big_int_in_chain_metadata_is_refused(manager):
    with pytest.raises(InvalidInputError, match="metadata"):
        manager.create_chain("C", ["a"], {"n": 2**64 + 1})


def test_big_int_in_an_orchestrator_document_is_refused(sessions):
    doc = sessions.load()
    doc["x_custom"] = {"n": 2**64 + 1}
    with pytest.raises(InvalidInputError, match=r'at `\["x_custom"\]\["n"\]`'):
        sessions.save(doc)
    assert "x_custom" not in sessions.load()
    with pytest.raises(InvalidInputError):
        resume_summary(doc, NOW)


def test_big_int_in_a_team_document_is_refused():
    state = SessionState.from_config(SpawnConfig(name="coder", prompt="p"), "codex", now=NOW)
    state.extra["big"] = 2**70
    with pytest.raises(InvalidInputError, match="big"):
        TeamStore(store=MemoryStore()).save("t", state)
    with pytest.raises(InvalidInputError, match="maxTurns"):
        SessionState.from_config(SpawnConfig(name="c", prompt="p", max_turns=2**64), "codex", now=NOW)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_nan_and_infinities_are_refused(manager, sessions, bad):
    with pytest.raises(InvalidInputError, match="not plain JSON"):
        manager.register_agent_result("a", "id-1", {"v": bad})
    doc = sessions.load()
    doc["x"] = [bad]
    with pytest.raises(InvalidInputError):
        sessions.save(doc)


def test_scalar_dict_keys_become_strings_like_the_seed(manager):
    manager.register_agent_result("a", "id-1", {1: "one", None: "none", False: "no", 2.5: "f"})
    assert manager.get_agent_result("id-1") == {"1": "one", "null": "none", "false": "no", "2.5": "f"}


def test_other_dict_keys_are_refused(manager):
    with pytest.raises(InvalidInputError, match="keys must be"):
        manager.register_agent_result("a", "id-1", {(1, 2): "tuple"})


def test_nesting_up_to_the_limit_is_kept_and_read_back(manager, sessions):
    # 100 levels is the limit; a stored result sits 3 levels down in the sessions file, and
    # the file must stay readable.
    manager.register_agent_result("a", "id-1", nested(100))
    manager.register_agent_result("b", "id-2", "after")
    assert manager.get_agent_result("id-1") == nested(100)
    doc = sessions.load()
    doc["x"] = nested(98)  # the document itself is one level, "x" a second
    assert sessions.save(doc)["x"] == nested(98)


@pytest.mark.parametrize("levels", [101, 127, 128, 500, 5000])
def test_deeper_nesting_is_invalid_input_naming_the_limit(manager, sessions, levels):
    with pytest.raises(InvalidInputError, match="nested deeper than the limit of 100 levels"):
        manager.register_agent_result("a", "id-1", nested(levels))
    assert manager.get_all_sessions()["total_results"] == 0
    doc = sessions.load()
    doc["x"] = nested(levels)
    with pytest.raises(InvalidInputError, match="nested deeper than the limit of 100 levels"):
        sessions.save(doc)


def test_team_from_json_bytes_are_checked_the_same_way():
    state = SessionState.from_config(SpawnConfig(name="coder", prompt="p"), "codex", now=NOW)
    head = state.to_json()[:-1]
    with pytest.raises(InvalidInputError, match="nested deeper than the limit of 100 levels"):
        SessionState.from_json(head + b', "x": ' + b"[" * 130 + b"]" * 130 + b"}")
    with pytest.raises(InvalidInputError, match=r'18446744073709551617` at `\["x"\]`'):
        SessionState.from_json(head + b', "x": 18446744073709551617}')
    assert SessionState.from_json(head + b', "x": [18446744073709551615]}').extra == {"x": [2**64 - 1]}


@pytest.mark.parametrize(
    "result, where",
    [
        ({"k": "\udc00"}, '["k"]'),
        ({"v": [1, {"deep": "a\ud800b"}]}, '["v"][1]["deep"]'),
        ({"\udfff": 1}, '["\\udfff"]'),
    ],
)
def test_lone_surrogate_is_invalid_input_naming_where(manager, result, where):
    with pytest.raises(InvalidInputError) as info:
        manager.register_agent_result("a", "id-1", result)
    assert "lone surrogate" in str(info.value)
    assert f"at `{where}`" in str(info.value), str(info.value)
    assert info.value.context["field"] == where
    assert manager.get_agent_result("id-1") is None  # nothing written


def test_lone_surrogate_in_a_whole_value_and_in_documents(manager, sessions):
    with pytest.raises(InvalidInputError, match=r"`result` holds the lone surrogate `\\udc00`,"):
        manager.register_agent_result("a", "id-1", "\udc00")
    doc = sessions.load()
    doc["goal"] = "x\udc00"
    with pytest.raises(InvalidInputError) as info:
        sessions.save(doc)
    assert info.value.context["field"] == '["goal"]'
    # a proper pair (an emoji written as two surrogates by json) is kept
    manager.register_agent_result("a", "id-2", {"k": "\U0001F600"})
    assert manager.get_agent_result("id-2") == {"k": "\U0001F600"}
