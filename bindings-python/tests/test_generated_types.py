"""The generated TypedDicts (session_state._types) describe what the native module returns.

Each result below is checked against its TypedDict: every required key present, no key the
type does not declare (unless the schema keeps unknown fields), and every value of the declared
type, at every depth.
"""

import json
import typing

from conftest import REPO, VECTORS

from session_state import AgentRegistry, MemoryStore, _native, _types

ORCH = VECTORS / "orchestrator"
SCHEMA = json.loads((REPO / "bindings-shared" / "types.schema.json").read_text("utf-8"))["$defs"]
NOW = "2025-12-27T12:30:00Z"


def keeps_unknown_fields(name):
    return SCHEMA.get(name, {}).get("additionalProperties") is True


def problems(value, tp, path="$"):
    """Where `value` does not have the type `tp` (empty when it does)."""
    if isinstance(tp, typing.ForwardRef) or isinstance(tp, str):
        name = tp.__forward_arg__ if isinstance(tp, typing.ForwardRef) else tp
        return problems(value, getattr(_types, name), path)
    if tp is typing.Any:
        return []
    if tp is type(None):
        return [] if value is None else [f"{path}: {value!r} is not None"]
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union:
        options = [problems(value, arg, path) for arg in args]
        return [] if any(not found for found in options) else min(options, key=len)
    if origin is typing.Literal:
        return [] if value in args else [f"{path}: {value!r} is not one of {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {value!r} is not a list"]
        return [p for i, item in enumerate(value) for p in problems(item, args[0], f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not a dict"]
        return [p for k, v in value.items() for p in problems(v, args[1], f"{path}.{k}")]
    if isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__"):
        return typed_dict_problems(value, tp, path)
    if tp is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, tp)
    return [] if ok else [f"{path}: {value!r} is not {tp.__name__}"]


def typed_dict_problems(value, tp, path):
    if not isinstance(value, dict):
        return [f"{path}: {value!r} is not a {tp.__name__}"]
    hints = typing.get_type_hints(tp, vars(_types))
    found = [f"{path}.{k}: missing" for k in sorted(tp.__required_keys__ - value.keys())]
    if not keeps_unknown_fields(tp.__name__):
        found += [f"{path}.{k}: not in {tp.__name__}" for k in sorted(value.keys() - hints.keys())]
    for key, item in value.items():
        if key in hints:
            found += problems(item, hints[key], f"{path}.{key}")
    return found


def check(value, name):
    assert problems(value, getattr(_types, name)) == [], name


def test_the_checker_rejects_a_wrong_shape():
    summary = _native.resume_summary(json.loads((ORCH / "seed-example.json").read_text("utf-8")), NOW)
    assert problems({**summary, "status": "abandoned"}, _types.ResumeSummary)
    assert problems({**summary, "extra": 1}, _types.ResumeSummary)
    assert problems({k: v for k, v in summary.items() if k != "goal"}, _types.ResumeSummary)
    assert problems({**summary, "in_progress": [{"id": "a", "task": "t"}]}, _types.ResumeSummary)


def test_orchestrator_results():
    doc = json.loads((ORCH / "seed-example.json").read_text("utf-8"))
    check(doc, "OrchestratorSession")
    check(_native.resume_summary(doc, NOW), "ResumeSummary")
    check(_native.salvage((ORCH / "seed-example.torn.json").read_bytes()), "Salvaged")

    store = MemoryStore()
    orch = _native.Orchestrator(store)
    created = orch.record_new({"goal": "ship it"}, {"name": "p", "path": "/p"}, "abc123")
    check(created, "OrchestratorSession")
    check(orch.record_agent_start({"id": "a-1", "type": "code", "task": "write"}), "OrchestratorSession")
    check(orch.record_agent_progress({"id": "a-1", "percent": 40}), "OrchestratorSession")
    check(orch.record_agent_done({"id": "a-1", "summary": "done"}), "OrchestratorSession")
    check(orch.record_decision({"decision": "use rust", "why": "speed"}), "OrchestratorSession")
    check(orch.record_task_add({"task": "docs"}), "OrchestratorSession")
    check(orch.record_task_done({"task": 1, "outcome": "ok"})[0], "OrchestratorSession")
    check(orch.record_context({"tokens": 10}), "OrchestratorSession")
    check(orch.record_save(), "OrchestratorSession")
    orch.archive(orch.load())
    store.write(".claude/orchestrator-history/broken.json", b'{"schema_version": "1.0", "go')
    check(orch.list_history(), "HistoryPage")
    assert orch.list_history()["skipped"]
    check(orch.doctor(), "DoctorReport")
    check(orch.recover(".claude/orchestrator-history/broken.json"), "Repair")
    check(orch.doctor(True), "DoctorReport")


def test_registry_results():
    reg = AgentRegistry(MemoryStore(), "s.json", "c.json", "j.jsonl")
    reg.create_chain("ch", ["plan", "code"], {"why": "test"})
    reg.register("plan", "id-1", {"ok": True, "n": [1, 2.5]}, "ch")
    reg.register("code", "id-2", None, "ch")
    reg.increment_resume_count("id-1")
    check(reg.load(), "SessionsDocument")
    for definition in reg.load_chains().values():
        check(definition, "ChainDefinition")
    for result in reg.chain_results("ch"):
        check(result, "AgentResult")
    check(reg.chain_summary("ch"), "ChainSummary")
    check(reg.chain_summary("none"), "ChainSummary")
    check(reg.chain_status("ch"), "ChainStatus")
    check(reg.all_sessions(), "AllSessions")
    for entry in reg.agents():
        check(entry, "AgentEntry")
    check(reg.agent("plan"), "AgentEntry")
    for policy in ("compat", "explained"):
        check(reg.decide_resume("plan", "write the plan", "plan the work", policy), "ResumeDecision")
    lines = _native.parse_transcript(b'{"a": 1}\nnot json\n{"torn')
    assert [line["kind"] for line in lines] == ["record", "invalid", "torn"]
    for line in lines:
        check(line, "TranscriptLine")
    broken = MemoryStore()
    broken.write("s.json", b"{not json")
    broken.write("c.json", b"[")
    repairs = AgentRegistry(broken, "s.json", "c.json", "j.jsonl").repair()
    assert [r["key"] for r in repairs] == ["s.json", "c.json"]
    for repair in repairs:
        check(repair, "RegistryRepair")


def test_team_results():
    teams = _native.TeamStore(MemoryStore())
    config = {
        "name": "coder",
        "prompt": "p",
        "model": "m",
        "env": {"A": "1"},
        "memoryConfig": {"max_turns": 3, "budget_chars": 100},
        "delegations": [{"tool": {"custom": {"name": "x", "binary": "x"}}, "description": "d"}],
    }
    check(config, "SpawnConfig")
    state = teams.record_spawn("t", config, "codex")
    check(state, "SessionState")
    check(_native.team_to_spawn_config(state), "SpawnConfig")
    teams.save("t", {**state, "name": "other", "backendType": "unknown-cli"})
    check(teams.list("t"), "TeamListing")
    for summary in teams.list_teams():
        check(summary, "TeamSummary")
    plan = teams.resume_plan("t")
    assert {m["action"] for m in plan["members"]} == {"respawn", "skip"}
    check(plan, "ResumePlan")


def test_conformance_report():
    check(_native.run_store_conformance(MemoryStore()), "ConformanceReport")


def test_every_error_code_is_in_the_generated_union():
    assert list(typing.get_args(_types.ErrorCode)) == list(_native.ERROR_CODES)

