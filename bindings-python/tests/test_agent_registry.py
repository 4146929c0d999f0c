"""``session_state.AgentRegistry``: the registry over any store, under the core's names."""

import pytest

import session_state
from session_state import AgentRegistry, InvalidInputError, MemoryStore, registry

SESSIONS = ".moai/memory/agent-sessions.json"


def test_agent_registry_is_exported_and_uses_the_core_keys():
    assert session_state.AgentRegistry is registry.AgentRegistry
    assert AgentRegistry is session_state._native.AgentRegistry
    store = MemoryStore()
    reg = AgentRegistry(store)
    reg.register("spec-builder", "id-1", {"ok": True})
    assert SESSIONS in store.list(".moai")
    assert reg.resume_id("spec-builder") == "id-1"
    assert reg.should_resume("spec-builder", "build the parser spec", "write the parser spec") is True
    assert reg.should_resume("spec-builder", "unrelated work", "write the parser spec") is False
    assert reg.should_resume("nobody", "parser", "parser") is False
    assert reg.repair() == []


def test_should_resume_names_a_wrong_argument():
    with pytest.raises(InvalidInputError) as info:
        AgentRegistry(MemoryStore()).should_resume("a", 5)
    assert info.value.context["argument"] == "current_task"


def test_repair_keeps_a_copy_of_a_corrupt_sessions_file():
    store = MemoryStore()
    store.write(SESSIONS, b"{not json")
    repairs = AgentRegistry(store).repair()
    assert [r["key"] for r in repairs] == [SESSIONS]
    assert store.read(repairs[0]["kept_copy"]) == b"{not json"
