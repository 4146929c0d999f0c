"""A drop-in ``SessionManager`` for MoAI-ADK (SPEC section 2).

Replace ``from moai_adk.core.session_manager import SessionManager`` with
``from session_state.moai import SessionManager``: every method of the seed is here with the
same arguments, defaults, return types and ``logging`` calls, over the same two files
(``.moai/memory/agent-sessions.json`` and ``workflow-chains.json`` beside it). What changes is
what the seed loses (SPEC section 5):

- results are persisted (a ``"results"`` key the seed's loader ignores), so they survive a
  restart and are shared by every process using the folder;
- every change is one atomic, locked read-modify-write of the file: concurrent processes lose
  no registration, a crash never leaves a torn file;
- a sessions file that cannot be read (cut short, ``NaN``, a wrongly typed entry) is copied
  aside (``agent-sessions.json.corrupt-<UTC stamp>``), then every entry still whole is written
  back, as ``session-state doctor --fix`` and Node's ``AgentRegistry.repair()`` do, with the
  seed's warning naming the copy and what was salvaged (the seed started empty in memory and
  its next save dropped everything); a corrupt ``workflow-chains.json`` is copied aside and
  starts empty (the seed's ``create_chain`` failed on it until it was repaired by hand);
  a readable file is never written at construction;
- re-registering an id keeps its resume count; ``create_chain`` keeps the chain's members and
  saves both files; ``clear_chain`` also forgets the names pointing at the cleared ids;
- an unsafe ``agent_id`` (``../x``) raises ``InvalidKeyError`` in ``export_transcript`` and
  ``register_agent_result`` instead of naming a file outside the transcript folder;
- transcripts are read through a ``FileStore`` rooted at the transcript folder, as the Node
  package reads them through its store: one that is a folder, or a symlink leading outside
  that folder, is a ``StorageError`` (the seed returned its path);
- time stamps are written in UTC (naive ISO 8601, as the seed writes local time).

Lookups of a name, id or chain id that is not a str miss, as the seed's lookups in dicts read
from JSON do (``get_resume_id(None)`` is None, ``get_chain_summary(5)`` is ``{"chain_id": 5,
"status": "not_found"}``); where the seed fails it is ``InvalidInputError`` (also a
``TypeError``). Reads take no lock when there is nothing to fold, so a folder the process may
only read works for every read; a change there is a ``StorageError``.

Each call reads the file afresh. The seed's instance state (``_sessions``, ``_chains``,
``_metadata``, ``_results``, read and changed by MoAI's own tests) is a view of the file as the
manager last read it: a change made to it is written by ``_save_sessions()`` or by the next
call of any method, entry by entry under the registry's lock (the seed wrote it with its next
change only); ``_results`` holds the persisted results. A file that turns corrupt after
construction makes the next call raise ``CorruptStateError`` (the file is copied aside first
and left as it is); constructing a new manager repairs it as above.
"""

from __future__ import annotations

import copy
import logging
import os
import weakref
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Union

from . import _native
from .errors import (
    CorruptStateError,
    InvalidInputError,
    SessionStateError,
    StorageError,
    _path,
    _wrong_type,
)
from .stores import FileStore, Store

__all__ = [
    "SessionManager",
    "get_resume_id",
    "get_session_manager",
    "register_agent",
    "should_resume",
]

logger = logging.getLogger(__name__)

_PathArg = Union[str, "os.PathLike[str]"]


def _check_chain(chain_id: Optional[str]) -> None:
    """A chain id to write: a str or None (``InvalidInputError``, also a ``TypeError``,
    otherwise; SPEC section 2, "Where the seed loses data", item 7)."""
    if chain_id is not None and not isinstance(chain_id, str):
        raise _wrong_type("chain_id", "a str or None", chain_id)


def _is_key(value: Any, name: str) -> bool:
    """Whether ``value``, a name or id to look up, can be in the files: True for a str. The
    seed looks such arguments up in dicts read from JSON, whose keys are always str, so
    another hashable value (``None``, ``5``) simply misses: False, and the caller gives the
    seed's answer for a miss. An unhashable value (a list) made the seed's lookup raise
    ``TypeError``: ``InvalidInputError`` (also a ``TypeError``) naming ``name``."""
    if isinstance(value, str):
        return True
    try:
        hash(value)
    except TypeError:
        raise _wrong_type(name, "a str", value) from None
    return False


def _unknown_agent() -> Dict[str, Any]:
    """The decision for a name the registry does not hold (the core's ``unknown_agent``)."""
    return {"resume": False, "score": 0.0, "matched": [], "reason": "unknown_agent"}


