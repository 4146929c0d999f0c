"""Stores: where session_state keeps its bytes.

``FileStore(root)`` keeps them in files below a folder (atomic writes, cross-process locks,
private files); ``MemoryStore()`` in memory. Any object with the four methods of the
:class:`Store` protocol works as well; an exception it raises reaches the caller unchanged.
A host store is used from one process: session_state serialises its read-modify-writes with
one lock per host object (shared by every ``OrchestratorStore``, ``TeamStore``, ... over that
object), but cannot lock across processes for it. An update started from inside the host's
own methods on the same object raises ``ConflictError`` instead of deadlocking.

A method that returns the wrong type (``read`` something other than ``bytes``, ``str`` or
None, ``delete`` something other than a ``bool``, ``list`` something other than a list of
``str``) raises ``StorageError`` naming the method, the key and the type; what ``write``
returns is ignored.
"""

from __future__ import annotations

from typing import List, Optional, Union

try:  # Python 3.8+: typing.Protocol
    from typing import Protocol, runtime_checkable
except ImportError:  # pragma: no cover
    from typing_extensions import Protocol, runtime_checkable  # type: ignore

from ._native import FileStore, MemoryStore, RedisStore


@runtime_checkable
class Store(Protocol):
    """What a host store implements. Keys are ``/``-separated relative paths such as
    ``.claude/orchestrator-session.json``; values are bytes."""

    def read(self, key: str) -> Optional[Union[bytes, str]]:
        """The bytes under ``key``, or None when there are none. A ``str`` is taken as its
        UTF-8 bytes (``bytearray`` and ``memoryview`` are accepted too)."""

    def write(self, key: str, data: bytes) -> None:
        """Replace the bytes under ``key`` (atomically, if the store can)."""

    def delete(self, key: str) -> bool:
        """Remove ``key``; True if it existed."""

    def list(self, prefix: str) -> List[str]:
        """Every key strictly below the folder key ``prefix``, at any depth."""


__all__ = ["FileStore", "MemoryStore", "RedisStore", "Store"]
