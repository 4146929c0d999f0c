"""session_state: save, load, resume, archive and list AI-agent orchestrator session state.

Submodules:
- :mod:`session_state.moai`: a drop-in ``SessionManager`` for MoAI-ADK (sub-agent registry);
- :mod:`session_state.registry`: ``AgentRegistry``, the sub-agent registry over any store;
- :mod:`session_state.orchestrator`: the Session State skill's functions and ``OrchestratorStore``;
- :mod:`session_state.teams`: the agent-teams spawn state (``SessionState``, ``TeamStore``);
- :mod:`session_state.stores`: ``FileStore``, ``MemoryStore`` and the ``Store`` protocol;
- :mod:`session_state.errors`: ``SessionStateError`` and one subclass per error code (all of
  them also importable from ``session_state`` itself).
"""

from . import errors, moai, orchestrator, registry, stores, teams
from ._native import ERROR_CODES, __version__
from .errors import (
    AlreadyExistsError,
    ConflictError,
    CorruptStateError,
    IncompatibleSchemaError,
    InvalidInputError,
    InvalidKeyError,
    InvalidTransitionError,
    NotFoundError,
    SessionStateError,
    StorageError,
)
from .registry import AgentRegistry
from .stores import FileStore, MemoryStore, RedisStore, Store

__all__ = [
    "ERROR_CODES",
    "AgentRegistry",
    "AlreadyExistsError",
    "ConflictError",
    "CorruptStateError",
    "FileStore",
    "IncompatibleSchemaError",
    "InvalidInputError",
    "InvalidKeyError",
    "InvalidTransitionError",
    "MemoryStore",
    "NotFoundError",
    "RedisStore",
    "SessionStateError",
    "StorageError",
    "Store",
    "__version__",
    "errors",
    "moai",
    "orchestrator",
    "registry",
    "stores",
    "teams",
]
