"""Checked by `mypy --strict typing/usage.py` (scripts/ci/40-python.sh).

Every public name is used once with the types it promises. Lines marked
`# type: ignore[code]` are calls that must be rejected: under --strict (warn_unused_ignores)
mypy fails if one of them stops being an error.
"""

from pathlib import Path
from typing import Any, Dict, List, Optional, Union

import session_state
from session_state import FileStore, MemoryStore, SessionStateError, Store
from session_state.errors import CorruptStateError, InvalidKeyError
from session_state.registry import AgentRegistry, RegistryRepair
from session_state.moai import (
    SessionManager,
    get_resume_id,
    get_session_manager,
    register_agent,
    should_resume,
)
from session_state.orchestrator import (
    ClaimOutcome,
    DoctorReport,
    HistoryEntry,
    HistoryPage,
    HistoryTree,
    Lease,
    LiveStatus,
    OrchestratorStore,
    PrunePlan,
    Repair,
    ResumeSummary,
    archive_session,
    list_history,
    load_session,
    render_resume,
    resume_summary,
    save_session,
)
from session_state.teams import BackendType, SessionState, SpawnConfig, TeamStore


class DictStore:
    """A host store: satisfies the Store protocol structurally."""

    def __init__(self) -> None:
        self.data: Dict[str, bytes] = {}

    def read(self, key: str) -> Optional[bytes]:
        return self.data.get(key)

    def write(self, key: str, data: bytes) -> None:
        self.data[key] = data

    def delete(self, key: str) -> bool:
        return self.data.pop(key, None) is not None

    def list(self, prefix: str) -> List[str]:
        return sorted(k for k in self.data if k.startswith(prefix + "/"))


class TextStore:
    """A host store whose ``read`` returns text (taken as UTF-8): still a Store."""

    def __init__(self) -> None:
        self.data: Dict[str, str] = {}

    def read(self, key: str) -> Optional[str]:
        return self.data.get(key)

    def write(self, key: str, data: bytes) -> None:
        self.data[key] = data.decode("utf-8")

    def delete(self, key: str) -> bool:
        return self.data.pop(key, None) is not None

    def list(self, prefix: str) -> List[str]:
        return sorted(k for k in self.data if k.startswith(prefix + "/"))


def moai_usage(tmp: Path) -> None:
    m = SessionManager(session_file=tmp / "s.json", transcript_dir=tmp / "t")
    m2 = SessionManager(str(tmp / "s.json"), journal=True, durable=False, policy="explained")
    SessionManager(store=MemoryStore(), journal=True)
    m.register_agent_result("a", "id-1", {"x": 1}, "C")
    rid: Optional[str] = m.get_resume_id("a", chain_id="C")
    ok: bool = m.should_resume("a", "implement login", previous_task="implement signup")
    m.increment_resume_count("id-1")
    result: Optional[Any] = m.get_agent_result("id-1")
    chain: List[Dict[str, Any]] = m.get_chain_results("C")
    summary: Dict[str, Any] = m.get_chain_summary("C")
    everything: Dict[str, Any] = m.get_all_sessions()
    path: Optional[Path] = m.export_transcript("id-1")
    m.create_chain("D", ["a", "b"], metadata={"k": 1})
    m.create_chain("G", (name for name in ["a", "b"]))  # any iterable of str
    m.clear_agent_session("a")
    m.clear_chain("C")
    decision: Dict[str, Any] = m2.decide_resume("a", "x", "y", policy="compat")
    m2.close()
    shared: SessionManager = get_session_manager()
    register_agent("a", "id-2", None)
    rid = get_resume_id("a")
    ok = should_resume("a", "x", None)
    print(rid, ok, result, chain, summary, everything, path, decision, shared)

    m.register_agent_result("a", "id-1", None, chain_id=3)  # type: ignore[arg-type]
    m.get_resume_id(42)  # type: ignore[arg-type]
    SessionManager(journal="yes")  # type: ignore[arg-type]
    SessionManager(tmp, tmp, True)  # type: ignore[call-arg]
    wrong: int = m.get_all_sessions()  # type: ignore[assignment]
    print(wrong)


