"""An argument of the wrong type is an ``InvalidInputError`` (code ``invalid_input``, also a
``TypeError`` and a ``ValueError``) naming the argument in ``.context["argument"]``: never a
bare ``TypeError``/``ValueError`` without ``.code``, whether the check is in Python or in the
native half (where pyo3 would raise its own ``TypeError``). A host store's own exception
still reaches the caller unchanged."""

import pytest

from session_state import FileStore, InvalidInputError, MemoryStore, SessionStateError
from session_state import orchestrator
from session_state.moai import SessionManager
from session_state.orchestrator import OrchestratorStore
from session_state.teams import BackendType, MemoryConfig, SessionState, SpawnConfig, TeamStore

NOW = "2026-03-01T12:34:56Z"


def orch():
    store = OrchestratorStore(store=MemoryStore())
    store.record_new("g", project={"name": "p", "path": "/p"}, suffix="abc123")
    store.start()
    store.record_agent_start("a", "t", "x")
    return store


def teams():
    store = TeamStore(store=MemoryStore())
    store.save("t", SessionState.from_config(SpawnConfig(name="coder", prompt="p"), BackendType.CODEX, now=NOW))
    return store


def manager(tmp_path, **kwargs):
    return SessionManager(
        session_file=tmp_path / "m" / "agent-sessions.json",
        transcript_dir=tmp_path / "t",
        **kwargs,
    )


# (description, call, argument named)
CALLS = [
    # documents, configs, options and bytes of the wrong type
    ("save_session([1])", lambda p: orchestrator.save_session([1]), "state"),
    ("TeamStore.update(.., [1])", lambda p: teams().update("t", "coder", [1]), "changes"),
    ("record_spawn(dict config)", lambda p: teams().record_spawn("t", {"name": "c"}, "codex"), "config"),
    ("SessionManager(policy='bogus')", lambda p: manager(p, policy="bogus"), "policy"),
    ("SessionManager(policy=5)", lambda p: manager(p, policy=5), "policy"),
    ("MemoryStore().write('k', 'x')", lambda p: MemoryStore().write("k", "x"), "data"),
    # Python-side checks
    ("list_history('3')", lambda p: orchestrator.list_history("3"), "limit"),
    ("archive_session(None)", lambda p: orchestrator.archive_session(None), "state"),
    ("render_resume('x')", lambda p: orchestrator.render_resume("x"), "state"),
    ("record_new(project=[])", lambda p: OrchestratorStore(store=MemoryStore()).record_new("g", project=[]), "project"),
    ("record_agent_start(task=5)", lambda p: orch().record_agent_start("a", "t", 5), "task"),
    ("SessionState.from_config(dict)", lambda p: SessionState.from_config({}, "codex"), "config"),
    ("from_config(backend 5)", lambda p: SessionState.from_config(SpawnConfig(name="c", prompt="p"), 5), "backend_type"),
    ("TeamStore.save(dict)", lambda p: teams().save("t", {}), "state"),
    ("register(chain_id=7)", lambda p: manager(p).register_agent_result("a", "id", 1, 7), "chain_id"),
    ("SessionState.from_dict(5)", lambda p: SessionState.from_dict(5), "data"),
    ("SpawnConfig.from_dict([])", lambda p: SpawnConfig.from_dict([]), "data"),
    ("SpawnConfig.from_dict({})", lambda p: SpawnConfig.from_dict({}), "name"),
    ("MemoryConfig.from_dict({})", lambda p: MemoryConfig.from_dict({}), "max_turns"),
    ("OrchestratorStore(5)", lambda p: OrchestratorStore(5), "root"),
    ("TeamStore(root=b'x')", lambda p: TeamStore(root=b"x"), "root"),
    ("SessionManager(session_file=5)", lambda p: SessionManager(session_file=5), "session_file"),
    ("SessionManager(.., transcript_dir=[1])", lambda p: SessionManager(p / "s.json", [1]), "transcript_dir"),
    # the native half (pyo3 argument extraction before)
    ("MemoryStore().read(1)", lambda p: MemoryStore().read(1), "key"),
    ("MemoryStore().write(1, b'')", lambda p: MemoryStore().write(1, b""), "key"),
    ("MemoryStore().list(None)", lambda p: MemoryStore().list(None), "prefix"),
    ("MemoryStore().delete(b'k')", lambda p: MemoryStore().delete(b"k"), "key"),
    ("FileStore(5)", lambda p: FileStore(5), "root"),
    ("FileStore(durable=1)", lambda p: FileStore(p, durable=1), "durable"),
    ("FileStore.write(.., bytearray)", lambda p: FileStore(p).write("k", bytearray(b"x")), "data"),
    ("OrchestratorStore(store=object())", lambda p: OrchestratorStore(store=object()), "store"),
    ("OrchestratorStore.record_agent_done(5, ..)", lambda p: orch().record_agent_done(5, "done"), "id"),
    ("OrchestratorStore.record_agent_fail(.., None)", lambda p: orch().record_agent_fail("a", None), "error"),
    ("OrchestratorStore.record_decision(1, 2)", lambda p: orch().record_decision(1, 2), "decision"),
    ("OrchestratorStore.record_agent_progress(.., '5')", lambda p: orch().record_agent_progress("a", "5"), "percent"),
    ("OrchestratorStore.complete(replace=1)", lambda p: orch().complete(replace=1), "replace"),
    ("OrchestratorStore.abort(replace='yes')", lambda p: orch().abort(replace="yes"), "replace"),
    ("OrchestratorStore.move_to(3)", lambda p: orch().move_to(3), "status"),
    ("OrchestratorStore.list_history(status=5)", lambda p: orch().list_history(status=5), "status"),
    ("OrchestratorStore.doctor(fix='no')", lambda p: orch().doctor(fix="no"), "fix"),
    ("OrchestratorStore.recover(key=5)", lambda p: orch().recover(5), "key"),
    ("record_new(goal=1)", lambda p: OrchestratorStore(store=MemoryStore()).record_new(1, project={"name": "p", "path": "/p"}), "goal"),
    ("resume_summary(now=5)", lambda p: orchestrator.resume_summary(orch().load(), now=5), "now"),
    ("salvage('text')", lambda p: orchestrator.salvage("text"), "data"),
    ("TeamStore.load(1, ..)", lambda p: teams().load(1, "coder"), "team"),
    ("TeamStore.delete(.., None)", lambda p: teams().delete("t", None), "agent"),
    ("TeamStore.update(team=None)", lambda p: teams().update(None, "coder", {}), "team"),
    ("SessionState.from_json(str)", lambda p: SessionState.from_json("{}"), "data"),
    ("SessionManager(journal=1)", lambda p: manager(p, journal=1), "journal"),
    ("create_chain('c', 5)", lambda p: manager(p).create_chain("c", 5), "agent_sequence"),
    # Iterable, but `list()` would store letters or keys (12 one-letter agents).
    ("create_chain('c', 'spec-builder')", lambda p: manager(p).create_chain("c", "spec-builder"), "agent_sequence"),
    ("create_chain('c', b'ab')", lambda p: manager(p).create_chain("c", b"ab"), "agent_sequence"),
    ("create_chain('c', {'a': 1})", lambda p: manager(p).create_chain("c", {"a": 1}), "agent_sequence"),
    ("create_chain('c', [5])", lambda p: manager(p).create_chain("c", [5]), "agent_sequence[0]"),
    ("decide_resume(policy=5)", lambda p: manager(p).decide_resume("a", "x", "y", policy=5), "policy"),
    # A bool is an int in Python, but not a number the caller meant (Node refuses it too).
    ("record_agent_progress(.., True)", lambda p: orch().record_agent_progress("a", True), "percent"),
    ("record_agent_progress(.., False)", lambda p: orch().record_agent_progress("a", False), "percent"),
    ("list_history(limit=True)", lambda p: orch().list_history(limit=True), "limit"),
    ("list_history(offset=False)", lambda p: orch().list_history(offset=False), "offset"),
    ("OrchestratorStore(naive_offset_minutes=True)", lambda p: OrchestratorStore(store=MemoryStore(), naive_offset_minutes=True), "naive_offset_minutes"),
]


