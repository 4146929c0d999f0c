"""session_state.orchestrator: the skill's functions, the vectors, and OrchestratorStore."""

import copy
import json
import shutil
import threading
from pathlib import Path

import pytest
from conftest import VECTORS

from session_state import FileStore, MemoryStore
from session_state.errors import (
    AlreadyExistsError,
    ConflictError,
    CorruptStateError,
    IncompatibleSchemaError,
    InvalidKeyError,
    InvalidTransitionError,
    NotFoundError,
)
from session_state.orchestrator import (
    OrchestratorStore,
    archive_session,
    json_schema,
    list_history,
    load_session,
    render_resume,
    resume_summary,
    salvage,
    save_session,
)

ORCH = VECTORS / "orchestrator"
NOW = "2025-12-27T12:30:00Z"


def seed_example():
    return json.loads((ORCH / "seed-example.json").read_text(encoding="utf-8"))


def test_resume_summary_and_markdown_of_the_seed_example():
    state = seed_example()
    assert resume_summary(state, NOW) == json.loads((ORCH / "seed-example.resume.json").read_text("utf-8"))
    assert render_resume(state, NOW) == (ORCH / "seed-example.resume.md").read_text("utf-8")
    assert state == seed_example()  # not mutated


def test_salvage_and_schema_vectors():
    torn = (ORCH / "seed-example.torn.json").read_bytes()
    assert salvage(torn) == json.loads((ORCH / "seed-example.torn.salvaged.json").read_text("utf-8"))
    assert json_schema() == json.loads((ORCH / "schema.json").read_text("utf-8"))


@pytest.fixture
def project(tmp_path, monkeypatch):
    shutil.copytree(ORCH / "project", tmp_path / "project")
    monkeypatch.chdir(tmp_path / "project")
    return tmp_path / "project"


def test_skill_functions_on_the_fixture_project(project):
    assert list_history() == json.loads((ORCH / "project.history.json").read_text("utf-8"))
    assert list_history(limit=1) == json.loads((ORCH / "project.history.json").read_text("utf-8"))[:1]
    # The skill's function keeps the seed's slicing with a bool (`[:True]`, `[:False]`); the
    # package's own `OrchestratorStore.list_history` refuses one.
    assert list_history(limit=True) == list_history(limit=1)  # type: ignore[arg-type]
    assert list_history(limit=False) == []  # type: ignore[arg-type]
    state = load_session()
    assert state is not None and state["session_id"] == "2025-12-27-abc123"
    # the values as the file holds them (the naive `updated` the skill wrote)
    assert state["updated"] == "2026-11-29T17:46:13.205134"
    assert OrchestratorStore(project).load()["updated"] == "2026-11-29T17:46:13.205134Z"
    state["pending_tasks"].append("Release")
    path = save_session(state)
    assert path == Path(".claude/orchestrator-session.json") and not path.is_absolute()
    assert state["updated"].endswith("Z") and state["updated"] != "2026-11-29T17:46:13.205134"
    again = load_session()
    assert again == state
    archived = archive_session(state)
    assert archived == Path(".claude/orchestrator-history/2025-12-27-abc123.json")
    assert load_session() is None
    assert [e["id"] for e in list_history()][0] == "2025-12-27-abc123"
    with pytest.raises(AlreadyExistsError):
        archive_session(state)
    state["goal"] = "changed"
    archive_session(state, replace=True)
    assert json.loads(archived.read_text())["goal"] == "changed"