def _compact_at_exit(registry: "_native.AgentRegistry", store: Store, journal_key: str) -> None:
    """`_compact` when the manager is collected or the interpreter exits: a failure (a folder
    the process may only read) is logged, not printed as a traceback at exit; the journal
    stays and is folded by the next writer."""
    try:
        _compact(registry, store, journal_key)
    except SessionStateError as e:
        logger.warning(f"Could not fold the sessions journal at exit: {e}")


def _compact(registry: "_native.AgentRegistry", store: Store, journal_key: str) -> None:
    """Folds the journal at ``journal_key`` into the sessions file, unless it holds nothing
    (then nothing is locked or written: a read-only folder is left alone)."""
    journal = store.read(journal_key)
    if journal is not None and journal.strip():
        registry.compact()


_MAPS = ("sessions", "chains", "metadata", "results")


def _state_map(name: str) -> Any:
    """The seed's instance attribute ``_<name>``: the map ``name`` of the sessions file as
    this manager last read it (see :meth:`SessionManager._state`). It may be changed in place
    or replaced; the changes are written by ``_save_sessions()`` or the next call."""

    def get(manager: "SessionManager") -> Any:
        return manager._state()[name]

    def put(manager: "SessionManager", value: Any) -> None:
        manager._state()[name] = value

    return property(get, put, doc=f"The ``{name}`` map of the sessions file (the seed's state).")


