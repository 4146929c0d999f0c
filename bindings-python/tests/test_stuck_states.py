"""Files the package refuses have a way out: ``recover()`` repairs what Python's ``json`` wrote
(nesting 127 levels, an unsafe ``session_id``), ``max_document_bytes`` reads a larger session,
and a salvaged document's lost values read as unknown (None)."""

import json
import sys

import pytest
from conftest import VECTORS

from session_state import MemoryStore
from session_state.errors import CorruptStateError, InvalidInputError, InvalidKeyError
from session_state.orchestrator import OrchestratorStore, resume_summary

CURRENT = ".claude/orchestrator-session.json"


def seed_example():
    return json.loads((VECTORS / "orchestrator" / "seed-example.json").read_text(encoding="utf-8"))


def nested(levels):
    value = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_a_field_nested_127_levels_as_pythons_json_writes_it_is_recovered(tmp_path):
    doc = seed_example()
    doc["x_deep"] = nested(127)
    doc["x_after"] = 1
    (tmp_path / ".claude").mkdir()
    text = json.dumps(doc, indent=2)
    (tmp_path / CURRENT).write_text(text, encoding="utf-8")
    store = OrchestratorStore(tmp_path)
    with pytest.raises(CorruptStateError):
        store.load()
    repair = store.recover()
    assert repair is not None and repair["action"] == "rewritten"
    assert (tmp_path / repair["kept_copy"]).read_text(encoding="utf-8") == text
    loaded = store.load()
    assert loaded is not None
    assert loaded["agents"] == doc["agents"] and loaded["x_after"] == 1
    assert store.pause()["status"] == "paused"


def test_recover_gives_an_unsafe_session_id_a_safe_one_and_keeps_the_old():
    doc = seed_example()
    doc["session_id"] = "../escape"
    mem = MemoryStore()
    mem.write(CURRENT, json.dumps(doc).encode())
    store = OrchestratorStore(store=mem)
    with pytest.raises(InvalidKeyError):
        store.load()
    repair = store.recover()
    assert repair is not None and "session_id" in repair["replaced"]
    loaded = store.load()
    assert loaded is not None
    assert loaded["session_id"] == "..-escape"
    assert loaded["original_session_id"] == "../escape"


def test_max_document_bytes_reads_a_larger_session():
    doc = seed_example()
    doc["notes"] = "n" * 5000
    mem = MemoryStore()
    mem.write(CURRENT, json.dumps(doc).encode())
    with pytest.raises(InvalidInputError, match="more than the limit of 4096 bytes"):
        OrchestratorStore(store=mem, max_document_bytes=4096).load()
    loaded = OrchestratorStore(store=mem, max_document_bytes=8192).load()
    assert loaded is not None and loaded["notes"] == doc["notes"]
    big = OrchestratorStore(store=mem, max_document_bytes=sys.maxsize * 4).load()
    assert big is not None
    with pytest.raises(InvalidInputError, match="max_document_bytes"):
        OrchestratorStore(store=mem, max_document_bytes=-1)
    with pytest.raises(InvalidInputError, match="max_document_bytes"):
        OrchestratorStore(store=mem, max_document_bytes="16MiB")  # type: ignore[arg-type]


def test_a_summary_says_none_for_a_lost_goal_and_start():
    doc = seed_example()
    doc["goal"] = ""
    doc["created"] = doc["updated"] = "1970-01-01T00:00:00Z"
    summary = resume_summary(doc, now="2026-12-01T00:00:00Z")
    assert summary["goal"] is None
    assert summary["started"] is None and summary["started_relative"] is None
    assert summary["session_id"] == doc["session_id"]