def test_load_session_none_for_absent_or_other_schema_and_error_for_corrupt(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_session() is None
    assert list_history() == []
    assert not (tmp_path / ".claude").exists()
    (tmp_path / ".claude").mkdir()
    current = tmp_path / ".claude" / "orchestrator-session.json"
    current.write_text(json.dumps({"schema_version": "2.0", "anything": 1}))
    assert load_session() is None
    current.write_bytes((ORCH / "seed-example.torn.json").read_bytes())
    with pytest.raises(CorruptStateError) as err:
        load_session()
    assert err.value.code == "corrupt_state"
    assert err.value.salvaged["session_id"] == "2025-12-27-abc123"
    # saving over a corrupt file keeps it aside first
    save_session(seed_example())
    assert len(list((tmp_path / ".claude").glob("orchestrator-session.json.corrupt-*"))) == 1


def test_save_session_refuses_bad_documents(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    state = seed_example()
    state["session_id"] = "../escape"
    with pytest.raises(InvalidKeyError):
        save_session(state)
    bad = seed_example()
    bad["schema_version"] = "0.9"
    with pytest.raises(IncompatibleSchemaError):
        save_session(bad)
    assert not (tmp_path / ".claude" / "orchestrator-session.json").exists()


def test_unknown_fields_round_trip(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    state = seed_example()
    state["x_custom"] = {"deep": [1, {"y": None}]}
    state["agents"][0]["x_agent"] = "kept"
    save_session(state)
    loaded = load_session()
    assert loaded is not None
    assert loaded["x_custom"] == {"deep": [1, {"y": None}]}
    assert loaded["agents"][0]["x_agent"] == "kept"


def test_store_lifecycle_and_auto_save_points():
    store = MemoryStore()
    s = OrchestratorStore(store=store)
    doc = s.record_new("Ship it", project={"name": "p", "path": "/p"}, suffix="abc123")
    assert doc["status"] == "created" and doc["session_id"].endswith("-abc123")
    with pytest.raises(AlreadyExistsError):
        s.record_new("again", project={"name": "p", "path": "/p"})
    with pytest.raises(InvalidTransitionError):
        s.pause()
    s.start()
    s.record_agent_start("code-1", "code", "Write")
    s.record_agent_progress("code-1", 40)
    s.record_decision("Use Rust", "speed")
    s.before_compression()
    summary = s.resume_summary(NOW)
    assert summary is not None and summary["progress_percent"] == 40
    assert summary["resume_from"] == "code-1"
    with pytest.raises(NotFoundError):
        s.record_agent_done("nobody", "x")
    doc = s.record_agent_done("code-1", "done", files=["a.rs"])
    assert doc["agents"][0]["status"] == "complete"
    assert doc["completed_work"][-1] == {"task": "Write", "outcome": "done", "files": ["a.rs"],
                                         "agent": "code-1"}
    s.record_agent_start("test-1", "test", "Check")
    doc = s.record_agent_fail("test-1", "boom")
    assert doc["agents"][1]["status"] == "failed" and doc["errors"][-1]["error"] == "boom"
    s.record_task_add("Write docs")
    doc, task = s.record_task_done(1, "written", ["README.md"])
    assert task == "Write docs" and doc["pending_tasks"] == []
    assert doc["completed_work"][-1]["files"] == ["README.md"]
    doc = s.record_context(25000, 20, compressed=True)
    assert doc["context_usage"]["estimated_tokens"] == 25000
    assert doc["context_usage"]["percentage"] == 20 and doc["context_usage"]["last_compression"]
    assert s.record_save()["session_id"] == doc["session_id"]
    assert s.pause()["status"] == "paused"
    assert s.continue_session()["status"] == "in_progress"
    final = s.complete()
    assert final["status"] == "complete"
    assert s.load() is None
    page = s.list_history()
    assert page["total"] == 1 and page["entries"][0]["id"] == final["session_id"]
    assert s.list_history(status="aborted")["entries"] == []
    assert s.list_history(full_scan=True)["entries"] == page["entries"]
    report = s.doctor()
    assert report["problems"] == [] and report["checked"] >= 1


def test_store_save_sets_only_updated_and_recover_repairs():
    store = MemoryStore()
    s = OrchestratorStore(store=store)
    state = seed_example()
    before = copy.deepcopy(state)
    saved = s.save(state)
    assert saved["updated"] != before["updated"]
    assert state == {**before, "updated": saved["updated"]}
    store.write(".claude/orchestrator-session.json", (ORCH / "seed-example.torn.json").read_bytes())
    with pytest.raises(CorruptStateError):
        s.load()
    repair = s.recover()
    assert repair is not None and repair["kept_copy"].startswith(".claude/orchestrator-session.json.corrupt-")
    loaded = s.load()
    assert loaded is not None and loaded["session_id"] == "2025-12-27-abc123"
    assert s.recover() is None


def test_root_folder_store(tmp_path):
    s = OrchestratorStore(tmp_path)
    s.save(seed_example())
    assert (tmp_path / ".claude" / "orchestrator-session.json").exists()
    assert s.archive(seed_example()) == Path(".claude/orchestrator-history/2025-12-27-abc123.json")


def test_final_moves_are_all_or_nothing_and_replace_overwrites():
    store = MemoryStore()
    sessions = OrchestratorStore(store=store)
    created = sessions.record_new("g", project={"name": "p", "path": "/p"}, suffix="abc123")
    sessions.start()
    archive_key = f".claude/orchestrator-history/{created['session_id']}.json"
    store.write(archive_key, b'{"an": "older archive"}')
    with pytest.raises(AlreadyExistsError):
        sessions.complete()
    with pytest.raises(AlreadyExistsError):
        sessions.abort()
    current = sessions.load()
    assert current is not None and current["status"] == "in_progress"
    done = sessions.complete(replace=True)
    assert done["status"] == "complete"
    assert sessions.load() is None
    assert json.loads(store.read(archive_key) or b"")["status"] == "complete"


@pytest.mark.parametrize("bad", [None, "hello", 3, ["a"]])
def test_a_wrong_argument_is_a_type_error_not_a_corrupt_file(bad, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for call in (save_session, archive_session, resume_summary, render_resume):
        with pytest.raises(TypeError, match="must be a dict"):
            call(bad)
    with pytest.raises(TypeError, match="must be a dict"):
        OrchestratorStore(store=MemoryStore()).save(bad)
    assert not (tmp_path / ".claude").exists()


def test_already_exists_names_the_python_keyword_not_the_cli_flag(tmp_path, monkeypatch):
    store = MemoryStore()
    sessions = OrchestratorStore(store=store)
    created = sessions.record_new("g", project={"name": "p", "path": "/p"}, suffix="abc123")
    sessions.start()
    store.write(f".claude/orchestrator-history/{created['session_id']}.json", b"{}")
    calls = [sessions.complete, sessions.abort, lambda: sessions.archive(created)]
    monkeypatch.chdir(tmp_path)
    archive_session(created, replace=True)
    calls.append(lambda: archive_session(created))
    for call in calls:
        with pytest.raises(AlreadyExistsError) as info:
            call()
        message = str(info.value)
        assert "--replace" not in message and "replace = true" not in message, message
        assert message.endswith(
            "pass `replace=True` to overwrite it: `archive(state, replace=True)` or "
            "`archive_session(state, replace=True)` (also for a session already in a final "
            "status), `complete(replace=True)` or `abort(replace=True)`"
        ), message
        assert info.value.context["key"].startswith(".claude/orchestrator-history/")
    # The advice works: the keyword is accepted.
    assert sessions.complete(replace=True)["status"] == "complete"


@pytest.mark.parametrize("how", ["root", "file_store", "tilde"])
def test_record_new_project_defaults_to_the_stores_folder_not_the_current_one(
    how, tmp_path, monkeypatch
):
    from session_state import FileStore

    project = tmp_path / "x" / "projX"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("HOME", str(tmp_path / "x"))
    if how == "root":
        sessions = OrchestratorStore(project)
    elif how == "file_store":
        sessions = OrchestratorStore(store=FileStore(project))
    else:
        sessions = OrchestratorStore("~/projX")
    doc = sessions.record_new("g")
    assert doc["project"] == {"name": "projX", "path": str(project)}
    assert (project / ".claude" / "orchestrator-session.json").exists()


def test_record_new_project_without_a_folder_is_the_root_argument(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sessions = OrchestratorStore(store=MemoryStore())  # root "." at construction
    monkeypatch.chdir("/")
    assert sessions.record_new("g")["project"] == {
        "name": tmp_path.name,
        "path": str(tmp_path),
    }


# A FileStore's save commits on a second thread while the saved dict is built: the same
# refusal and the same copy of a torn file come back from there.
@pytest.mark.parametrize("kind", ["memory", "file"])
def test_store_save_refuses_a_document_read_before_a_later_save(kind, tmp_path):
    store = MemoryStore() if kind == "memory" else FileStore(tmp_path)
    a, b = OrchestratorStore(store=store), OrchestratorStore(store=store)
    a.record_new("g", project={"name": "p", "path": "/p"})
    snapshot = a.load()
    b.save({**snapshot, "goal": "later"})
    before = store.read(".claude/orchestrator-session.json")
    with pytest.raises(ConflictError, match="later save"):
        a.save({**snapshot, "goal": "new"})
    assert store.read(".claude/orchestrator-session.json") == before
    saved = a.save({**a.load(), "goal": "new"})
    assert saved == json.loads(store.read(".claude/orchestrator-session.json"))


@pytest.mark.parametrize("kind", ["memory", "file"])
def test_one_handle_refuses_a_document_read_before_its_own_later_save(kind, tmp_path):
    s = OrchestratorStore(store=MemoryStore() if kind == "memory" else FileStore(tmp_path))
    s.record_new("g", project={"name": "p", "path": "/p"})
    first, second = s.load(), s.load()
    first["goal"] = "first"
    s.save(first)
    second["goal"] = "second"
    with pytest.raises(ConflictError, match="later save"):
        s.save(second)
    # The document saved goes on: `save` set its `updated`.
    first["pending_tasks"].append("next")
    s.save(first)
    assert (s.load()["goal"], s.load()["pending_tasks"]) == ("first", ["next"])


def test_save_sets_updated_on_a_dict_subclass_that_refuses_item_assignment():
    class Frozen(dict):
        def __setitem__(self, key, value):
            raise TypeError("frozen")

    s = OrchestratorStore(store=MemoryStore())
    s.record_new("g", project={"name": "p", "path": "/p"})
    doc = Frozen(s.load())
    saved = s.save(doc)
    assert doc["updated"] == saved["updated"] == s.load()["updated"]


@pytest.mark.parametrize("kind", ["memory", "file"])
def test_threads_sharing_one_handle_lose_no_save(kind, tmp_path):
    s = OrchestratorStore(store=MemoryStore() if kind == "memory" else FileStore(tmp_path))
    s.record_new("g", project={"name": "p", "path": "/p"})

    def work(t):
        for i in range(25):
            while True:  # load, change, save; load again after a conflict
                doc = s.load()
                doc["pending_tasks"].append(f"{t}-{i}")
                try:
                    s.save(doc)
                    break
                except ConflictError:
                    pass

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(s.load()["pending_tasks"]) == sorted(f"{t}-{i}" for t in range(4) for i in range(25))


def test_file_store_save_over_a_torn_file_keeps_a_copy_and_returns_what_it_wrote(tmp_path):
    s = OrchestratorStore(store=FileStore(tmp_path))
    torn = (ORCH / "seed-example.torn.json").read_bytes()
    folder = tmp_path / ".claude"
    folder.mkdir()
    (folder / "orchestrator-session.json").write_bytes(torn)
    saved = s.save(seed_example())
    assert saved == json.loads((folder / "orchestrator-session.json").read_text(encoding="utf-8"))
    assert saved == s.load()
    copies = [p for p in folder.iterdir() if ".corrupt-" in p.name]
    assert [p.read_bytes() for p in copies] == [torn]
