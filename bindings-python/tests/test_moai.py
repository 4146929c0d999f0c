"""session_state.moai: the seed's behaviour where it is right, SPEC section 2 where it loses data."""

import json
import os
import stat
import logging
import time
from pathlib import Path

import pytest

import session_state.moai as moai
from session_state.errors import InvalidInputError, InvalidKeyError, StorageError
from session_state.moai import SessionManager


def test_default_paths_are_below_the_folder_at_construction(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    m = SessionManager()
    assert m.session_file == tmp_path / ".moai" / "memory" / "agent-sessions.json"
    assert m.transcript_dir == tmp_path / ".moai" / "logs" / "agent-transcripts"
    assert m.transcript_dir.is_dir() and m.session_file.parent.is_dir()
    m.register_agent_result("a", "id-1", {"ok": True})
    assert m.session_file.exists()


def test_custom_session_file_keeps_chains_beside_it(tmp_path):
    m = SessionManager(session_file=tmp_path / "state" / "my.json", transcript_dir=tmp_path / "t")
    m.create_chain("c", ["a"], {"k": 1})
    m.register_agent_result("a", "id-1", 1, "c")
    assert json.loads((tmp_path / "state" / "my.json").read_text())["sessions"] == {"a": "id-1"}
    assert json.loads((tmp_path / "state" / "workflow-chains.json").read_text())["c"]["metadata"] == {"k": 1}


def test_results_survive_a_restart(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    m.register_agent_result("planner", "plan-1", {"steps": [1, 2]}, "SPEC-1")
    again = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    assert again.get_agent_result("plan-1") == {"steps": [1, 2]}
    summary = again.get_chain_summary("SPEC-1")
    assert summary["status"] == "completed" and summary["agents"] == ["planner"]


def test_corrupt_file_is_kept_aside_then_salvaged(tmp_path, caplog):
    f = tmp_path / "agent-sessions.json"
    f.write_text('{"sessions": {"a": "id-1"}, "chains": {', encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="session_state.moai"):
        m = SessionManager(session_file=f, transcript_dir=tmp_path / "t")
    kept = list(tmp_path.glob("agent-sessions.json.corrupt-*"))
    assert len(kept) == 1
    assert kept[0].read_text(encoding="utf-8") == '{"sessions": {"a": "id-1"}, "chains": {'
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "Failed to load sessions" in warnings[0]
    assert kept[0].name in warnings[0] and "salvaged 1 sessions" in warnings[0], warnings
    assert m.get_all_sessions() == {"sessions": {"a": "id-1"}, "chains": [], "total_results": 0}
    m.register_agent_result("b", "id-2", None)
    assert json.loads(f.read_text())["sessions"] == {"a": "id-1", "b": "id-2"}


def test_unreadable_file_with_nothing_complete_starts_empty(tmp_path, caplog):
    f = tmp_path / "agent-sessions.json"
    f.write_bytes(b"[1,2")
    with caplog.at_level(logging.WARNING, logger="session_state.moai"):
        m = SessionManager(session_file=f, transcript_dir=tmp_path / "t")
    assert m.get_all_sessions() == {"sessions": {}, "chains": [], "total_results": 0}
    assert [p.read_bytes() for p in tmp_path.glob("agent-sessions.json.corrupt-*")] == [b"[1,2"]
    assert any("nothing readable" in r.getMessage() for r in caplog.records)


def _three_agents(tmp_path):
    f = tmp_path / "memory" / "agent-sessions.json"
    m = SessionManager(session_file=f, transcript_dir=tmp_path / "t")
    for i in (1, 2, 3):
        m.register_agent_result(f"agent{i}", f"id{i}", {"v": i}, "C")
    return f


# Files that the registry's strict parser refuses: each entry
# that is still whole is kept, as `doctor --fix` and Node's `AgentRegistry.repair()` do.
DAMAGES = [
    ("nan", lambda t: t.replace('"v": 3', '"v": NaN'), 3),
    ("null session", lambda t: t.replace('"agent3": "id3"', '"agent3": null'), 2),
    ("text resume_count", lambda t: t.replace('"resume_count": 0', '"resume_count": "1"', 1), 3),
    ("wrongly typed chains", lambda t: t.replace('"chains": {', '"chains": {"X": 5, ', 1), 3),
]


@pytest.mark.parametrize("damage,sessions", [d[1:] for d in DAMAGES], ids=[d[0] for d in DAMAGES])
def test_construction_salvages_a_file_the_parser_refuses(tmp_path, caplog, damage, sessions):
    f = _three_agents(tmp_path)
    damaged = damage(f.read_text(encoding="utf-8"))
    assert damaged != f.read_text(encoding="utf-8")
    f.write_text(damaged, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="session_state.moai"):
        m = SessionManager(session_file=f, transcript_dir=tmp_path / "t")
    kept = list(f.parent.glob("agent-sessions.json.corrupt-*"))
    assert [p.read_text(encoding="utf-8") for p in kept] == [damaged]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and kept[0].name in warnings[0] and "salvaged" in warnings[0]
    found = m.get_all_sessions()
    assert len(found["sessions"]) == sessions and found["chains"] == ["C"], found
    assert m.get_agent_result("id1") == {"v": 1}
    # What was salvaged is on disk and readable again.
    again = SessionManager(session_file=f, transcript_dir=tmp_path / "t")
    assert again.get_all_sessions() == found


def test_construction_writes_nothing_when_the_file_is_readable(tmp_path):
    f = _three_agents(tmp_path)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in f.parent.iterdir()}
    time.sleep(0.01)
    SessionManager(session_file=f, transcript_dir=tmp_path / "t").get_all_sessions()
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in f.parent.iterdir()}
    assert after == before


