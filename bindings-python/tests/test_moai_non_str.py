"""The drop-in with arguments that are not str: the seed's answer, not a type error.

The seed looks names, ids and chain ids up in dicts read from JSON, whose keys are always str:
a lookup of another hashable value (``None``, ``5``) simply misses, and the seed answers as
for an unknown key (None, False, ``[]``, ``{chain_id, status: "not_found"}``, no-op). Where
the seed fails (an unhashable value it looks up, a known agent whose tasks must be compared
and are not str) ours raises ``InvalidInputError``, which is a ``TypeError`` too.

``CASES`` holds the seed's answers, each citing the seed's line
(``../shared/seeds/moai-session-manager.txt``, "<source line> <code>"), and runs without
``../shared``; ``test_the_table_is_the_oracles_answer`` checks the table against the oracle
(``../shared/reference/moai_session_manager.py``) and is skipped when it is absent.
"""

import logging
from pathlib import Path

import pytest
from conftest import ORACLE, load_oracle

from session_state import InvalidInputError, moai
from session_state.moai import SessionManager

RAISES = object()  # the seed fails: ours raises InvalidInputError (a TypeError)
KNOWN = "spec-builder"  # registered as `agent-abc` in chain `SPEC-1`

CASES = [
    # seed 226 `if agent_name not in self._sessions: return False`, before the task is read
    ("should_resume", ("unknown-agent", None), False),
    ("should_resume", (5, "x", "y"), False),
    ("should_resume", (None, None, None), False),
    ("should_resume", ("unknown-agent", "x", 7), False),
    # seed 230 `if not previous_task: return False`
    ("should_resume", ("a", "x", 0), False),
    ("should_resume", (KNOWN, "x", 0), False),
    ("should_resume", (KNOWN, None, []), False),
    ("should_resume", (KNOWN, 5, ""), False),
    # seed 226 on an unhashable name: `TypeError: unhashable type`
    ("should_resume", ([1], "x", "y"), RAISES),
    # seed 247-248 `keyword in current_task.lower() for keyword in previous_task.lower()...`
    ("should_resume", (KNOWN, 5, "implement login"), RAISES),
    # seed 246-249: `current_task` is read only for a word of `previous_task` over 4 letters
    ("should_resume", (KNOWN, None, "fix the bug"), False),
    ("should_resume", (KNOWN, 42, "a b"), False),
    ("should_resume", (KNOWN, ["x"], "add a test"), False),
    ("should_resume", (KNOWN, "implement login", 5), RAISES),
    # seed 185 `if agent_name not in self._sessions: return None`
    ("get_resume_id", (None,), None),
    ("get_resume_id", (5,), None),
    ("get_resume_id", ([1],), RAISES),
    # seed 192 `if chain_id:` (a falsy chain is no chain), 194 `!= chain_id` (never a str)
    ("get_resume_id", (KNOWN, 0), "agent-abc"),
    ("get_resume_id", (KNOWN, 7), None),
    ("get_resume_id", (KNOWN, ["SPEC-1"]), None),
    ("get_resume_id", (5, ["SPEC-1"]), None),
    # seed 308-320: `get_chain_results` is `[]`, so `{"chain_id": chain_id, "status": ...}`
    ("get_chain_summary", (5,), {"chain_id": 5, "status": "not_found"}),
    ("get_chain_summary", (None,), {"chain_id": None, "status": "not_found"}),
    ("get_chain_summary", ([1],), RAISES),
    # seed `if chain_id not in self._chains: return []`
    ("get_chain_results", (5,), []),
    ("get_chain_results", ([1],), RAISES),
    # seed `result_data = self._results.get(agent_id)`
    ("get_agent_result", (5,), None),
    ("get_agent_result", ({},), RAISES),
    # seed `if agent_name in self._sessions:` / `if chain_id in self._chains:` /
    # `if agent_id in self._metadata:`: no-ops
    ("clear_agent_session", (5,), None),
    ("clear_agent_session", ([1],), RAISES),
    ("clear_chain", (5,), None),
    ("clear_chain", ([],), RAISES),
    ("increment_resume_count", (5,), None),
    ("increment_resume_count", ([1],), RAISES),
    # seed `self._transcript_dir / f"agent-{agent_id}.jsonl"`: formatted, no lookup
    ("export_transcript", (7,), None),
]


def ids(case):
    method, args, _ = case
    return f"{method}{args!r}"


def make(cls, root: Path):
    manager = cls(
        session_file=root / ".moai" / "memory" / "agent-sessions.json",
        transcript_dir=root / ".moai" / "logs" / "agent-transcripts",
    )
    manager.register_agent_result(KNOWN, "agent-abc", {"ok": True}, "SPEC-1")
    manager.register_agent_result("other", "agent-def", {"ok": True}, "SPEC-1")
    return manager


