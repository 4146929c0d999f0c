"""The orchestrator session of the "Session State" skill (SPEC section 1).

The four functions of the skill keep their signatures and return shapes, relative to the
current folder at call time like the seed:

>>> from session_state.orchestrator import save_session, load_session  # doctest: +SKIP
>>> save_session(state)            # writes .claude/orchestrator-session.json atomically
PosixPath('.claude/orchestrator-session.json')
>>> save_session(state, store=RedisStore(url))   # the same key on a Redis server  # doctest: +SKIP

Each of the four takes the keyword ``store`` (any store: ``RedisStore``, ``FileStore``, ...)
to work there instead of the current folder.

Differences from the seed (SPEC section 5):

- ``save_session`` checks the document first (schema "1.0", types, a safe ``session_id``) and
  raises ``InvalidInputError`` (naming the field: `` `state` is not an orchestrator session:
  field `goal`: ... ``, ``.context["field"] == "goal"``)/``IncompatibleSchemaError``/
  ``InvalidKeyError`` instead of writing a bad file; it still sets ``state["updated"]`` (in
  RFC 3339 UTC, ``...Z``) as the seed does. Timestamps are written RFC 3339 UTC.
- ``load_session`` returns None when there is no file or its ``schema_version`` is not
  ``"1.0"`` (as the seed), but raises ``CorruptStateError`` (with ``.salvaged``, every
  complete field) for a file that does not parse, where the seed raises ``JSONDecodeError``.
- ``archive_session`` refuses to replace an existing archive of the same id
  (``AlreadyExistsError``) unless ``replace=True``.
- ``list_history`` orders by the instant of ``created`` (newest first), not by file name, and
  skips unreadable files instead of failing.

:class:`OrchestratorStore` offers the whole core API: lifecycle moves, the recording verbs
(``record_new``, ``record_agent_start``, ...), history pages, recovery.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from . import _native
from ._native import json_schema, salvage
from ._types import (
    AgentLine,
    ClaimOutcome,
    ContextBudget,
    DoctorReport,
    GitHead,
    HeartbeatOutcome,
    HistoryEntry,
    HistoryPage,
    HistoryTree,
    Leftover,
    Lease,
    LiveStatus,
    Problem,
    ProcessInfo,
    PrunePlan,
    ReleaseOutcome,
    Repair,
    ResumeSummary,
    SkippedHistoryFile,
    WorkLine,
    Writer,
)
from .errors import CorruptStateError, IncompatibleSchemaError, _path, _wrong_type
from .stores import FileStore, Store

_logger = logging.getLogger(__name__)

__all__ = [
    "AgentLine",
    "ClaimOutcome",
    "ContextBudget",
    "DoctorReport",
    "GitHead",
    "HeartbeatOutcome",
    "HistoryEntry",
    "HistoryPage",
    "HistoryTree",
    "Lease",
    "Leftover",
    "LiveStatus",
    "OrchestratorStore",
    "Problem",
    "ProcessInfo",
    "PrunePlan",
    "ReleaseOutcome",
    "Repair",
    "ResumeSummary",
    "SkippedFile",
    "SkippedHistoryFile",
    "WorkLine",
    "Writer",
    "archive_session",
    "json_schema",
    "list_history",
    "load_session",
    "render_resume",
    "resume_summary",
    "salvage",
    "save_session",
]

_PathArg = Union[str, "os.PathLike[str]"]

# `SkippedFile`: the skill API's name for a skipped history file.
SkippedFile = SkippedHistoryFile


# The handles of the skill functions, by current folder (or by the `store` given): a handle
# remembers the file it saved last, so the next save need not parse that file again to know it
# is readable. A few are kept; the oldest is dropped first. A store's entry holds the store
# itself, so its `id` is not reused while the entry lives.
_HANDLES: Dict[Any, "_native.Orchestrator"] = {}
_STORES: Dict[int, Store] = {}
_MAX_HANDLES = 8


def _here(store: Optional[Store] = None) -> "_native.Orchestrator":
    """The handle of ``store``, else of the current folder."""
    place: Any = os.getcwd() if store is None else id(store)
    handle = _HANDLES.pop(place, None)
    if handle is None:
        handle = _native.Orchestrator(FileStore(Path(place)) if store is None else store)
    _HANDLES[place] = handle  # newest last
    if store is not None:
        _STORES[place] = store
    while len(_HANDLES) > _MAX_HANDLES:
        oldest = next(iter(_HANDLES))
        del _HANDLES[oldest]
        _STORES.pop(oldest, None)
    return handle


def _has_history(store: Optional[Store]) -> bool:
    """Whether there is a history folder to list: on a folder store, the folder exists."""
    folder = ".claude/orchestrator-history"
    if store is None:
        return Path(folder).is_dir()
    if isinstance(store, FileStore):
        return (Path(os.fspath(store.root)) / folder).is_dir()
    return True


def _given(**values: Any) -> Dict[str, Any]:
    """The keyword arguments given (not None), as the core's options."""
    return {name: value for name, value in values.items() if value is not None}