def test_logging_calls_of_the_seed(tmp_path, caplog):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    with caplog.at_level(logging.DEBUG, logger="session_state.moai"):
        m.register_agent_result("spec-builder", "spec-abc123456", {}, "C")
        m.get_resume_id("nobody")
        m.get_resume_id("spec-builder", "other")
        m.get_resume_id("spec-builder")
        m.should_resume("spec-builder", "update profiles", "rename files")
        m.should_resume("spec-builder", "abc", "zzzzzzz")
        m.export_transcript("spec-abc123456")
        m.clear_chain("C")
    got = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert got == [
        ("DEBUG", f"Saved sessions to {tmp_path / 's.json'}"),
        ("INFO", "Registered agent result: spec-builder (agentId: spec-abc..., chain: C)"),
        ("DEBUG", "No previous session for nobody"),
        ("DEBUG", "Chain mismatch: spec-builder was in C, requested other"),
        ("INFO", "Resume ID for spec-builder: spec-abc..."),
        ("INFO", "Tasks appear related, resuming spec-builder"),
        ("INFO", "Tasks appear independent, starting new session for spec-builder"),
        ("WARNING", "Transcript not found for agentId: spec-abc123456"),
        ("DEBUG", f"Saved sessions to {tmp_path / 's.json'}"),
        ("INFO", "Cleared chain: C"),
    ]
    assert all(r.name == "session_state.moai" for r in caplog.records)


def test_resume_cap_is_kept_across_re_registration(tmp_path, caplog):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    m.register_agent_result("a", "id-1", None)
    for _ in range(5):
        m.increment_resume_count("id-1")
    m.register_agent_result("a", "id-1", None)  # the seed would reset the count to 0 here
    with caplog.at_level(logging.WARNING, logger="session_state.moai"):
        assert m.should_resume("a", "implement login", "implement signup") is False
    assert "a has been resumed 5 times, starting new session" in caplog.messages