def registry_usage() -> None:
    reg = AgentRegistry(MemoryStore(), journal=True)
    reg.register("a", "id-1", {"ok": True}, "chain")
    resume: bool = reg.should_resume("a", "fix the parser", "write the parser")
    agent_id: Optional[str] = reg.resume_id("a")
    repairs: List[RegistryRepair] = reg.repair()
    print(resume, agent_id, repairs, session_state.AgentRegistry is AgentRegistry)
    reg.should_resume("a", 5)  # type: ignore[arg-type]


def orchestrator_usage(tmp: Path) -> None:
    state: Dict[str, Any] = {"schema_version": "1.0"}
    saved: Path = save_session(state)
    loaded: Optional[Dict[str, Any]] = load_session()
    archived: Path = archive_session(state, replace=True)
    history: List[HistoryEntry] = list_history(limit=5)
    on_store: Path = save_session(state, store=MemoryStore())
    from_store: Optional[Dict[str, Any]] = load_session(store=DictStore())
    archive_session(state, replace=False, store=FileStore(tmp))
    print(on_store, from_store, list_history(5, store=MemoryStore()))
    summary: ResumeSummary = resume_summary(state, now="2025-12-27T12:30:00Z")
    percent: int = summary["progress_percent"]
    first_id: str = history[0]["id"]
    markdown: str = render_resume(state)
    store = OrchestratorStore(tmp)
    mem = OrchestratorStore(store=MemoryStore())
    host = OrchestratorStore(store=DictStore())
    doc = mem.record_new("goal", project={"name": "p", "path": "/p"}, suffix="abc")
    doc = mem.start()
    doc = mem.record_agent_start("a", "code", "t")
    doc = mem.record_agent_start("b", "code", "t")
    doc = mem.record_agent_progress("a", 50)
    doc = mem.record_agent_done("a", "done")
    doc = mem.record_agent_fail("a", "boom")
    doc = mem.record_decision("d", "r")
    doc = mem.record_task_add("t")
    doc, task_text = mem.record_task_done(1, "ok", files=["a"])
    doc = mem.record_context(100, 1.5, compressed=True)
    doc = mem.record_save()
    doc = mem.before_compression()
    doc = mem.pause()
    doc = mem.continue_session()
    doc = mem.complete()
    page: HistoryPage = host.list_history(10, 0, "complete", full_scan=False)
    repair: Optional[Repair] = store.recover()
    report: DoctorReport = store.doctor(fix=True)
    kept: str = repair["kept_copy"] if repair else ""
    print(saved, loaded, archived, history, summary, markdown, doc, page, repair, report)
    print(percent, first_id, kept, task_text)
    summary["no_such_key"]  # type: ignore[typeddict-item]
    total: str = page["total"]  # type: ignore[assignment]
    print(total)

    save_session("not a dict")  # type: ignore[arg-type]
    mem.record_agent_progress("a", "50")  # type: ignore[arg-type]
    mem.record_task_done(1.5, "ok")  # type: ignore[arg-type]
    mem.list_history(offset=None)  # type: ignore[arg-type]
    list_history(limit="10")  # type: ignore[arg-type]
    archive_session(state, True)  # type: ignore[call-arg]
    OrchestratorStore(store=42)  # type: ignore[arg-type]
    text: str = load_session()  # type: ignore[assignment]
    load_session(store="redis://h")  # type: ignore[arg-type]
    print(text)


