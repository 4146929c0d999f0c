"""The exceptions of session_state: one base class, one subclass per core error kind.

Every error the library raises is a :class:`SessionStateError` whose ``code`` is the core's
stable kind code (``"corrupt_state"``, ``"invalid_key"``, ...). Each subclass also derives from
the built-in exception a Python user would expect (``InvalidKeyError`` is a ``ValueError``,
``NotFoundError`` a ``LookupError``, ``StorageError`` an ``OSError``, ``InvalidInputError`` both a
``ValueError`` and a ``TypeError``), so existing ``except`` clauses keep working. An exception
raised by a host store is re-raised unchanged, not wrapped.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Type


class SessionStateError(Exception):
    """Base class of every session_state error.

    Attributes:
        code: the core kind code, e.g. ``"corrupt_state"``.
        context: extra facts such as ``{"key": ".claude/orchestrator-session.json"}``.
        salvaged: for ``corrupt_state`` errors of a load, what could be recovered (a dict), else None.
        hint: what the caller may do, when the core knows (``"replace"``: pass ``replace=True``;
            ``"repair"``; ``"raise_limit"``), else None.
    """

    code: str = "session_state_error"

    def __init__(
        self,
        message: str,
        *,
        context: Optional[Dict[str, str]] = None,
        salvaged: Optional[Any] = None,
        hint: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.context: Dict[str, str] = dict(context or {})
        self.salvaged = salvaged
        self.hint = hint


class NotFoundError(SessionStateError, LookupError):
    """A session, agent, chain, team or key that was asked for does not exist."""

    code = "not_found"


class InvalidKeyError(SessionStateError, ValueError):
    """An id or key is not a safe key segment (``..``, ``a/b``, NUL, over 255 bytes, ...)."""

    code = "invalid_key"


class CorruptStateError(SessionStateError, ValueError):
    """Stored bytes do not parse as the expected document; ``salvaged`` may hold what could be."""

    code = "corrupt_state"


class IncompatibleSchemaError(SessionStateError, ValueError):
    """The document declares a ``schema_version`` this library does not read."""

    code = "incompatible_schema"


class InvalidTransitionError(SessionStateError, ValueError):
    """A lifecycle move the state machine does not allow (e.g. ``complete -> in_progress``)."""

    code = "invalid_transition"


class ConflictError(SessionStateError, RuntimeError):
    """A concurrent writer changed the value first."""

    code = "conflict"


class AlreadyExistsError(SessionStateError, FileExistsError):
    """The target exists and replacing it was not asked for (e.g. an archive id)."""

    code = "already_exists"


class InvalidInputError(SessionStateError, ValueError, TypeError):
    """An argument is malformed (wrong type, wrong shape, out of range, too large). Also a
    ``TypeError``, so that code catching the built-in error of a wrong argument type keeps
    working. ``.context["argument"]`` names the argument when its type is wrong."""

    code = "invalid_input"


class StorageError(SessionStateError, OSError):
    """The store failed (I/O error, permission, quota)."""

    code = "storage"


ERRORS_BY_CODE: Dict[str, Type[SessionStateError]] = {
    cls.code: cls
    for cls in (
        NotFoundError,
        InvalidKeyError,
        CorruptStateError,
        IncompatibleSchemaError,
        InvalidTransitionError,
        ConflictError,
        AlreadyExistsError,
        InvalidInputError,
        StorageError,
    )
}

def _wrong_type(name: str, expected: str, value: Any) -> InvalidInputError:
    """``InvalidInputError``: `` `name` must be {expected}, not {type} `` with
    ``context["argument"]``, as the native half words it."""
    return InvalidInputError(
        f"`{name}` must be {expected}, not {type(value).__name__}", context={"argument": name}
    )


def _path(value: Any, name: str) -> str:
    """The ``str`` path of ``value`` (a ``str`` or ``os.PathLike`` of ``str``), or
    ``InvalidInputError`` naming the argument ``name``."""
    import os

    try:
        path = os.fspath(value)
    except TypeError:
        path = None
    if not isinstance(path, str):
        raise _wrong_type(name, "a str or os.PathLike", value)
    return path


__all__ = ["ERRORS_BY_CODE", "SessionStateError"] + [
    cls.__name__ for cls in ERRORS_BY_CODE.values()
]