class SessionManager:
    """The seed's ``SessionManager``.

    Args:
        session_file: the sessions file; default ``.moai/memory/agent-sessions.json`` below the
            current folder at construction. ``workflow-chains.json`` sits beside it. A
            relative path (``../s.json``, ``deep/../s.json``) is made absolute against the
            current folder at construction (``os.path.abspath``); so is ``transcript_dir``.
        transcript_dir: where ``agent-{agent_id}.jsonl`` transcripts are looked up; default
            ``.moai/logs/agent-transcripts`` below the current folder. The folders created
            for these two (missing parents included) get mode 0700; existing ones are left
            as they are.
        journal: (keyword only) append registrations to ``<stem>.journal.jsonl`` beside the
            sessions file, folded into it by every other change, by ``compact()``/``close()``
            and when the journal grows as large as the file: O(1) registrations; readers of
            this library see them at once, a reader of the seed's file after compaction
            (also done when the manager is collected and at interpreter exit).
        durable: (keyword only) fsync each write and its folder (default; survives a power
            loss or an OS crash); ``False`` is faster and survives a process crash only.
        policy: (keyword only) the default resume policy of ``should_resume``: ``"compat"``
            (the seed's rule, default) or ``"explained"``.
        max_document_bytes: (keyword only) the largest registry file read (default 16 MiB);
            a larger one raises ``InvalidInputError`` naming the limit.
        store: (keyword only) keep the two files in this store instead (e.g.
            ``RedisStore(url)``), at the keys ``.moai/memory/agent-sessions.json`` and
            ``.moai/memory/workflow-chains.json`` that the CLI and the Node package use;
            ``session_file`` is then only the name logged, and ``durable`` is the store's.
            Transcripts are still read from ``transcript_dir``, a local folder (the host
            writes them on the machine the agent runs on).

    The seed's instance state is here by its names: ``_sessions``, ``_chains``, ``_metadata``
    and ``_results`` are the maps of the sessions file as this manager last read it (read
    again after each change it makes), which the caller may change in place or replace.
    ``_save_sessions()`` writes what the caller changed, entry by entry, under the registry's
    lock into the file as it is then (an entry another process changed and the caller did not
    is kept); so does every other method before it runs, so that it sees the change as the
    seed's methods see their dicts. A changed entry of the wrong shape (a ``resume_count``
    that is not a number) is ``InvalidInputError`` and nothing is written.
    """

    _sessions = _state_map("sessions")
    _chains = _state_map("chains")
    _metadata = _state_map("metadata")
    _results = _state_map("results")

    def __init__(
        self,
        session_file: Optional[_PathArg] = None,
        transcript_dir: Optional[_PathArg] = None,
        *,
        journal: bool = False,
        durable: bool = True,
        policy: str = "compat",
        max_document_bytes: Optional[int] = None,
        store: Optional[Store] = None,
    ) -> None:
        # The seed's state (`_sessions`, ...): read when first asked for (`_state`).
        self._maps: Dict[str, Any] = {}
        self._read: Dict[str, Any] = {}
        self._fresh = False
        project_root = Path.cwd()
        # A relative path is resolved against the current folder now, as the default paths
        # are, and `..` folded away (`os.path.abspath`, symlinks not followed): the store is
        # rooted above the sessions file, which needs a real folder name there.
        self._session_file = (
            Path(os.path.abspath(_path(session_file, "session_file")))
            if session_file
            else project_root / ".moai" / "memory" / "agent-sessions.json"
        )
        transcripts = (
            Path(os.path.abspath(_path(transcript_dir, "transcript_dir")))
            if transcript_dir
            else project_root / ".moai" / "logs" / "agent-transcripts"
        )
        if not isinstance(policy, str) or policy not in ("compat", "explained"):
            raise InvalidInputError(
                f"`policy` must be `compat` or `explained`, not `{policy!r}`",
                context={"argument": "policy"},
            )
        self._policy = policy
        # The folders exist from the start, as the seed's `mkdir(parents=True)` makes them
        # (0700, as the store makes every folder; folders that exist are left as they are).
        if store is None:
            FileStore(self._session_file.parent).create_root()
        self._transcript_dir = transcripts
        self._transcripts.create_root()
        if store is None:
            # The store is rooted one folder above the sessions file, so that its files have a
            # folder key (`memory/agent-sessions.json`): corrupt copies are found and reused
            # there.
            folder = self._session_file.parent
            root, prefix = (folder.parent, f"{folder.name}/") if folder.name else (folder, "")
            self._store: Store = FileStore(root, durable=durable)
            self._root: Optional[Path] = root  # the folder of the files (None on a store)
            name = self._session_file.name
            self._journal_key = f"{prefix}{self._session_file.stem}.journal.jsonl"
        else:
            self._store, prefix, name = store, ".moai/memory/", "agent-sessions.json"
            self._root = None
            self._journal_key = f"{prefix}agent-sessions.journal.jsonl"
        self._sessions_key = prefix + name
        self._chains_key = prefix + "workflow-chains.json"

        def registry(journal: bool) -> "_native.AgentRegistry":
            return _native.AgentRegistry(
                self._store,
                self._sessions_key,
                self._chains_key,
                self._journal_key,
                journal=journal,
                max_document_bytes=max_document_bytes,
            )

        # Reads take the registry's lock only when the journal holds registrations to fold in
        # (the core's `load`), so a folder the process may only read is readable.
        self._registry = registry(journal)
        if journal:
            # Fold the journal when the manager is collected or the interpreter exits, so that
            # a reader of the seed's file alone sees every registration after a normal exit.
            weakref.finalize(self, _compact_at_exit, self._registry, self._store, self._journal_key)
        self._load_sessions()

    @property
    def session_file(self) -> Path:
        """The sessions file."""
        return self._session_file

    @property
    def transcript_dir(self) -> Path:
        """The transcript folder."""
        return self._transcript_dir

    @property
    def _transcript_dir(self) -> Path:
        """The seed's attribute: the transcript folder, which the caller may set."""
        return self._transcript_path

    @_transcript_dir.setter
    def _transcript_dir(self, folder: _PathArg) -> None:
        self._transcript_path = Path(os.path.abspath(_path(folder, "_transcript_dir")))
        # Transcripts are read through a store rooted at their folder, as the Node package
        # reads them through its store: a folder or a symlink leading out is a `StorageError`.
        self._transcripts = FileStore(self._transcript_path)

    # --------------------------------------------------------------- the seed's instance state

    def _state(self) -> Dict[str, Any]:
        """The four maps, read from the file (base + journal) when this manager changed it
        since they were last read (when next asked for, not at each change). Refreshed in
        place: a map the caller holds stays the map of this manager, as in the seed."""
        if not self._fresh:
            doc = self._registry.load()
            for name in _MAPS:
                value = doc.get(name, {})
                held = self._maps.get(name)
                if isinstance(held, dict):
                    held.clear()
                    held.update(value)
                else:
                    self._maps[name] = value
            self._read = copy.deepcopy(self._maps)
            self._fresh = True
        return self._maps

    def _write_state(self) -> bool:
        """Writes the caller's changes of the four maps, if any (the core's ``save_edits``:
        the changed entries only, under the registry's lock). Whether the file changed."""
        if not self._fresh or self._maps == self._read:
            return False
        changed = self._registry.save_edits(self._read, self._maps)
        self._fresh = False
        return changed

    def _changed(self) -> None:
        """The maps are read again when next asked for: this manager changed the file."""
        self._fresh = False

    def _save_sessions(self) -> None:
        """The seed's ``_save_sessions``: writes the caller's changes of ``_sessions``,
        ``_chains``, ``_metadata`` and ``_results`` (see the class docs); nothing when there is
        none (the file already holds the state). A failure to write is logged as the seed
        logs it (``Failed to save sessions: ...``) and the changes stay to be written."""
        try:
            if self._write_state():
                self._saved()
        except StorageError as e:
            logger.error(f"Failed to save sessions: {e}")

    def _load_sessions(self) -> None:
        """Checks the files as the seed's loader does for the sessions file, writing nothing
        when they read. A sessions file that does not is kept aside, then its entries that
        are still whole are written back (the core's ``AgentRegistry::repair``, what ``doctor
        --fix`` runs), with a warning naming the copy and what was salvaged; a corrupt
        ``workflow-chains.json`` is kept aside and starts empty."""
        self._changed()  # as the seed's reload: changes not saved are dropped
        # Each file is read first, without a lock: a readable file needs no repair, so a
        # folder the process may only read (mode 555) works for every read (the repair takes
        # the registry's lock, which creates a lock file beside the sessions file).
        chains_ok = not self._exists(self._chains_key) or self._parses(self._registry.load_chains)
        sessions_ok = not self._exists(self._sessions_key) or self._parses(self._registry.load)
        repaired = [] if chains_ok and sessions_ok else self._registry.repair()
        for repair in repaired:
            path = self._session_file.parent / Path(repair["key"]).name
            aside = path.parent / Path(repair["kept_copy"]).name
            if path == self._session_file:
                logger.warning(
                    f"Failed to load sessions: {path} is not a valid sessions file; "
                    f"kept aside as {aside}, {repair['action']}"
                )
            else:
                logger.warning(
                    f"Failed to load chains: {path} is not a valid chains file; "
                    f"kept aside as {aside}, starting empty"
                )
        if self._exists(self._sessions_key) and not any(
            Path(r["key"]).name == self._session_file.name for r in repaired
        ):
            count = len(self._registry.all_sessions()["sessions"])
            logger.info(f"Loaded {count} sessions from {self._session_file}")

    def _exists(self, key: str) -> bool:
        """Whether the store holds ``key`` (on files: the file is there, whatever it holds)."""
        if self._root is not None:
            return (self._root / key).exists()
        return self._store.read(key) is not None

    @staticmethod
    def _parses(load: Callable[[], Any]) -> bool:
        """Whether ``load`` reads its file without a ``CorruptStateError``."""
        try:
            load()
        except CorruptStateError:
            return False
        return True

    def _saved(self) -> None:
        logger.debug(f"Saved sessions to {self._session_file}")

    # ------------------------------------------------------------------ the seed's methods

    def register_agent_result(
        self,
        agent_name: str,
        agent_id: str,
        result: Any,
        chain_id: Optional[str] = None,
    ) -> None:
        """Maps ``agent_name`` to ``agent_id``, stores ``result`` (plain JSON data), appends the
        id to ``chain_id`` and saves. ``InvalidKeyError`` for an unsafe id,
        ``InvalidInputError`` for a result that is not JSON data (nothing written)."""
        _check_chain(chain_id)
        self._write_state()
        self._registry.register(agent_name, agent_id, result, chain_id)
        self._changed()
        self._saved()
        logger.info(
            f"Registered agent result: {agent_name} (agentId: {agent_id[:8]}..., chain: {chain_id})"
        )

    def get_resume_id(self, agent_name: str, chain_id: Optional[str] = None) -> Optional[str]:
        """The name's latest id; None if unknown or, for a given chain, registered in another.
        As in the seed, a name that is not a str is unknown, a falsy ``chain_id`` means no
        chain, and any other ``chain_id`` that is not a str matches no chain."""
        self._write_state()
        row = self._registry.agent(agent_name) if _is_key(agent_name, "agent_name") else None
        if row is None:
            logger.debug(f"No previous session for {agent_name}")
            return None
        if not chain_id:
            chain_id = None
        agent_id = (
            self._registry.resume_id(agent_name, chain_id)
            if chain_id is None or isinstance(chain_id, str)
            else None  # the seed compares it with the recorded chain: never equal
        )
        if agent_id is None:
            logger.debug(
                f"Chain mismatch: {agent_name} was in {row['chain_id']}, requested {chain_id}"
            )
            return None
        logger.info(f"Resume ID for {agent_name}: {agent_id[:8]}...")
        return agent_id

    def should_resume(
        self,
        agent_name: str,
        current_task: str,
        previous_task: Optional[str] = None,
    ) -> bool:
        """The seed's rule (or the constructor's ``policy``): see :meth:`decide_resume`."""
        decision = self.decide_resume(agent_name, current_task, previous_task)
        reason = decision["reason"]
        if reason == "resume_cap_reached":
            row = self._registry.agent(agent_name)
            count = row["resume_count"] if row else 0
            logger.warning(f"{agent_name} has been resumed {count} times, starting new session")
        elif reason == "related":
            logger.info(f"Tasks appear related, resuming {agent_name}")
        elif reason == "unrelated":
            logger.info(f"Tasks appear independent, starting new session for {agent_name}")
        return bool(decision["resume"])

    def increment_resume_count(self, agent_id: str) -> None:
        """+1 and ``last_resumed_at``; an unknown id (or one that is not a str) is a no-op."""
        self._write_state()
        if _is_key(agent_id, "agent_id") and self._registry.increment_resume_count(agent_id):
            self._changed()
            self._saved()

    def get_agent_result(self, agent_id: str) -> Optional[Any]:
        """The stored result of ``agent_id``, or None (also for an id that is not a str)."""
        self._write_state()
        return self._registry.agent_result(agent_id) if _is_key(agent_id, "agent_id") else None

    def get_chain_results(self, chain_id: str) -> List[Dict[str, Any]]:
        """``[{agent_name, result, timestamp, chain_id}]`` in chain order (``[]`` for an
        unknown chain or one that is not a str)."""
        self._write_state()
        return self._registry.chain_results(chain_id) if _is_key(chain_id, "chain_id") else []

    def get_chain_summary(self, chain_id: str) -> Dict[str, Any]:
        """``{chain_id, status: "not_found"}`` or ``{chain_id, agent_count, agents,
        started_at, completed_at, status: "completed"}``; a ``chain_id`` that is not a str is
        not found, as in the seed."""
        self._write_state()
        if not _is_key(chain_id, "chain_id"):
            return {"chain_id": chain_id, "status": "not_found"}
        return self._registry.chain_summary(chain_id)

    def clear_agent_session(self, agent_name: str) -> None:
        """Forgets the name, and its id's result and metadata (a name that is not a str: no-op)."""
        self._write_state()
        if _is_key(agent_name, "agent_name") and self._registry.clear_agent(agent_name):
            self._changed()
            self._saved()
            logger.info(f"Cleared session for {agent_name}")

    def clear_chain(self, chain_id: str) -> None:
        """Forgets the chain, its ids' results and metadata, and the names pointing at them (a
        chain id that is not a str: no-op)."""
        self._write_state()
        if _is_key(chain_id, "chain_id") and self._registry.clear_chain(chain_id):
            self._changed()
            self._saved()
            logger.info(f"Cleared chain: {chain_id}")

    def get_all_sessions(self) -> Dict[str, Any]:
        """``{"sessions": {name: id}, "chains": [chain ids], "total_results": int}``."""
        self._write_state()
        return self._registry.all_sessions()

    def export_transcript(self, agent_id: str) -> Optional[Path]:
        """The path of ``agent-{agent_id}.jsonl`` in the transcript folder if it exists, else
        None (with the seed's warning). ``InvalidKeyError`` for an unsafe id. An id that is not a
        str is formatted into the name as the seed's f-string does (``5`` -> ``agent-5.jsonl``).
        The file is looked up through the transcript folder's store, as the Node package does:
        ``StorageError`` where it is a folder or a symlink leading outside that folder (the
        seed returned such a path)."""
        name = _native.export_transcript(self._transcripts, f"{agent_id}")
        if name is not None:
            return self._transcript_dir / name
        logger.warning(f"Transcript not found for agentId: {agent_id}")
        return None

    def create_chain(
        self,
        chain_id: str,
        agent_sequence: Iterable[str],
        metadata: Optional[Dict[str, Any]] = None,
    ) -> None:
        """Records ``{created_at, expected_sequence, metadata}`` in ``workflow-chains.json`` and
        adds the chain (keeping its members) to the sessions file.

        ``agent_sequence`` is any iterable of str (a list, tuple, generator, ``map``, ...),
        read once into a list before anything is written; a ``set`` is stored in its
        iteration order, which is arbitrary (as in the seed). A str, bytes or dict is refused
        (``InvalidInputError``), as is an item that is not a str (nothing written)."""
        # A str, bytes or dict is iterable, but `list()` of one is not what the caller meant
        # (letters, keys): refused rather than stored changed.
        if isinstance(agent_sequence, (str, bytes, bytearray, dict)):
            raise _wrong_type("agent_sequence", "a list of str", agent_sequence)
        try:
            sequence = list(agent_sequence)
        except TypeError:
            raise _wrong_type("agent_sequence", "a list of str", agent_sequence) from None
        self._write_state()
        self._registry.create_chain(chain_id, sequence, metadata)
        self._changed()
        # `len(sequence)`: an iterator (a generator) has no len and is spent by now.
        logger.info(f"Created workflow chain: {chain_id} with {len(sequence)} agents")

    # ------------------------------------------------------------------------ beyond the seed

    def decide_resume(
        self,
        agent_name: str,
        current_task: str,
        previous_task: Optional[str] = None,
        *,
        policy: Optional[str] = None,
        cap: Optional[int] = None,
        threshold: Optional[float] = None,
    ) -> Dict[str, Any]:
        """``{"resume": bool, "score": float, "matched": [terms], "reason": str}`` by ``policy``
        (``"compat"`` or ``"explained"``; default the constructor's), which starts new once an
        id was resumed ``cap`` times (default 5) and, ``explained`` only, resumes from a score
        of ``threshold`` (in [0, 1], default 0.3).

        Arguments that are not str get the seed's answer where the seed gives one: a name
        that is not a str is unknown; a falsy ``previous_task`` (``0``, ``[]``) is none, then
        the current task is not looked at, nor are the tasks of an agent at its resume cap. Where
        the seed fails (an unhashable name, a known agent whose tasks must be compared and are
        not str) it is ``InvalidInputError``."""
        self._write_state()
        if not _is_key(agent_name, "agent_name"):
            return _unknown_agent()
        if not previous_task:  # "" as well: the core's "no previous task" either way
            previous_task = None
        # The core looks at the name, the cap and the tasks in the seed's order.
        return self._registry.decide_resume(
            agent_name, current_task, previous_task, policy or self._policy, cap, threshold
        )

    def get_chain_status(self, chain_id: str) -> Dict[str, Any]:
        """``{chain_id, defined, expected, done, missing, out_of_order, unexpected, complete}``."""
        self._write_state()
        return self._registry.chain_status(chain_id)

    def list_agents(self, chain_id: Optional[str] = None) -> List[Dict[str, Any]]:
        """``[{agent_name, agent_id, chain_id, resume_count, has_result}]``; ``has_result`` is
        True only for a non-null result (a ``None`` result is still stored, as in the seed)."""
        self._write_state()
        return self._registry.agents(chain_id)

    def read_transcript(self, agent_id: str) -> Optional[List[Dict[str, Any]]]:
        """The lines of the transcript (``{"kind": "record", "line": n, "value": ...}``, or
        ``"invalid"``/``"torn"`` with ``error``), or None when there is none. Read as
        :meth:`export_transcript` looks it up (``StorageError`` for a folder or a symlink
        leading outside the transcript folder)."""
        return _native.read_transcript(self._transcripts, f"{agent_id}")

    def compact(self) -> None:
        """Folds the journal (``journal=True``) into the sessions file; with nothing to fold
        nothing is written (nor locked). The caller's changes of the seed's state are written
        first."""
        self._write_state()
        _compact(self._registry, self._store, self._journal_key)
        self._changed()

    def close(self) -> None:
        """Same as :meth:`compact`; the manager stays usable."""
        self.compact()


_session_manager_instance: Optional[SessionManager] = None


def get_session_manager() -> SessionManager:
    """The shared manager, created on first use in the current folder."""
    global _session_manager_instance
    if _session_manager_instance is None:
        _session_manager_instance = SessionManager()
    return _session_manager_instance


def register_agent(
    agent_name: str,
    agent_id: str,
    result: Any,
    chain_id: Optional[str] = None,
) -> None:
    """``get_session_manager().register_agent_result(...)``."""
    get_session_manager().register_agent_result(agent_name, agent_id, result, chain_id)


def get_resume_id(agent_name: str, chain_id: Optional[str] = None) -> Optional[str]:
    """``get_session_manager().get_resume_id(...)``."""
    return get_session_manager().get_resume_id(agent_name, chain_id)


def should_resume(
    agent_name: str,
    current_task: str,
    previous_task: Optional[str] = None,
) -> bool:
    """``get_session_manager().should_resume(...)``."""
    return get_session_manager().should_resume(agent_name, current_task, previous_task)
