"""RedisStore on a redis-server of the test's own (127.0.0.1, a free port, a temp dir)."""

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

from session_state import RedisStore, StorageError
from session_state._native import Orchestrator
from session_state.orchestrator import OrchestratorStore
from session_state.testing import run_store_conformance


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (scripts/setup installs it)")
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        proc = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", folder,
             "--save", "", "--appendonly", "yes", "--appendfsync", "always"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            url = f"redis://127.0.0.1:{port}/0"
            deadline = time.monotonic() + 20
            while True:
                try:
                    RedisStore(url).ping()
                    break
                except StorageError:
                    assert time.monotonic() < deadline, "redis-server did not start"
                    time.sleep(0.05)
            yield url
        finally:
            proc.kill()
            proc.wait()


def test_redis_store_passes_the_conformance_suite(server_url: str) -> None:
    store = RedisStore(server_url + "?prefix=py-conformance")
    report = run_store_conformance(store)
    assert report["failed"] == 0, report


def test_an_orchestrator_session_saved_on_redis_reads_back(server_url: str) -> None:
    store = RedisStore(server_url + "?prefix=py-orchestrator")
    made = Orchestrator(store).create_session("ship it", "auto", {"name": "p", "path": "/p"})
    again = Orchestrator(RedisStore(server_url + "?prefix=py-orchestrator")).load()
    assert again is not None and again["session_id"] == made["session_id"]
    assert again["goal"] == "ship it"
    assert store.list(".claude") != []


def test_a_down_server_is_a_storage_error_without_the_password() -> None:
    store = RedisStore(f"redis://:pw-123@127.0.0.1:{_free_port()}/0?connect_timeout_ms=200")
    with pytest.raises(StorageError) as caught:
        store.read("a")
    assert "pw-123" not in str(caught.value)
    assert "127.0.0.1" in str(caught.value)
    assert store.server.startswith("redis://127.0.0.1:")


def test_the_skill_orchestrator_store_takes_a_redis_store(server_url: str) -> None:
    url = server_url + "?prefix=py-skill"
    with tempfile.TemporaryDirectory() as folder:
        made = OrchestratorStore(folder, store=RedisStore(url)).create_session("on redis", "auto")
        again = OrchestratorStore(folder, store=RedisStore(url)).load()
        assert again is not None and again["session_id"] == made["session_id"]
        assert list(Path(folder).iterdir()) == []  # nothing on disk