def ownership_and_retention(tmp: Path) -> None:
    mine = OrchestratorStore(tmp, owner="a")
    claimed: ClaimOutcome = mine.claim("a", lease_seconds=60, takeover=True)
    lease: Optional[Lease] = mine.lease()
    renewed: Lease = mine.renew("a", 120)
    live: List[LiveStatus] = mine.live_sessions()
    stale: bool = live[0]["stale"]
    beat = mine.heartbeat("a", ttl_seconds=60, process={"pid": 1})
    renewed_now: bool = beat["renewed"]
    mine.release("a")
    mine.set_writer({"owner": "a", "epoch": 1})
    mine.set_writer(None)
    forked: Dict[str, Any] = mine.fork(new_id="2026-01-01-x", archive_current=True)
    tree: HistoryTree = mine.history_tree()
    plan: PrunePlan = mine.prune_history(keep=3, apply=False)
    gone: List[str] = [r["id"] for r in plan["removed"]]
    team_plan: PrunePlan = TeamStore(tmp).prune("t", older_than_days=30)
    agent_plan: PrunePlan = AgentRegistry(MemoryStore()).prune(older_than_days=30)
    print(claimed, lease, renewed, stale, renewed_now, forked, tree, gone, team_plan, agent_plan)

    mine.claim(owner=5)  # type: ignore[arg-type]
    mine.renew("a", "60")  # type: ignore[arg-type]
    mine.set_writer({"epoch": 1})  # type: ignore[arg-type]
    mine.prune_history(3)  # type: ignore[call-arg]
    TeamStore(tmp).prune("t")  # type: ignore[call-arg]
    epoch: str = lease["epoch"] if lease else ""  # type: ignore[assignment]
    print(epoch)


def stores_and_errors(tmp: Path) -> None:
    stores: List[Store] = [
        FileStore(tmp), FileStore(str(tmp), durable=True), MemoryStore(), DictStore(), TextStore()
    ]
    for s in stores:
        s.write("a/b", b"x")
        data: Optional[Union[bytes, str]] = s.read("a/b")
        only_bytes: Optional[bytes] = s.read("a/b")  # type: ignore[assignment]
        print(only_bytes)
        keys: List[str] = s.list("a")
        gone: bool = s.delete("a/b")
        print(data, keys, gone)
    try:
        SessionManager(tmp / "s.json").export_transcript("../x")
    except InvalidKeyError as e:
        code: str = e.code
        print(code)
    except CorruptStateError as e:
        print(e.salvaged)
    except SessionStateError as e:
        print(e.context)
    print(session_state.__version__, session_state.ERROR_CODES)
    # Every error class is importable from the package itself.
    package_errors: List[type] = [
        session_state.AlreadyExistsError,
        session_state.ConflictError,
        session_state.CorruptStateError,
        session_state.IncompatibleSchemaError,
        session_state.InvalidInputError,
        session_state.InvalidKeyError,
        session_state.InvalidTransitionError,
        session_state.NotFoundError,
        session_state.StorageError,
    ]
    try:
        OrchestratorStore(store=MemoryStore()).record_agent_progress("a", 50)
    except session_state.NotFoundError as e:
        ctx: Dict[str, str] = e.context
        print(ctx, package_errors)
    session_state.NoSuchError  # type: ignore[attr-defined]

    MemoryStore().write("k", "text")  # type: ignore[arg-type]


def teams_usage(tmp: Path) -> None:
    config = SpawnConfig(name="coder", prompt="p", model="m")
    state = SessionState.from_config(config, BackendType.CODEX, now="2026-03-01T12:34:56Z")
    store = TeamStore(tmp)
    key: Path = store.save("t", state)
    again: SessionState = store.load("t", "coder")
    changed: SessionState = store.update("t", "coder", {"metadata": {"k": "v"}, "model": None})
    print(key, again, changed)
    store.update("t", "coder", None)  # type: ignore[arg-type]
    wrong_update: Dict[str, Any] = store.update("t", "coder", {})  # type: ignore[assignment]
    print(wrong_update)

    store.save("t", config)  # type: ignore[arg-type]
    SessionState.from_config(None, BackendType.CODEX)  # type: ignore[arg-type]
    store.record_spawn("t", config, 3)  # type: ignore[arg-type]
