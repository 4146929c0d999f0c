"""tests/vectors/partial: documents lacking keys their readers treat as optional load, and a
rewrite keeps every entry as it was (see the vectors' README)."""

import json

import pytest
from conftest import VECTORS

from session_state import MemoryStore
from session_state.moai import SessionManager
from session_state.orchestrator import OrchestratorStore
from session_state.teams import TeamStore

ALL = json.loads((VECTORS / "partial" / "cases.json").read_text(encoding="utf-8"))

MISSING = object()


def at(doc, pointer):
    """The value at a JSON pointer (no escapes in these vectors), or MISSING."""
    for part in pointer.split("/")[1:]:
        if isinstance(doc, list):
            doc = doc[int(part)] if int(part) < len(doc) else MISSING
        elif isinstance(doc, dict):
            doc = doc.get(part, MISSING)
        else:
            return MISSING
        if doc is MISSING:
            return MISSING
    return doc


def rewritten(tmp_path, case):
    """Writes the case's document, loads it and rewrites it through its target: the file after."""
    target, document = case["target"], case["document"]
    text = json.dumps(document, indent=2).encode()
    if target in ("registry", "chains"):
        memory = tmp_path / ".moai" / "memory"
        memory.mkdir(parents=True)
        file = memory / ("agent-sessions.json" if target == "registry" else "workflow-chains.json")
        file.write_bytes(text)
        manager = SessionManager(session_file=memory / "agent-sessions.json", transcript_dir=tmp_path / "t")
        if target == "registry":
            manager.register_agent_result("probe", "probe-1", {"ok": True})
        else:
            manager.create_chain("probe", ["a"])
        return json.loads(file.read_text(encoding="utf-8"))
    store = MemoryStore()
    key = ALL["targets"][target]["key"]
    store.write(key, text)
    if target == "orchestrator":
        sessions = OrchestratorStore(store=store)
        sessions.save(sessions.load())
    else:
        teams = TeamStore(store=store)
        teams.save("t", teams.load("t", "a"))
    return json.loads(store.read(key))


@pytest.mark.parametrize("case", ALL["cases"], ids=lambda c: c["name"])
def test_a_partial_document_loads_and_keeps_every_entry(tmp_path, case):
    after = rewritten(tmp_path, case)
    for pointer in case["kept"]:
        assert at(after, pointer) == at(case["document"], pointer), pointer
    for pointer in case["absent"]:
        assert at(after, pointer) is MISSING, f"{pointer} was added"


def test_the_drop_in_offers_a_partial_entry_as_the_file_has_it(tmp_path):
    """The issue's reproduction: the entry is kept, in the file and in ``_metadata``."""
    case = next(c for c in ALL["cases"] if c["name"] == "metadata_without_agent_name")
    file = tmp_path / "agent-sessions.json"
    file.write_text(json.dumps(case["document"]), encoding="utf-8")
    manager = SessionManager(session_file=file, transcript_dir=tmp_path / "t")
    assert json.loads(file.read_text(encoding="utf-8"))["metadata"] == {"s1": {"note": "x"}}
    assert manager._metadata == {"s1": {"note": "x"}}
    assert list(tmp_path.glob("*.corrupt-*")) == []
    assert manager.get_resume_id("agent_1") == "s1"
    assert manager.get_resume_id("agent_1", chain_id="c") is None