def outcome(manager, method, args):
    try:
        answer = getattr(manager, method)(*args)
    except InvalidInputError:
        return RAISES
    except (TypeError, AttributeError):  # only the oracle raises these
        if isinstance(manager, SessionManager):
            raise
        return RAISES
    return answer


def state(root: Path) -> str:
    return (root / ".moai" / "memory" / "agent-sessions.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_the_seeds_answer_for_an_argument_that_is_not_a_str(tmp_path, case):
    method, args, expected = case
    manager = make(SessionManager, tmp_path)
    before = state(tmp_path)
    answer = outcome(manager, method, args)
    if expected is RAISES or expected is None:
        assert answer is expected
    else:
        assert answer == expected and type(answer) is type(expected)
    assert state(tmp_path) == before  # a miss changes nothing


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_the_table_is_the_oracles_answer(tmp_path, case):
    if not ORACLE.exists():
        pytest.skip(f"the seed oracle is not there ({ORACLE}): ../shared is absent")
    module = load_oracle(ORACLE, "moai_session_manager_oracle_non_str")
    logging.getLogger(module.__name__).disabled = True
    method, args, expected = case
    oracle = make(module.SessionManager, tmp_path / "oracle")
    ours = make(SessionManager, tmp_path / "ours")
    seed = outcome(oracle, method, args)
    assert seed is expected if expected is RAISES else seed == expected
    assert outcome(ours, method, args) == seed


def test_export_transcript_formats_an_id_that_is_not_a_str_as_the_seed(tmp_path):
    manager = make(SessionManager, tmp_path)
    transcript = tmp_path / ".moai" / "logs" / "agent-transcripts" / "agent-5.jsonl"
    transcript.write_text("{}\n")
    # seed `transcript_file = self._transcript_dir / f"agent-{agent_id}.jsonl"`
    assert manager.export_transcript(5) == transcript
    assert manager.read_transcript(5) == manager.read_transcript("5")


def test_module_functions_give_the_seeds_miss_answers(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(moai, "_session_manager_instance", None)
    assert moai.should_resume("unknown-agent", None) is False
    assert moai.get_resume_id(None) is None
    moai.register_agent("a", "id-1", None)
    assert moai.should_resume("a", "x", 0) is False
    assert moai.get_resume_id("a", 0) == "id-1"
    with pytest.raises(InvalidInputError) as info:
        moai.get_resume_id(["a"])
    assert isinstance(info.value, TypeError)
    assert info.value.context == {"argument": "agent_name"}


def test_an_agent_at_its_resume_cap_is_not_resumed_whatever_the_tasks(tmp_path):
    manager = make(SessionManager, tmp_path)
    for _ in range(5):
        manager.increment_resume_count("agent-abc")
    # seed 238-242: `if resume_count >= 5: ... return False`, before either task is read
    assert manager.should_resume(KNOWN, 5, "implement login") is False
    assert manager.should_resume(KNOWN, "implement login", 5) is False
    assert manager.decide_resume(KNOWN, None, ["x"])["reason"] == "resume_cap_reached"
    with pytest.raises(InvalidInputError):
        manager.should_resume([KNOWN], "x", "y")  # seed 226: unhashable


def test_the_resume_cap_answer_is_the_oracles(tmp_path):
    if not ORACLE.exists():
        pytest.skip(f"the seed oracle is not there ({ORACLE}): ../shared is absent")
    module = load_oracle(ORACLE, "moai_session_manager_oracle_non_str")
    logging.getLogger(module.__name__).disabled = True
    oracle = make(module.SessionManager, tmp_path / "oracle")
    for _ in range(5):
        oracle.increment_resume_count("agent-abc")
    assert oracle.should_resume(KNOWN, 5, "implement login") is False
    assert oracle.should_resume(KNOWN, "implement login", 5) is False


def test_decide_resume_explains_a_miss_for_a_name_that_is_not_a_str(tmp_path):
    manager = make(SessionManager, tmp_path)
    assert manager.decide_resume(5, "x", "y") == {
        "resume": False, "score": 0.0, "matched": [], "reason": "unknown_agent"
    }
    assert manager.decide_resume(KNOWN, 5, 0)["reason"] == "no_previous_task"


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.register_agent_result(KNOWN, "agent-x", 1, 7),  # SPEC section 2, item 7
        lambda m: m.register_agent_result(5, "agent-x", 1),
        lambda m: m.register_agent_result(KNOWN, 5, 1),
        lambda m: m.create_chain(5, ["a"]),
        lambda m: m.create_chain("c", [5]),
    ],
)
def test_writes_of_values_that_are_not_str_stay_typed_errors(tmp_path, call):
    manager = make(SessionManager, tmp_path)
    before = state(tmp_path)
    with pytest.raises(InvalidInputError) as info:
        call(manager)
    assert isinstance(info.value, TypeError)
    assert info.value.code == "invalid_input"
    assert state(tmp_path) == before