def test_explained_policy_is_an_option(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t",
                       policy="explained")
    m.register_agent_result("a", "id-1", None)
    assert m.should_resume("a", "update profiles", "rename files") is False
    d = m.decide_resume("a", "update profiles", "rename files", policy="compat")
    assert d["resume"] is True and d["reason"] == "related"
    # `cap` and `threshold` as the core's policy options take them in every front end.
    d = m.decide_resume("a", "update profiles", "rename files", policy="compat", cap=0)
    assert d["resume"] is False and d["reason"] == "resume_cap_reached"
    login, registration = "Implement user login endpoint", "Implement user registration endpoint"
    assert m.decide_resume("a", login, registration, threshold=0.1)["resume"] is True
    assert m.decide_resume("a", login, registration, threshold=1)["resume"] is False
    for bad in [{"threshold": 2}, {"threshold": "high"}, {"policy": "compat", "threshold": 0.5}]:
        with pytest.raises(InvalidInputError) as err:
            m.decide_resume("a", login, registration, **bad)
        assert err.value.context["field"] == "threshold", (bad, err.value)
    with pytest.raises(InvalidInputError, match="`cap`"):
        m.decide_resume("a", login, registration, cap=-1)
    with pytest.raises(InvalidInputError, match="`threshold`"):
        m.decide_resume("a", login, registration, threshold=float("nan"))
    with pytest.raises(ValueError):
        SessionManager(session_file=tmp_path / "s.json", policy="nope")


