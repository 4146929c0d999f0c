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


@pytest.mark.parametrize("root", ["~/proj", "~"])
def test_file_store_expands_the_home_folder_like_the_rest_of_the_package(root, tmp_path, monkeypatch):
    from pathlib import Path

    from session_state.orchestrator import OrchestratorStore
    from session_state.teams import SpawnConfig, TeamStore

    home = tmp_path / "home"
    home.mkdir()
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(cwd)
    expected = home / root[2:] if root != "~" else home
    store = FileStore(root)
    assert Path(store.root) == expected
    store.write("a.json", b"{}")
    assert (expected / "a.json").read_bytes() == b"{}"
    assert not (cwd / "~").exists()  # no literal `~` folder
    # The same folder as OrchestratorStore and TeamStore use for that root.
    session = OrchestratorStore(root).record_new("g", suffix="abc123")
    assert (expected / ".claude" / "orchestrator-session.json").exists()
    assert session["project"]["path"] == str(expected)
    TeamStore(root=root).record_spawn("t", SpawnConfig(name="c", prompt="p"), "codex")
    assert (expected / "teams" / "t" / "sessions" / "c.json").exists()
    assert list(cwd.iterdir()) == []


def test_file_store_takes_a_path_like_root(tmp_path):
    from pathlib import Path

    assert Path(FileStore(tmp_path).root) == tmp_path


@pytest.mark.parametrize("root", ["../up", "deep/../here"])
def test_relative_roots_with_dotdot_work_for_every_path_argument(root, tmp_path, monkeypatch):
    from session_state.orchestrator import OrchestratorStore
    from session_state.teams import TeamStore

    work = tmp_path / "work"
    (work / "deep").mkdir(parents=True)
    monkeypatch.chdir(work)
    expected = os.path.abspath(root)
    FileStore(root).write("k/v.json", b"{}")
    assert open(os.path.join(expected, "k", "v.json"), "rb").read() == b"{}"
    o = OrchestratorStore(root)
    o.record_new("g", project={"name": "p", "path": "/p"}, suffix="abc123")
    assert os.path.isfile(os.path.join(expected, ".claude", "orchestrator-session.json"))
    assert TeamStore(root).list_teams() == []
