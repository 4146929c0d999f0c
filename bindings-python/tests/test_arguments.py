"""Arguments a Python user can get wrong: no builtin OverflowError or AttributeError leaks out.

Counts and percentages that are out of range are ``InvalidInputError`` (a ``ValueError``);
values of the wrong type are ``InvalidInputError`` too (also a ``TypeError``) naming the
argument.
"""

import json
import shutil
import sys

import pytest
from conftest import SKILL_ORACLE, VECTORS, load_oracle

from session_state import MemoryStore
from session_state.errors import InvalidInputError
from session_state.orchestrator import OrchestratorStore, list_history
from session_state.teams import BackendType, SessionState, SpawnConfig, TeamStore

ORCH = VECTORS / "orchestrator"
HISTORY = json.loads((ORCH / "project.history.json").read_text("utf-8"))


@pytest.fixture
def project(tmp_path, monkeypatch):
    shutil.copytree(ORCH / "project", tmp_path / "project")
    monkeypatch.chdir(tmp_path / "project")
    return tmp_path / "project"


@pytest.fixture
def started():
    s = OrchestratorStore(store=MemoryStore())
    s.record_new("g", project={"name": "p", "path": "/p"}, suffix="abc123")
    s.start()
    s.record_agent_start("a", "code", "t")
    return s


@pytest.mark.parametrize("limit", [-1, -2, -3, -10])
def test_compat_list_history_negative_limit_slices_like_the_seed(project, limit):
    # The seed does `sorted(...)[:limit]`: a negative limit drops that many from the end.
    assert len(HISTORY) == 3
    assert list_history(limit) == HISTORY[:limit]


def test_compat_list_history_negative_limit_equals_the_oracle(project):
    if not SKILL_ORACLE.exists():
        pytest.skip("../shared/reference is absent")
    oracle = load_oracle(SKILL_ORACLE, "skill_oracle_args")
    for limit in (-1, -2, -5, 0, 2):
        ours = [e["id"] for e in list_history(limit)]
        theirs = [e["id"] for e in oracle.list_history(limit)]
        assert ours == theirs, limit


def test_compat_list_history_huge_limit_is_everything(project):
    assert list_history(sys.maxsize) == HISTORY
    assert list_history(2**80) == HISTORY


@pytest.mark.parametrize("bad", ["10", 1.5, None, [1]])
def test_compat_list_history_wrong_type_names_limit(project, bad):
    with pytest.raises(TypeError, match="limit"):
        list_history(bad)


@pytest.mark.parametrize("kwargs", [{"limit": -1}, {"offset": -1}, {"offset": -(2**70)}])
def test_store_list_history_out_of_range_is_invalid_input(kwargs):
    s = OrchestratorStore(store=MemoryStore())
    name = next(iter(kwargs))
    with pytest.raises(InvalidInputError, match=name) as info:
        s.list_history(**kwargs)
    assert isinstance(info.value, ValueError)
    assert not isinstance(info.value, OverflowError)


@pytest.mark.parametrize("kwargs", [{"limit": "3"}, {"offset": 1.0}, {"limit": [1]}])
def test_store_list_history_wrong_type_is_type_error(kwargs):
    s = OrchestratorStore(store=MemoryStore())
    with pytest.raises(TypeError, match=next(iter(kwargs))):
        s.list_history(**kwargs)


@pytest.mark.parametrize("percent", [-1, 101, 256, 2**64, -(2**70)])
def test_record_agent_progress_out_of_range_is_invalid_input(started, percent):
    with pytest.raises(InvalidInputError) as info:
        started.record_agent_progress("a", percent)
    assert info.value.context.get("field") == "percent" or "percent" in str(info.value)
    assert started.load()["agents"][0].get("progress") is None


@pytest.mark.parametrize("percent", ["50", float("inf"), None])
def test_record_agent_progress_wrong_type_is_type_error(started, percent):
    with pytest.raises(TypeError, match="percent"):
        started.record_agent_progress("a", percent)


def test_record_agent_progress_bounds_still_work(started):
    assert started.record_agent_progress("a", 0)["agents"][0]["progress"] == 0
    assert started.record_agent_progress("a", 100)["agents"][0]["progress"] == 100


@pytest.mark.parametrize("percent", [75.0, 62.5, 3 / 4 * 100, 0.0])
def test_record_agent_progress_takes_any_number_from_0_to_100_as_given(started, percent):
    saved = started.record_agent_progress("a", percent)["agents"][0]["progress"]
    assert saved == percent and type(saved) is float
    assert started.load()["agents"][0]["progress"] == percent


@pytest.mark.parametrize("percent", [-0.5, 100.5, 1e300])
def test_record_agent_progress_float_out_of_range_is_invalid_input(started, percent):
    with pytest.raises(InvalidInputError, match="progress `.*` is not between 0 and 100"):
        started.record_agent_progress("a", percent)
    assert started.load()["agents"][0].get("progress") is None


@pytest.mark.parametrize("minutes", [2**40, -(2**40), 24 * 60])
def test_naive_offset_out_of_range_is_invalid_input(minutes):
    with pytest.raises(InvalidInputError, match="offset"):
        OrchestratorStore(store=MemoryStore(), naive_offset_minutes=minutes)


@pytest.mark.parametrize("bad", [None, {"name": "coder", "prompt": "p"}, "coder"])
def test_from_config_wrong_type_names_config(bad):
    with pytest.raises(TypeError, match="config"):
        SessionState.from_config(bad, BackendType.CODEX)


def test_team_store_wrong_types_name_the_argument():
    teams = TeamStore(store=MemoryStore())
    with pytest.raises(TypeError, match="state"):
        teams.save("t", None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="state"):
        teams.replace("t", "x", {"name": "x"})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="config"):
        teams.record_spawn("t", None, "codex")  # type: ignore[arg-type]
    config = SpawnConfig(name="coder", prompt="p")
    with pytest.raises(TypeError, match="backend_type"):
        teams.record_spawn("t", config, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="backend_type"):
        SessionState.from_config(config, 3)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["p", ["p"], 3])
def test_record_new_project_of_wrong_type_is_type_error(bad):
    with pytest.raises(TypeError, match="`project` must be a dict"):
        OrchestratorStore(store=MemoryStore()).record_new("g", project=bad)