def test_return_types(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    assert m.register_agent_result("a", "id-1", [1]) is None
    assert m.increment_resume_count("unknown") is None
    assert m.get_agent_result("unknown") is None
    assert m.get_chain_results("none") == []
    assert m.get_chain_summary("none") == {"chain_id": "none", "status": "not_found"}
    assert m.clear_agent_session("nobody") is None
    assert m.clear_chain("none") is None
    assert m.create_chain("c", ["a", "b"]) is None
    all_sessions = m.get_all_sessions()
    assert all_sessions == {"sessions": {"a": "id-1"}, "chains": ["c"], "total_results": 1}


def test_transcripts(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    (tmp_path / "t" / "agent-id-1.jsonl").write_text('{"role": "user"}\n{"role": ', encoding="utf-8")
    path = m.export_transcript("id-1")
    assert isinstance(path, Path) and path == tmp_path / "t" / "agent-id-1.jsonl"
    assert m.export_transcript("id-2") is None
    lines = m.read_transcript("id-1")
    assert lines is not None and lines[0] == {"kind": "record", "line": 1, "value": {"role": "user"}}
    assert lines[1]["kind"] == "torn"
    with pytest.raises(InvalidKeyError):
        m.export_transcript("../../etc/passwd")
    with pytest.raises(InvalidKeyError):
        m.register_agent_result("a", "x/../../y", None)


def test_bad_input_is_refused_before_writing(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    m.register_agent_result("a", "id-1", {"n": 1})
    before = (tmp_path / "s.json").read_bytes()
    with pytest.raises(TypeError):
        m.register_agent_result("b", "id-2", None, chain_id=42)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        m.register_agent_result("b", "id-2", {"x": object()})
    assert (tmp_path / "s.json").read_bytes() == before


def test_clear_chain_forgets_names_of_cleared_ids(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    m.register_agent_result("a", "id-1", None, "C")
    m.register_agent_result("b", "id-2", None)
    m.clear_chain("C")
    assert m.get_resume_id("a") is None
    assert m.get_resume_id("b") == "id-2"


def test_create_chain_keeps_members_and_saves(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    m.register_agent_result("a", "id-1", None, "C")
    m.create_chain("C", ["a", "b"])
    assert json.loads((tmp_path / "s.json").read_text())["chains"] == {"C": ["id-1"]}
    assert m.get_chain_status("C")["missing"] == ["b"]


def test_journal_mode_is_seen_at_once_and_folded_on_close(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t", journal=True)
    for i in range(20):
        m.register_agent_result(f"a{i}", f"id-{i}", i, "C")
    other = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    assert other.get_all_sessions()["total_results"] == 20
    m.close()
    assert len(json.loads((tmp_path / "s.json").read_text())["sessions"]) == 20


def test_module_level_functions_share_one_manager(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(moai, "_session_manager_instance", None)
    assert moai.get_session_manager() is moai.get_session_manager()
    moai.register_agent("a", "id-1", {"x": 1}, "C")
    assert moai.get_resume_id("a", "C") == "id-1"
    assert moai.should_resume("a", "implement login", "implement signup") is True
    assert (tmp_path / ".moai" / "memory" / "agent-sessions.json").exists()


def test_journal_is_folded_at_interpreter_exit(tmp_path):
    import subprocess
    import sys

    code = (
        "from session_state.moai import SessionManager\n"
        f"m = SessionManager(session_file={str(tmp_path / 's.json')!r}, "
        f"transcript_dir={str(tmp_path / 't')!r}, journal=True)\n"
        "for i in range(10): m.register_agent_result(f'a{i}', f'id-{i}', i)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert len(json.loads((tmp_path / "s.json").read_text())["sessions"]) == 10


def test_a_chains_file_corrupted_after_construction_is_kept_aside_once_however_often_it_fails(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    memory = tmp_path / ".moai" / "memory"
    memory.mkdir(parents=True)
    from session_state.errors import CorruptStateError
    from session_state.moai import SessionManager

    m = SessionManager()
    (memory / "workflow-chains.json").write_bytes(b"[1,2")
    for attempt in range(3):
        if attempt:
            time.sleep(1.1)  # copies are stamped to the second: make each attempt a new stamp
        with pytest.raises(CorruptStateError):
            m.create_chain("CH", ["x"])
    copies = sorted(p.name for p in memory.glob("workflow-chains.json.corrupt-*"))
    assert len(copies) == 1, copies
    assert (memory / copies[0]).read_bytes() == b"[1,2"
    assert (memory / "workflow-chains.json").read_bytes() == b"[1,2"


def test_a_chain_id_the_seed_wrote_as_a_number_keeps_the_agents_resume_count(tmp_path, caplog):
    # The seed stores `chain_id=7` as given and reads it back; its resume count still caps.
    from session_state.moai import SessionManager

    f = tmp_path / "agent-sessions.json"
    written = {
        "sessions": {"spec-builder": "spec-1"},
        "chains": {"7": ["spec-1"]},
        "metadata": {"spec-1": {"agent_name": "spec-builder", "created_at": "2026-01-01T00:00:00",
                                "chain_id": 7, "resume_count": 5}},
        "last_updated": "2026-01-01T00:00:00",
    }
    f.write_text(json.dumps(written, indent=2), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="session_state.moai"):
        m = SessionManager(session_file=f, transcript_dir=tmp_path / "t")
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == []
    assert json.loads(f.read_text(encoding="utf-8")) == written
    assert m.should_resume("spec-builder", "Implement login endpoint", "Implement login form") is False
    assert m.get_resume_id("spec-builder", "7") is None  # 7 != "7", as in the seed
    assert m.get_resume_id("spec-builder") == "spec-1"
    m.increment_resume_count("spec-1")
    saved = json.loads(f.read_text(encoding="utf-8"))["metadata"]["spec-1"]
    assert (saved["chain_id"], saved["resume_count"]) == (7, 6)
    assert list(tmp_path.glob("agent-sessions.json.corrupt-*")) == []


def test_any_entry_the_seeds_create_chain_wrote_is_read_and_kept(tmp_path, caplog):
    # The seed writes what `create_chain` is given and never reads an entry back: a sequence
    # with a number in it, an entry another tool left as a string, a numeric `created_at`.
    from session_state.moai import SessionManager

    f = tmp_path / "agent-sessions.json"
    chains = tmp_path / "workflow-chains.json"
    written = {
        "spec-1": {"created_at": "2026-01-01T00:00:00", "expected_sequence": ["a", "b"], "metadata": {"p": 1}},
        "legacy": {"created_at": 5, "expected_sequence": ["spec-builder", 2], "metadata": {}},
        "odd": "spec-7",
    }
    chains.write_text(json.dumps(written, indent=2), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="session_state.moai"):
        m = SessionManager(session_file=f, transcript_dir=tmp_path / "t")
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == []
    assert json.loads(chains.read_text(encoding="utf-8")) == written
    assert m.get_chain_status("spec-1")["expected"] == ["a", "b"]
    m.create_chain("spec-2", ["c"])
    after = json.loads(chains.read_text(encoding="utf-8"))
    assert {k: v for k, v in after.items() if k != "spec-2"} == written
    assert after["spec-2"]["expected_sequence"] == ["c"]
    assert list(tmp_path.glob("workflow-chains.json.corrupt-*")) == []


@pytest.mark.parametrize("corrupt", [b"[1,2", b'{"CH": {"expected_sequence": ["a"]', b"\xff\xfe"])
def test_a_corrupt_chains_file_is_kept_aside_then_empty_like_the_sessions_file(
    tmp_path, caplog, corrupt
):
    from session_state.moai import SessionManager

    f = tmp_path / "agent-sessions.json"
    chains = tmp_path / "workflow-chains.json"
    chains.write_bytes(corrupt)
    with caplog.at_level(logging.WARNING, logger="session_state.moai"):
        m = SessionManager(session_file=f, transcript_dir=tmp_path / "t")
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "Failed to load chains" in warnings[0], warnings
    kept = list(tmp_path.glob("workflow-chains.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == corrupt
    assert kept[0].name in warnings[0]
    m.create_chain("CH", ["a", "b"])  # works without a doctor --fix first
    assert json.loads(chains.read_text())["CH"]["expected_sequence"] == ["a", "b"]
    assert m.get_chain_status("CH")["expected"] == ["a", "b"]
    SessionManager(session_file=f, transcript_dir=tmp_path / "t")  # a good file: left alone
    assert len(list(tmp_path.glob("workflow-chains.json.corrupt-*"))) == 1
    assert json.loads(chains.read_text())["CH"]["expected_sequence"] == ["a", "b"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
def test_folders_it_creates_are_private_and_existing_ones_keep_their_mode(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    old = os.umask(0o022)
    try:
        (tmp_path / ".moai").mkdir(mode=0o755)
        os.chmod(tmp_path / ".moai", 0o755)
        SessionManager()
        custom = tmp_path / "a" / "b" / "s.json"
        SessionManager(session_file=custom, transcript_dir=tmp_path / "t1" / "t2")
    finally:
        os.umask(old)

    def mode(path: Path) -> int:
        return stat.S_IMODE(path.stat().st_mode)

    assert mode(tmp_path / ".moai") == 0o755  # existed: left alone
    for created in [
        tmp_path / ".moai" / "memory",
        tmp_path / ".moai" / "logs",
        tmp_path / ".moai" / "logs" / "agent-transcripts",
        tmp_path / "a",
        tmp_path / "a" / "b",
        tmp_path / "t1",
        tmp_path / "t1" / "t2",
    ]:
        assert mode(created) == 0o700, created


@pytest.mark.parametrize(
    "sequence",
    [lambda: (x for x in ["a", "b"]), lambda: map(str, ["a", "b"]), lambda: iter(["a", "b"])],
    ids=["generator", "map", "iter"],
)
def test_create_chain_takes_any_iterable_of_str(tmp_path, sequence):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    m.create_chain("cg", sequence())
    chains = json.loads((tmp_path / "workflow-chains.json").read_text())
    assert chains["cg"]["expected_sequence"] == ["a", "b"]
    assert m.get_chain_status("cg")["missing"] == ["a", "b"]


def test_create_chain_converts_an_iterator_before_writing(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    with pytest.raises(InvalidInputError):
        m.create_chain("cg", (x for x in ["a", 5]))  # type: ignore[misc]
    assert not (tmp_path / "workflow-chains.json").exists()
    assert not (tmp_path / "s.json").exists()


def test_create_chain_takes_a_set_in_any_order(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    m.create_chain("cs", {"a", "b"})  # type: ignore[arg-type]
    chains = json.loads((tmp_path / "workflow-chains.json").read_text())
    assert sorted(chains["cs"]["expected_sequence"]) == ["a", "b"]


@pytest.mark.parametrize("relative", ["../up.json", "deep/../x.json", "./s.json", "s.json"])
def test_relative_session_file_is_resolved_against_the_current_folder(
    tmp_path, monkeypatch, relative
):
    work = tmp_path / "work"
    (work / "deep").mkdir(parents=True)
    monkeypatch.chdir(work)
    m = SessionManager(session_file=relative, transcript_dir="../t/../t2")
    expected = Path(os.path.abspath(relative))
    assert m.session_file == expected and m.transcript_dir == tmp_path / "t2"
    m.register_agent_result("a", "id-1", 1, "C")
    m.create_chain("D", ["a"])
    assert json.loads(expected.read_text())["sessions"] == {"a": "id-1"}
    assert "D" in json.loads((expected.parent / "workflow-chains.json").read_text())
    (tmp_path / "t2" / "agent-id-1.jsonl").write_text("{}\n", encoding="utf-8")
    assert m.export_transcript("id-1") == tmp_path / "t2" / "agent-id-1.jsonl"
    monkeypatch.chdir(tmp_path)  # fixed at construction, as the default paths are
    assert m.get_resume_id("a") == "id-1"


def test_a_transcript_that_is_a_folder_is_a_storage_error(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    (tmp_path / "t" / "agent-id3.jsonl").mkdir()
    for call in (m.read_transcript, m.export_transcript):
        with pytest.raises(StorageError) as info:
            call("id3")
        assert info.value.code == "storage"


def test_a_transcript_symlink_leading_outside_is_refused(tmp_path):
    m = SessionManager(session_file=tmp_path / "s.json", transcript_dir=tmp_path / "t")
    outside = tmp_path / "outside.jsonl"
    outside.write_text('{"secret": 1}\n', encoding="utf-8")
    (tmp_path / "t" / "agent-id2.jsonl").symlink_to(outside)
    for call in (m.read_transcript, m.export_transcript):
        with pytest.raises(StorageError) as info:
            call("id2")
        assert "outside the store root" in str(info.value)
    # A symlink to a transcript inside the folder is read through.
    (tmp_path / "t" / "agent-id1.jsonl").write_text('{"n": 1}\n', encoding="utf-8")
    (tmp_path / "t" / "agent-id4.jsonl").symlink_to(tmp_path / "t" / "agent-id1.jsonl")
    assert m.read_transcript("id4") == [{"kind": "record", "line": 1, "value": {"n": 1}}]
    assert m.export_transcript("id4") == tmp_path / "t" / "agent-id4.jsonl"


def test_a_resume_count_the_seed_reads_as_a_number_is_read_and_counted_as_the_seed_does(tmp_path):
    # Another tool wrote a float count, a negative one and a bool; the seed compares them with 5
    # and adds 1 to them without complaint (`True >= 5`, `True + 1`), so the file is not corrupt.
    f = tmp_path / "agent-sessions.json"
    f.write_text(json.dumps({
        "sessions": {"a": "id1", "b": "id2", "c": "id3", "d": "id4"},
        "chains": {"C": ["id1"]},
        "metadata": {
            "id1": {"agent_name": "a", "chain_id": "C", "resume_count": 2.0},
            "id2": {"agent_name": "b", "resume_count": -1},
            "id3": {"agent_name": "c", "resume_count": 5.0},
            "id4": {"agent_name": "d", "resume_count": True},
        },
    }), encoding="utf-8")
    m = SessionManager(session_file=f, transcript_dir=tmp_path / "t")
    assert list(tmp_path.glob("agent-sessions.json.corrupt-*")) == []
    assert m.get_resume_id("a", "C") == "id1"
    related = ("Implement user login endpoint", "Implement user registration endpoint")
    assert [m.should_resume(name, *related) for name in "abcd"] == [True, True, False, True]
    m.increment_resume_count("id1")
    m.increment_resume_count("id2")
    m.increment_resume_count("id4")
    saved = json.loads(f.read_text(encoding="utf-8"))["metadata"]
    assert (saved["id1"]["resume_count"], saved["id2"]["resume_count"]) == (3.0, 0)
    assert saved["id4"]["resume_count"] == 2
    assert isinstance(saved["id1"]["resume_count"], float)
    assert m._metadata["id1"]["resume_count"] == 3.0
