"""FileStore, MemoryStore and host stores, through the native layer."""

import os
import stat

import pytest

from session_state import FileStore, MemoryStore, Store
from session_state.errors import InvalidKeyError, SessionStateError


@pytest.fixture(params=["file", "memory"])
def store(request, tmp_path):
    return FileStore(tmp_path) if request.param == "file" else MemoryStore()


def test_round_trip_and_listing(store):
    assert store.read("a/b.json") is None
    store.write("a/b.json", b"{}")
    store.write("a/c/d.json", b"\x00\xff")
    store.write("ab.json", b"x")
    assert store.read("a/b.json") == b"{}"
    assert store.read("a/c/d.json") == b"\x00\xff"
    assert store.list("a") == ["a/b.json", "a/c/d.json"]
    assert store.delete("a/b.json") is True
    assert store.delete("a/b.json") is False
    assert isinstance(store, Store)


@pytest.mark.parametrize("bad", ["../x", "a/../b", "/etc/passwd", "a\\b", "a\x00b", "", "x" * 256])
def test_unsafe_keys_are_invalid_key_errors(store, bad):
    with pytest.raises(InvalidKeyError) as info:
        store.write(bad, b"1")
    assert info.value.code == "invalid_key"
    assert isinstance(info.value, ValueError)


def test_file_store_is_private_and_confined(tmp_path):
    root = tmp_path / "root"
    store = FileStore(root)
    store.write("x/y.json", b"1")
    assert stat.S_IMODE(os.stat(root / "x" / "y.json").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(root / "x").st_mode) == 0o700
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, root / "link")
    with pytest.raises(SessionStateError) as info:
        store.write("link/evil.json", b"1")
    assert info.value.code == "storage"
    assert list(outside.iterdir()) == []
