"""Stores written in Python pass the core's conformance suite, and their errors come back unchanged."""

import multiprocessing
from typing import Dict, List, Optional

import pytest

from session_state import FileStore, MemoryStore
from session_state.testing import counter_increment, run_store_conformance


class DictStore:
    """The simplest host store: a dict of bytes."""

    def __init__(self) -> None:
        self.data: Dict[str, bytes] = {}

    def read(self, key: str) -> Optional[bytes]:
        return self.data.get(key)

    def write(self, key: str, data: bytes) -> None:
        self.data[key] = bytes(data)

    def delete(self, key: str) -> bool:
        return self.data.pop(key, None) is not None

    def list(self, prefix: str) -> List[str]:
        return sorted(k for k in self.data if k.startswith(prefix + "/"))


class BrokenStore(DictStore):
    """A host store that loses the tail of long values: the suite must notice."""

    def write(self, key: str, data: bytes) -> None:
        self.data[key] = bytes(data)[:3]


class Boom(Exception):
    pass


class ExplodingStore(DictStore):
    def read(self, key: str) -> Optional[bytes]:
        raise Boom(f"no read of {key}")


@pytest.mark.parametrize("make", [DictStore, MemoryStore], ids=["host-dict", "memory"])
def test_conformance_passes(make):
    report = run_store_conformance(make())
    failures = [c for c in report["cases"] if not c["passed"]]
    assert failures == []
    assert report["failed"] == 0 and report["passed"] == len(report["cases"]) >= 10


def test_conformance_passes_on_file_store(tmp_path):
    report = run_store_conformance(FileStore(tmp_path))
    assert report["failed"] == 0, report


def test_conformance_catches_a_broken_host_store():
    report = run_store_conformance(BrokenStore())
    assert report["failed"] > 0


def test_host_exception_reaches_the_caller_unchanged():
    store = ExplodingStore()
    with pytest.raises(Boom) as info:
        counter_increment(store, "c")
    assert str(info.value) == "no read of c"


def test_object_without_store_methods_is_a_type_error():
    with pytest.raises(TypeError):
        run_store_conformance(object())


def _worker(root: str, n: int) -> None:
    store = FileStore(root)
    for _ in range(n):
        counter_increment(store, "counter")


def test_four_processes_lose_no_update(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_worker, args=(str(tmp_path), 250)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    assert FileStore(tmp_path).read("counter") == b"1000"


REENTRANT = r"""
from session_state import MemoryStore
from session_state.errors import ConflictError
from session_state.orchestrator import OrchestratorStore

class Host:
    def __init__(self):
        self.m = MemoryStore(); self.o = None; self.busy = False
    def read(self, k): return self.m.read(k)
    def write(self, k, d):
        if self.o is not None and not self.busy:
            self.busy = True
            try:
                self.o.save(self.o.load())   # an update from inside an update of the same store
            finally:
                self.busy = False
        self.m.write(k, d)
    def delete(self, k): return self.m.delete(k)
    def list(self, p): return self.m.list(p)

h = Host(); o = OrchestratorStore(store=h)
o.record_new("g", project={"name": "p", "path": "/p"}); h.o = o
try:
    o.start()
except ConflictError as e:
    print("conflict:", e)
print("status:", o.load()["status"])
"""


def test_a_host_store_reentering_an_update_gets_conflict_not_a_hang():
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", REENTRANT], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert "conflict: host store re-entered" in out.stdout, out.stdout
    assert "status: created" in out.stdout, out.stdout  # the outer move wrote nothing



LOAD_DURING_SAVE = r"""
from session_state import MemoryStore
from session_state.orchestrator import load_session, save_session

class Host:
    def __init__(self):
        self.m = MemoryStore(); self.watch = False; self.seen = []
    def read(self, k): return self.m.read(k)
    def write(self, k, d):
        if self.watch and k.endswith("orchestrator-session.json"):
            self.seen.append(load_session(store=self)["goal"])  # same handle, mid-save
        self.m.write(k, d)
    def delete(self, k): return self.m.delete(k)
    def list(self, p): return self.m.list(p)

h = Host()
save_session({"schema_version": "1.0", "session_id": "s1", "goal": "first",
              "status": "in_progress", "created": "2026-01-01T00:00:00Z",
              "updated": "2026-01-01T00:00:00Z"}, store=h)
doc = load_session(store=h); doc["goal"] = "second"
h.watch = True
save_session(doc, store=h)
print("seen:", h.seen, "now:", load_session(store=h)["goal"])
"""


def test_a_host_store_loading_while_its_handle_saves_sees_the_old_file():
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", LOAD_DURING_SAVE], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert "seen: ['first'] now: second" in out.stdout, out.stdout
