"""The team agent spawn state of the ``agent-teams`` crate (SPEC section 3).

Files ``teams/{team}/sessions/{agent}.json`` below a root that defaults to ``~/.claude``, in
exactly the crate's format: camelCase keys, omitted empty fields, ``createdAt`` in RFC 3339
UTC. The classes here are typed views of those documents; checking, parsing and writing
happen in the Rust core.

>>> from session_state.teams import SpawnConfig, SessionState, BackendType
>>> config = SpawnConfig(name="coder", prompt="You write Rust code.", model="gpt-5-codex")
>>> state = SessionState.from_config(config, BackendType.CODEX, now="2026-03-01T12:34:56Z")
>>> state.to_dict()["backendType"], state.created_at
('codex', '2026-03-01T12:34:56Z')
"""

from __future__ import annotations

import dataclasses
import enum
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Type, TypeVar, Union

from . import _native
from ._types import PrunePlan
from .errors import InvalidInputError, _path, _wrong_type
from .stores import FileStore, Store

__all__ = [
    "BackendType",
    "MemoryConfig",
    "SessionState",
    "SpawnConfig",
    "TeamListing",
    "TeamStore",
]

_T = TypeVar("_T", bound="_Document")


def _require(value: Any, cls: Type[Any], name: str) -> None:
    """``InvalidInputError`` (also a ``TypeError``) naming the argument ``name`` when ``value``
    is not a ``cls``."""
    if not isinstance(value, cls):
        article = "a dict" if cls is Mapping else f"a {cls.__name__}"
        raise _wrong_type(name, article, value)


def _backend(value: Union["BackendType", str]) -> str:
    """The backend name of ``backend_type`` (a ``BackendType`` or its string)."""
    if not isinstance(value, str):  # BackendType is a str too
        raise _wrong_type("backend_type", "a BackendType or str", value)
    return str(value)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


class BackendType(str, enum.Enum):
    """The agent backends the crate knows; ``str(BackendType.CODEX) == "codex"``."""

    CLAUDE_CODE = "claude-code"
    CODEX = "codex"
    GEMINI_CLI = "gemini-cli"

    def __str__(self) -> str:
        return self.value


@dataclass
class MemoryConfig:
    """Cross-turn memory settings (snake_case keys inside the document)."""

    max_turns: int = 5
    budget_chars: int = 4000
    extra: Dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        return {"max_turns": self.max_turns, "budget_chars": self.budget_chars, **self.extra}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "MemoryConfig":
        """``InvalidInputError`` when ``data`` is not a mapping or lacks a member."""
        _require(data, Mapping, "data")
        data = dict(data)
        for member in ("max_turns", "budget_chars"):
            if member not in data:
                raise InvalidInputError(
                    f"`data` is not a memory config: field `{member}` is missing",
                    context={"field": member},
                )
        return cls(
            max_turns=data.pop("max_turns"), budget_chars=data.pop("budget_chars"), extra=data
        )


class _Document:
    """Conversion between a dataclass (snake_case attributes) and its camelCase dict."""

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.name == "extra":
                continue
            value = getattr(self, f.name)
            if isinstance(value, MemoryConfig):
                value = value.to_dict()
            elif isinstance(value, enum.Enum):
                value = value.value
            out[_camel(f.name)] = value
        out.update(getattr(self, "extra", {}))
        return out

    @classmethod
    def _from_checked(cls: Type[_T], data: Mapping[str, Any]) -> _T:
        _require(data, Mapping, "data")
        data = dict(data)
        kwargs: Dict[str, Any] = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            key = _camel(f.name)
            if f.name != "extra" and key in data:
                value = data.pop(key)
                if f.name == "memory_config" and value is not None:
                    value = MemoryConfig.from_dict(value)
                kwargs[f.name] = value
        if any(f.name == "extra" for f in dataclasses.fields(cls)):  # type: ignore[arg-type]
            kwargs["extra"] = data
        missing = [
            _camel(f.name)
            for f in dataclasses.fields(cls)  # type: ignore[arg-type]
            if f.name not in kwargs
            and f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING
        ]
        if missing:
            raise InvalidInputError(
                f"`data` is not a {cls.__name__}: field `{missing[0]}` is missing",
                context={"field": missing[0]},
            )
        return cls(**kwargs)