def _fields(required: Dict[str, Any], **optional: Any) -> Dict[str, Any]:
    """The members of a verb's argument: the ``required`` ones as passed (``None`` included,
    which the core refuses naming the member and its type), the ``optional`` ones given."""
    return {**required, **_given(**optional)}


def _document(state: Any, name: str = "state") -> Dict[str, Any]:
    """The argument ``name`` as a dict (a session, an agent, a project); anything else is a
    ``InvalidInputError`` (also a ``TypeError``) naming the argument (not a "corrupt file"
    error about a file that is fine)."""
    if not isinstance(state, dict):
        raise _wrong_type(name, "a dict", state)
    return state


def save_session(state: Dict[str, Any], *, store: Optional[Store] = None) -> Path:
    """Saves ``state`` as ``.claude/orchestrator-session.json`` (atomically) and returns that
    relative path; sets ``state["updated"]`` to now, as the seed does. ``store``: where (default
    the current folder), e.g. ``RedisStore(url)``; the path is then the key in that store."""
    path, updated = _here(store).save_stamp(_document(state))
    state["updated"] = updated
    return path


def load_session(*, store: Optional[Store] = None) -> Optional[Dict[str, Any]]:
    """The current session as the file holds it (checked first: a "1.0" document with valid
    fields), or None when there is none or it has another schema version (as the seed's
    ``state.get("schema_version") != "1.0"``, also when the key is missing or not a string).
    ``store``: as in :func:`save_session`.

    Raises ``CorruptStateError`` (``.salvaged`` holds what could be read) for a file that does
    not parse."""
    try:
        return _here(store).load_raw()
    except IncompatibleSchemaError:
        return None
    except CorruptStateError as err:
        if err.context.get("field") == "schema_version":
            return None
        raise


def archive_session(
    state: Dict[str, Any], *, replace: bool = False, store: Optional[Store] = None
) -> Path:
    """Writes ``.claude/orchestrator-history/{session_id}.json``, removes the current file if it
    holds that session, returns the archive's relative path. ``AlreadyExistsError`` when that
    archive exists, unless ``replace``. ``store``: as in :func:`save_session`."""
    return _here(store).archive(_document(state), replace)


def list_history(limit: int = 10, *, store: Optional[Store] = None) -> List[HistoryEntry]:
    """``[{"id", "goal", "status", "created"}]``, newest first, at most ``limit``. Without a
    history folder it is ``[]`` and nothing is written (as the seed); otherwise the listing
    index beside the folder is brought up to date. A negative ``limit`` drops that many of the
    oldest, as the seed's ``sorted(...)[:limit]`` does; a ``limit`` that is not an int is an
    ``InvalidInputError`` (also a ``TypeError``). A file that cannot be read is left out
    and logged as a WARNING (``OrchestratorStore.list_history`` returns them as ``skipped``).
    ``store``: as in :func:`save_session`."""
    if not isinstance(limit, int):
        raise _wrong_type("limit", "an int", limit)
    if not _has_history(store):
        return []
    if limit < 0:
        # The seed slices `sorted(...)[:limit]`: a negative limit drops that many from the end.
        return _entries(_here(store).list_history(sys.maxsize))[:limit]
    # `int()`: the seed slices with a bool as with 0/1 (`[:True]`), the native half refuses one.
    return _entries(_here(store).list_history(int(min(limit, sys.maxsize))))


