"""The exception hierarchy matches the core's error kinds one to one."""

import pytest

import session_state
from session_state import errors


def test_python_codes_equal_core_codes():
    # ERROR_CODES comes from the native module (ErrorKind::ALL in Rust).
    assert sorted(errors.ERRORS_BY_CODE) == sorted(session_state.ERROR_CODES)
    assert len(session_state.ERROR_CODES) == len(set(session_state.ERROR_CODES))


@pytest.mark.parametrize("code", session_state.ERROR_CODES)
def test_every_class_roots_in_the_base_and_carries_its_code(code):
    cls = errors.ERRORS_BY_CODE[code]
    assert issubclass(cls, errors.SessionStateError)
    exc = cls("boom", context={"key": "k"})
    assert exc.code == code
    assert exc.context == {"key": "k"}
    assert str(exc) == "boom"


def test_builtin_bases_users_expect():
    assert issubclass(errors.InvalidKeyError, ValueError)
    assert issubclass(errors.NotFoundError, LookupError)
    assert issubclass(errors.StorageError, OSError)
    assert issubclass(errors.CorruptStateError, ValueError)
    # A wrong argument type is also a TypeError, so `except TypeError` catches it.
    assert issubclass(errors.InvalidInputError, ValueError)
    assert issubclass(errors.InvalidInputError, TypeError)


def test_every_error_class_is_exported_from_the_package():
    for name in ["SessionStateError"] + [cls.__name__ for cls in errors.ERRORS_BY_CODE.values()]:
        assert getattr(session_state, name) is getattr(errors, name), name
        assert name in session_state.__all__, name
    from session_state import InvalidInputError, NotFoundError  # noqa: F401  (import works)