@dataclass
class SpawnConfig(_Document):
    """How to spawn one agent (not persisted as such; ``delegations`` are folded into the prompt)."""

    name: str
    prompt: str
    model: Optional[str] = None
    cwd: Optional[str] = None
    max_turns: Optional[int] = None
    allowed_tools: List[str] = field(default_factory=list)
    permission_mode: Optional[str] = None
    reasoning_effort: Optional[str] = None
    env: Dict[str, str] = field(default_factory=dict)
    memory_config: Optional[MemoryConfig] = None
    delegations: List[Dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SpawnConfig":
        return cls._from_checked(data)


@dataclass
class SessionState(_Document):
    """The persisted state of one team agent (the crate's ``SessionState``)."""

    name: str
    backend_type: str
    prompt: str
    created_at: str
    model: Optional[str] = None
    cwd: Optional[str] = None
    max_turns: Optional[int] = None
    allowed_tools: List[str] = field(default_factory=list)
    permission_mode: Optional[str] = None
    reasoning_effort: Optional[str] = None
    env: Dict[str, str] = field(default_factory=dict)
    memory_config: Optional[MemoryConfig] = None
    metadata: Dict[str, str] = field(default_factory=dict)
    extra: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SessionState":
        """Checks a camelCase document (raises ``InvalidInputError`` when it does not fit)."""
        _require(data, Mapping, "data")
        return cls._from_checked(_native.team_document(dict(data)))

    @classmethod
    def from_json(cls, data: bytes) -> "SessionState":
        """Parses the bytes of a session file. ``InvalidInputError`` when they are not a session
        document, hold an integer outside the 64-bit range, or nest deeper than 100 levels."""
        return cls._from_checked(_native.team_from_json(data))

    def to_json(self) -> bytes:
        """The crate's bytes: pretty JSON, two-space indent, no trailing newline."""
        return bytes(_native.team_to_json(self.to_dict()))

    @classmethod
    def from_config(
        cls,
        config: SpawnConfig,
        backend_type: Union[BackendType, str],
        now: Optional[str] = None,
    ) -> "SessionState":
        """A new state from ``config``: ``createdAt`` = ``now`` (RFC 3339) or the system clock,
        empty ``metadata``, no delegations. ``InvalidInputError`` (also a ``TypeError``) when
        ``config`` is not a ``SpawnConfig``."""
        _require(config, SpawnConfig, "config")
        doc = _native.team_from_config(config.to_dict(), _backend(backend_type), now)
        return cls._from_checked(doc)

    def to_spawn_config(self) -> SpawnConfig:
        """The spawn config to re-spawn this agent with (no delegations)."""
        return SpawnConfig._from_checked(_native.team_to_spawn_config(self.to_dict()))

    def parse_backend_type(self) -> Optional[BackendType]:
        """The backend as a ``BackendType``, or None when the string is unknown."""
        try:
            return BackendType(self.backend_type)
        except ValueError:
            return None


@dataclass
class TeamListing:
    """A team's members sorted by agent name, and the files that were skipped (with why)."""

    team: str
    members: List[SessionState]
    skipped: List[Dict[str, str]]


class TeamStore:
    """Team session files below ``root`` (default ``~/.claude``) or in any ``store``."""

    def __init__(
        self,
        root: Union[str, "os.PathLike[str]"] = "~/.claude",
        store: Optional[Store] = None,
        *,
        max_document_bytes: Optional[int] = None,
    ) -> None:
        """Session files over ``max_document_bytes`` (default 16 MiB) are refused with
        ``InvalidInputError``."""
        if store is None:
            store = FileStore(os.path.expanduser(_path(root, "root")))
        self._native = _native.TeamStore(store, max_document_bytes=max_document_bytes)

    def save(self, team: str, state: SessionState) -> Path:
        """Writes ``state`` as ``teams/{team}/sessions/{state.name}.json``; returns that path
        relative to the store's root."""
        _require(state, SessionState, "state")
        return self._native.save(team, state.to_dict())

    def load(self, team: str, agent: str) -> SessionState:
        """Raises ``NotFoundError`` when there is no file, ``CorruptStateError`` when it does not parse."""
        return SessionState._from_checked(self._native.load(team, agent))

    def delete(self, team: str, agent: str) -> bool:
        return self._native.delete(team, agent)

    def list(self, team: str) -> TeamListing:
        listing = self._native.list(team)
        return TeamListing(
            team=listing["team"],
            members=[SessionState._from_checked(m["state"]) for m in listing["members"]],
            skipped=listing["skipped"],
        )

    def list_teams(self) -> List[Dict[str, Any]]:
        """``[{"name": team, "sessions": count}]`` sorted by name."""
        return self._native.list_teams()

    def record_spawn(
        self, team: str, config: SpawnConfig, backend_type: Union[BackendType, str]
    ) -> SessionState:
        """Saves the state of a (re-)spawn, keeping an existing ``createdAt`` and ``metadata``."""
        _require(config, SpawnConfig, "config")
        return SessionState._from_checked(
            self._native.record_spawn(team, config.to_dict(), _backend(backend_type))
        )

    def replace(self, team: str, agent: str, state: SessionState) -> SessionState:
        """Replaces the whole saved document of ``agent`` (``createdAt`` and ``metadata`` as
        given). ``InvalidInputError`` naming the attribute (``state.backend_type``) when
        ``backend_type`` changes to a backend the core does not know, as :meth:`update`."""
        _require(state, SessionState, "state")
        return SessionState._from_checked(self._native.replace(team, agent, state.to_dict()))

    def update(self, team: str, agent: str, changes: Mapping[str, Any]) -> SessionState:
        """Changes a saved member in one exclusive read-modify-write, as the Node package's
        ``TeamStore.update``: the keys of ``changes`` are document keys (camelCase, as in the
        file, e.g. ``{"metadata": {...}, "maxTurns": 7}``; ``max_turns`` is refused) and
        replace those of the stored document; other keys stay; ``None`` clears an optional
        field. Returns the state
        written. ``NotFoundError`` when there is no file, ``CorruptStateError`` when it does not
        parse, ``InvalidInputError`` naming the key (`` `changes.maxTurns` is invalid: ... ``,
        ``.context["field"]``) when the result is not a valid state, renames the agent or
        changes ``backendType`` to a backend the core does not know (nothing is written then),
        and also when ``changes`` is not a mapping."""
        if not isinstance(changes, Mapping):
            raise _wrong_type("changes", "a dict", changes)
        return SessionState._from_checked(self._native.update(team, agent, dict(changes)))

    def merge_metadata(
        self, team: str, agent: str, entries: Mapping[str, Optional[str]]
    ) -> SessionState:
        """Sets the ``metadata`` entries given (``None`` removes one) and keeps the others, in
        one exclusive read-modify-write: processes writing other entries at the same time all
        keep theirs, where ``load`` then ``update`` of the whole map drops what was written
        between the two. Returns the state written; errors as ``update``, and
        ``InvalidInputError`` naming the entry whose value is not a ``str`` or ``None``."""
        if not isinstance(entries, Mapping):
            raise _wrong_type("entries", "a dict", entries)
        return SessionState._from_checked(self._native.merge_metadata(team, agent, dict(entries)))

    def resume_plan(self, team: str) -> Dict[str, Any]:
        """For each saved member: ``{"agent", "key", "action": "respawn", "backend", "config"}``
        or ``{"agent", "key", "action": "skip", "reason", "message"}``."""
        return self._native.resume_plan(team)

    def prune(self, team: str, *, older_than_days: int, apply: bool = False) -> PrunePlan:
        """The members of ``team`` created more than ``older_than_days`` days ago: a dry run
        (nothing changed) unless ``apply``, then their files are removed. ``{applied, removed,
        kept}``."""
        return self._native.prune(team, {"older_than_days": older_than_days, "apply": apply})