@pytest.mark.parametrize("call,argument", [c[1:] for c in CALLS], ids=[c[0] for c in CALLS])
def test_a_wrong_argument_type_is_invalid_input(tmp_path, call, argument):
    with pytest.raises(SessionStateError) as info:
        call(tmp_path)
    assert type(info.value) is InvalidInputError, repr(info.value)
    assert info.value.code == "invalid_input"
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
    assert info.value.context.get("argument", info.value.context.get("field")) == argument, (
        info.value.context,
        str(info.value),
    )
    assert f"`{argument}`" in str(info.value), str(info.value)


def test_code_that_catches_type_error_still_catches_it():
    with pytest.raises(TypeError):
        orchestrator.save_session([1])
    with pytest.raises(TypeError):
        MemoryStore().write("k", "x")


def test_a_host_stores_own_type_error_is_not_turned_into_invalid_input():
    class Host:
        def read(self, key):
            raise TypeError("host says no")

        def write(self, key, data):
            pass

        def delete(self, key):
            return False

        def list(self, prefix):
            return []

    with pytest.raises(TypeError, match="host says no") as info:
        OrchestratorStore(store=Host()).load()
    assert type(info.value) is TypeError


def test_counts_beyond_64_bits_mean_no_bound_and_negatives_are_refused(tmp_path):
    # `limit=2**64` must not be refused as "must be zero or more".
    from session_state.orchestrator import OrchestratorStore

    sessions = OrchestratorStore(tmp_path)
    for big in (2**64, 2**200):
        assert sessions.list_history(limit=big, offset=big)["entries"] == []
    for negative in (-1, -(2**200)):
        with pytest.raises(InvalidInputError) as raised:
            sessions.list_history(limit=negative)
        assert "zero or more" in str(raised.value)


def test_a_bool_progress_writes_nothing():
    store = MemoryStore()
    o = OrchestratorStore(store=store)
    o.record_new("g", project={"name": "p", "path": "/p"}, suffix="abc123")
    o.start()
    o.record_agent_start("a", "t", "x")
    before = {k: store.read(k) for k in store.list(".claude")}
    assert before
    with pytest.raises(InvalidInputError):
        o.record_agent_progress("a", True)
    assert {k: store.read(k) for k in store.list(".claude")} == before
    assert o.record_agent_progress("a", 1)["agents"][0]["progress"] == 1
