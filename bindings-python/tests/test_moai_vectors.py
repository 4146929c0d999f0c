"""session_state.moai against the oracle-made registry vectors (tests/vectors/registry)."""

import importlib.util
import json
import logging

import pytest
from conftest import VECTORS, mask

from session_state import AgentRegistry, MemoryStore
from session_state.moai import SessionManager

REGISTRY = VECTORS / "registry"


def manager(tmp_path):
    return SessionManager(
        session_file=tmp_path / ".moai" / "memory" / "agent-sessions.json",
        transcript_dir=tmp_path / ".moai" / "logs" / "agent-transcripts",
    )


def seed_demo():
    """The scenario `generate.py` ran on the oracle to make `demo.json` (data-side module)."""
    path = REGISTRY / "seed_demo.py"
    spec = importlib.util.spec_from_file_location("seed_demo", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def memory_registry():
    return AgentRegistry(
        MemoryStore(), "agent-sessions.json", "workflow-chains.json", "agent-sessions.journal.jsonl"
    )


def test_should_resume_matches_every_oracle_case():
    cases = json.loads((REGISTRY / "should_resume.json").read_text(encoding="utf-8"))
    assert len(cases) >= 2000
    wrong = []
    for case in cases:
        reg = memory_registry()
        if case["known"]:
            reg.register(case["agent_name"], "id-1", None)
            for _ in range(case["resume_count"]):
                reg.increment_resume_count("id-1")
        got = reg.decide_resume(case["agent_name"], case["current_task"], case["previous_task"])
        said = reg.should_resume(case["agent_name"], case["current_task"], case["previous_task"])
        if got["resume"] != case["resume"] or said is not case["resume"]:
            wrong.append(case)
    assert wrong == []


def test_should_resume_through_the_manager(tmp_path):
    cases = json.loads((REGISTRY / "should_resume.json").read_text(encoding="utf-8"))
    m = manager(tmp_path)
    m.register_agent_result("known", "id-known", None)
    checked = 0
    for case in cases:
        if case["known"] and case["resume_count"] == 0:
            assert m.should_resume("known", case["current_task"], case["previous_task"]) is case["resume"]
            checked += 1
        elif not case["known"]:
            assert m.should_resume("nobody", case["current_task"], case["previous_task"]) is False
    assert checked > 100


def test_seed_demo_gives_the_oracle_outputs_and_files(tmp_path):
    demo = json.loads((REGISTRY / "demo.json").read_text(encoding="utf-8"))
    out = seed_demo().run(manager(tmp_path))
    expected = {k: v for k, v in demo["outputs"].items() if k != "results"}
    assert mask(out) == mask(expected)

    mem = tmp_path / ".moai" / "memory"
    ours = json.loads((mem / "agent-sessions.json").read_text(encoding="utf-8"))
    theirs = json.loads(demo["sessions_text"])
    results = ours.pop("results")
    assert mask(ours) == mask(theirs)
    assert mask(results) == mask(demo["outputs"]["results"])
    chains = json.loads((mem / "workflow-chains.json").read_text(encoding="utf-8"))
    assert mask(chains) == mask(json.loads(demo["chains_text"]))


def test_seed_demo_files_load_unchanged(tmp_path, caplog):
    demo = json.loads((REGISTRY / "demo.json").read_text(encoding="utf-8"))
    mem = tmp_path / ".moai" / "memory"
    mem.mkdir(parents=True)
    (mem / "agent-sessions.json").write_text(demo["sessions_text"], encoding="utf-8")
    (mem / "workflow-chains.json").write_text(demo["chains_text"], encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="session_state.moai"):
        m = manager(tmp_path)
    assert f"Loaded 6 sessions from {mem / 'agent-sessions.json'}" in caplog.messages
    assert m.get_all_sessions()["sessions"] == json.loads(demo["sessions_text"])["sessions"]
    # The seed keeps results in memory only: a file it wrote has none.
    assert m.get_chain_summary("SPEC-AUTH-001-review") == {
        "chain_id": "SPEC-AUTH-001-review", "status": "not_found"}
    assert m.get_chain_status("SPEC-AUTH-001-review")["missing"] == [
        "backend-expert", "security-expert", "frontend-expert"]


@pytest.mark.parametrize("index", range(0, 150, 1))
def test_random_operation_sequences(tmp_path, index):
    seq = json.loads((REGISTRY / "random_ops.json").read_text(encoding="utf-8"))[index]
    m = manager(tmp_path)
    for op in seq["ops"]:
        kind = op["op"]
        if kind == "register":
            m.register_agent_result(op["agent_name"], op["agent_id"], op["result"], op["chain_id"])
        elif kind == "increment":
            m.increment_resume_count(op["agent_id"])
        elif kind == "clear_agent":
            m.clear_agent_session(op["agent_name"])
        elif kind == "clear_chain":
            m.clear_chain(op["chain_id"])
        elif kind == "create_chain":
            m.create_chain(op["chain_id"], op["agent_sequence"], op["metadata"])
        else:
            got = {
                "resume_id": lambda: m.get_resume_id(op["agent_name"], op["chain_id"]),
                "should_resume": lambda: m.should_resume(
                    op["agent_name"], op["current_task"], op["previous_task"]),
                "agent_result": lambda: m.get_agent_result(op["agent_id"]),
                "results": lambda: m.get_chain_results(op["chain_id"]),
                "summary": lambda: m.get_chain_summary(op["chain_id"]),
                "all": lambda: m.get_all_sessions(),
            }[kind]()
            assert mask(got) == mask(op["answer"]), op
    file = json.loads((tmp_path / ".moai" / "memory" / "agent-sessions.json").read_text("utf-8")) \
        if (tmp_path / ".moai" / "memory" / "agent-sessions.json").exists() else {}
    for key in ("sessions", "chains", "metadata"):
        assert mask(file.get(key, {})) == mask(seq["state"][key]), key
    assert mask(file.get("results", {})) == mask(seq["state"]["results"])
    chains_file = tmp_path / ".moai" / "memory" / "workflow-chains.json"
    chains = json.loads(chains_file.read_text("utf-8")) if chains_file.exists() else {}
    assert mask(chains) == mask(seq["state"]["workflow_chains"])