def _entries(page: HistoryPage) -> List[HistoryEntry]:
    """The entries of ``page``, each file it skipped logged as a WARNING (the seed's list
    returned no such list to read them from)."""
    for skipped in page["skipped"]:
        _logger.warning("Skipped %s in the history: %s", skipped["key"], skipped["message"])
    return page["entries"]


def resume_summary(
    state: Dict[str, Any],
    now: Optional[str] = None,
    *,
    stale_after_hours: Optional[int] = None,
    git_head: Optional[GitHead] = None,
) -> ResumeSummary:
    """The "RESUMING SESSION" content as data: ``session_id, goal, status, started,
    started_relative, progress_percent, completed_work, in_progress, pending, context,
    resume_from``, and ``stale`` (saved more than ``stale_after_hours`` ago, or the HEAD
    recorded at the last save differs from ``git_head``). ``now`` (RFC 3339) defaults to the
    system clock."""
    options = _given(stale_after_hours=stale_after_hours, git_head=git_head)
    return _native.resume_summary_with(_document(state), options, now)


def render_resume(
    state: Dict[str, Any],
    now: Optional[str] = None,
    *,
    stale_after_hours: Optional[int] = None,
    git_head: Optional[GitHead] = None,
) -> str:
    """The "RESUMING SESSION" markdown block of the seed, with a line for each note of
    ``stale`` (options as in :func:`resume_summary`)."""
    options = _given(stale_after_hours=stale_after_hours, git_head=git_head)
    return _native.render_resume_with(_document(state), options, now)


class OrchestratorStore:
    """The orchestrator session of a project folder ``root`` (keys
    ``.claude/orchestrator-session.json`` and ``.claude/orchestrator-history/``), or of any
    ``store``. Methods that change the session return the saved document (a dict).

    ``owner`` (and ``epoch``) name the writer of every write (see :meth:`set_writer`): once
    the session is claimed, a write by anyone but its owner is a ``ConflictError`` naming the
    owner, and nothing is written. Over a ``FileStore``, each save records the project's git
    HEAD (``project.git_head``) found from the store's folder.

    ``naive_offset_minutes`` reads timestamps without an offset as local time at that offset
    (default: UTC). ``max_document_bytes`` is the largest document read or written (default
    16 MiB; above it ``InvalidInputError``, nothing written), as Node's ``maxDocumentBytes``.
    """

    def __init__(
        self,
        root: _PathArg = ".",
        store: Optional[Store] = None,
        *,
        naive_offset_minutes: Optional[int] = None,
        max_document_bytes: Optional[int] = None,
        owner: Optional[str] = None,
        epoch: Optional[int] = None,
    ) -> None:
        folder = os.path.abspath(os.path.expanduser(_path(root, "root")))
        if store is None:
            store = FileStore(folder)
        if isinstance(store, FileStore):
            folder = os.path.abspath(os.fspath(store.root))
        # The default `project` of `record_new`: the store's folder, else `root`.
        self._folder = Path(folder)
        self._native = _native.Orchestrator(
            store,
            naive_offset_minutes=naive_offset_minutes,
            max_document_bytes=max_document_bytes,
        )
        if owner is not None:
            self.set_writer(_given(owner=owner, epoch=epoch))

    # --------------------------------------------------------------------- save, load, archive

    def load(self) -> Optional[Dict[str, Any]]:
        """The current session or None. ``CorruptStateError`` (with ``.salvaged``),
        ``IncompatibleSchemaError``."""
        return self._native.load()

    def save(self, state: Dict[str, Any]) -> Dict[str, Any]:
        """Saves ``state`` with ``updated`` set to now, in ``state`` too (its one change, as the
        seed's ``save_session`` makes it: saved again after a change, it is not stale); returns
        the saved document. A current file that does not parse is kept aside first."""
        saved = self._native.save(_document(state))[1]
        dict.__setitem__(state, "updated", saved["updated"])  # a subclass's own cannot refuse it
        return saved

    def archive(self, state: Dict[str, Any], *, replace: bool = False) -> Path:
        """Archives ``state``; returns the archive's path relative to the store's root."""
        return self._native.archive(_document(state), replace)

    def list_history(
        self,
        limit: int = 10,
        offset: int = 0,
        status: Optional[str] = None,
        *,
        full_scan: bool = False,
    ) -> HistoryPage:
        """A page ``{"entries": [{id, goal, status, created}], "skipped": [{key, code,
        message}], "total": int}``, newest first. ``limit`` and ``offset`` are ints from 0 up
        (``InvalidInputError`` otherwise, also when not an int or a ``bool``)."""
        return self._native.list_history(limit, offset, status, full_scan)

    def rebuild_index(self) -> None:
        """Rebuilds the history index from the files."""
        self._native.rebuild_index()

    # ------------------------------------------------------------------------------ lifecycle

    def move_to(self, status: str) -> Dict[str, Any]:
        """Moves the current session to ``status`` (``InvalidTransitionError``); ``complete``
        and ``aborted`` also archive it."""
        return self._native.move_to(status)

    def start(self) -> Dict[str, Any]:
        return self._native.start()

    def pause(self) -> Dict[str, Any]:
        return self._native.pause()

    def resume(self) -> Dict[str, Any]:
        return self._native.resume()

    def continue_session(self) -> Dict[str, Any]:
        """The seed's ``continue``: same as :meth:`resume`."""
        return self._native.resume()

    def complete(self, *, replace: bool = False) -> Dict[str, Any]:
        """``in_progress -> complete``, then archive; all or nothing. Raises
        ``AlreadyExistsError`` (and changes nothing) when the archive exists, unless ``replace``."""
        return self._native.complete(replace=replace)

    def abort(self, *, replace: bool = False) -> Dict[str, Any]:
        """``created | paused | in_progress -> aborted``, then archive; all or nothing, as
        :meth:`complete`."""
        return self._native.abort(replace=replace)

    # ------------------------------------------------------------------------ recording verbs
    # The verbs of the command line (`new`, `agent start`, ...): keyword names are the members
    # of the core's argument types; each returns the saved document.

    def record_new(
        self,
        goal: str,
        mode: Optional[str] = None,
        *,
        id: Optional[str] = None,
        archive_current: bool = False,
        project: Optional[Dict[str, Any]] = None,
        suffix: Optional[str] = None,
    ) -> Dict[str, Any]:
        """A new current session in status ``created``, id ``id`` or ``YYYY-MM-DD-{suffix}``
        (default: six hex digits from the clock); a current session in a final status is
        archived first, an unfinished one too with ``archive_current`` (else
        ``AlreadyExistsError``). ``project`` defaults to the root folder's name and path: the
        folder of the ``FileStore`` (given as ``store`` or made from ``root``), else ``root``."""
        if project is None:
            project = {"name": self._folder.name, "path": str(self._folder)}
        new = _fields({"goal": goal}, mode=mode, id=id, archive_current=archive_current)
        return self._native.record_new(new, _document(project, "project"), suffix)

    def record_agent_start(self, id: str, type: str, task: str) -> Dict[str, Any]:
        """Adds the agent (status ``in_progress``, started now; one with the same id is
        replaced); the first agent moves a ``created`` session to ``in_progress``."""
        return self._native.record_agent_start({"id": id, "type": type, "task": task})

    def record_agent_progress(self, id: str, percent: float) -> Dict[str, Any]:
        """Sets the agent's ``progress``: a number from 0 to 100, kept as given (``75.0``
        stays a float; ``InvalidInputError`` otherwise, also for a ``bool`` or NaN)."""
        return self._native.record_agent_progress({"id": id, "percent": percent})

    def record_agent_done(
        self,
        id: str,
        summary: Optional[str] = None,
        tokens: Optional[int] = None,
        files: Optional[List[str]] = None,
    ) -> Dict[str, Any]:
        """Marks the agent ``complete`` and records its work in ``completed_work``."""
        fields = _fields({"id": id}, summary=summary, tokens=tokens, files=files)
        return self._native.record_agent_done(fields)

    def record_agent_fail(self, id: str, error: str) -> Dict[str, Any]:
        """Marks the agent ``failed`` and logs the error in ``errors``."""
        return self._native.record_agent_fail({"id": id, "error": error})

    def record_decision(self, decision: str, why: Optional[str] = None) -> Dict[str, Any]:
        """Appends ``{decision, rationale: why, timestamp}`` to ``decisions_made``."""
        return self._native.record_decision(_fields({"decision": decision}, why=why))

    def record_task_add(self, task: str) -> Dict[str, Any]:
        """Appends ``task`` to ``pending_tasks``."""
        return self._native.record_task_add({"task": task})

    def record_task_done(
        self, task: Union[int, str], outcome: str, files: Optional[List[str]] = None
    ) -> Tuple[Dict[str, Any], str]:
        """Moves a pending task (its 1-based number or its text) to ``completed_work``;
        returns the saved document and the task's text."""
        fields = _fields({"task": task, "outcome": outcome}, files=files)
        doc, text = self._native.record_task_done(fields)
        return doc, text

    def record_context(
        self, tokens: int, percent: Optional[float] = None, compressed: bool = False
    ) -> Dict[str, Any]:
        """Records the context figures; ``compressed`` sets ``last_compression`` to now."""
        fields = _fields({"tokens": tokens}, percent=percent, compressed=compressed)
        return self._native.record_context(fields)

    def record_save(self) -> Dict[str, Any]:
        """Writes the current session again with ``updated`` set to now."""
        return self._native.record_save()

    # ---------------------------------------------------------------------------- hook points

    def before_compression(self) -> Dict[str, Any]:
        return self._native.before_compression()

    def session_end(self) -> Dict[str, Any]:
        """Archives the current session and returns it."""
        return self._native.session_end()

    # ------------------------------------------------------------------------------- recovery

    def recover(self, key: Optional[str] = None) -> Optional[Repair]:
        """Repairs a corrupt file (default the current one) from its salvage, keeping a copy:
        ``{key, kept_copy, missing, replaced, partial}``, or None when it was fine."""
        return self._native.recover(key)

    def doctor(self, fix: bool = False) -> DoctorReport:
        """``{checked, problems: [{key, code, message, fixable}], repaired: [...], leftovers:
        [{path, bytes}]}`` (leftovers: temporary files of killed writers, removed with ``fix``)."""
        return self._native.doctor(fix)

    def keep_corrupt_copy(self, key: Optional[str] = None) -> Optional[Path]:
        """Copies a file aside (``<key>.corrupt-<stamp>``); returns the copy's path relative to
        the store's root."""
        return self._native.keep_corrupt_copy(key)

    def resume_summary(
        self,
        now: Optional[str] = None,
        *,
        stale_after_hours: Optional[int] = None,
        git_head: Optional[GitHead] = None,
    ) -> Optional[ResumeSummary]:
        """The resume summary of the current session, or None when there is none; ``stale``
        says it was saved more than ``stale_after_hours`` (default 24) ago or that the git
        HEAD moved (``git_head`` defaults to the HEAD found over a ``FileStore``)."""
        options = _given(stale_after_hours=stale_after_hours, git_head=git_head)
        return self._native.resume_summary(options, now)

    # ------------------------------------------------------------------------------ ownership

    def claim(
        self,
        owner: str,
        *,
        lease_seconds: Optional[int] = None,
        scopes: Optional[List[str]] = None,
        takeover: bool = False,
        force: bool = False,
        skew_seconds: Optional[int] = None,
        session_id: Optional[str] = None,
        ttl_seconds: Optional[int] = None,
        process: Optional[ProcessInfo] = None,
    ) -> ClaimOutcome:
        """Makes ``owner`` the owner of the current session (no ``scopes``) under a lease of
        ``lease_seconds`` (default 300), or claims the ``scopes`` named; records its live entry.
        ``ConflictError`` naming the owner when someone else holds it (``takeover=True`` takes
        a lease expired by more than ``skew_seconds``, default 5; ``force=True`` any lease).
        This handle then writes as ``owner`` with the epoch claimed. ``process`` defaults to
        the orchestrator running this Python process."""
        return self._native.claim(
            _fields(
                {"owner": owner},
                lease_seconds=lease_seconds,
                scopes=scopes,
                takeover=takeover,
                force=force,
                skew_seconds=skew_seconds,
                session_id=session_id,
                ttl_seconds=ttl_seconds,
                process=process,
            )
        )

    def renew(self, owner: str, lease_seconds: Optional[int] = None) -> Lease:
        """Renews ``owner``'s lease (``ConflictError`` when another owner holds it,
        ``NotFoundError`` when nobody does)."""
        return self._native.renew(owner, lease_seconds)

    def release(
        self, owner: str, *, scopes: Optional[List[str]] = None, session_id: Optional[str] = None
    ) -> ReleaseOutcome:
        """Releases ``owner``'s lease on the current session (the epoch is kept), or the
        ``scopes`` named."""
        return self._native.release(_fields({"owner": owner}, scopes=scopes, session_id=session_id))

    def heartbeat(
        self,
        owner: str,
        *,
        session_id: Optional[str] = None,
        lease_seconds: Optional[int] = None,
        ttl_seconds: Optional[int] = None,
        process: Optional[ProcessInfo] = None,
    ) -> HeartbeatOutcome:
        """Refreshes ``owner``'s live entry and renews its lease when it owns the session:
        ``{lease, renewed, live}``."""
        return self._native.heartbeat(
            _fields(
                {"owner": owner},
                session_id=session_id,
                lease_seconds=lease_seconds,
                ttl_seconds=ttl_seconds,
                process=process,
            )
        )

    def lease(self) -> Optional[Lease]:
        """The current session's lease, or None when nobody ever claimed it."""
        return self._native.lease()

    def live_sessions(self) -> List[LiveStatus]:
        """Every live orchestrator with its age; stale ones listed with the reason."""
        return self._native.live_sessions()

    def set_writer(self, writer: Optional[Writer]) -> None:
        """Writes from now on as ``writer`` (``{"owner", "epoch"?}``), or as nobody."""
        self._native.set_writer(writer)

    @property
    def writer(self) -> Optional[Writer]:
        """Who this handle writes as."""
        return self._native.writer()

    # --------------------------------------------------------------------- fork and retention

    def fork(
        self,
        session_id: Optional[str] = None,
        *,
        new_id: Optional[str] = None,
        suffix: Optional[str] = None,
        archive_current: bool = False,
    ) -> Dict[str, Any]:
        """Forks a session (default the current one; else an archived one's id) into a new
        current session with ``forked_from``; the original is kept (archived as it is).
        ``AlreadyExistsError`` when another session is current, unless ``archive_current``."""
        return self._native.fork(
            _given(
                session_id=session_id,
                new_id=new_id,
                suffix=suffix,
                archive_current=archive_current,
            )
        )

    def history_tree(self) -> HistoryTree:
        """Every session under the one it was forked from: ``{entries: [{depth, id, goal,
        status, created, forked_from, current}], skipped}``."""
        return self._native.history_tree()

    def prune_history(
        self,
        *,
        keep: Optional[int] = None,
        older_than_days: Optional[int] = None,
        status: Optional[str] = None,
        apply: bool = False,
    ) -> PrunePlan:
        """The archived sessions matching every criterion given (at least one), kept newest
        ``keep``: a dry run (nothing changed) unless ``apply``. ``{applied, removed, kept}``."""
        return self._native.prune_history(
            _given(keep=keep, older_than_days=older_than_days, status=status, apply=apply)
        )
