"""One lock per host store object, shared by every wrapper over it (docs/python.md, "Stores").

Two wrappers (two ``OrchestratorStore``s, an ``OrchestratorStore`` and a ``TeamStore``, or two
``counter_increment`` calls, each of which wraps the object anew) over one host object are
serialised against each other: a thread waits for the other's update, and an update started
through a second wrapper from inside the host's own ``write`` raises ``ConflictError``.
"""

import gc
import subprocess
import sys
import threading
import time
from typing import Dict, List, Optional

from session_state import MemoryStore
from session_state.testing import counter_increment


class SlowStore:
    """A host store whose reads give the GIL away, so that unserialised updates interleave."""

    def __init__(self) -> None:
        self.data: Dict[str, bytes] = {}

    def read(self, key: str) -> Optional[bytes]:
        value = self.data.get(key)
        time.sleep(0.002)
        return value

    def write(self, key: str, data: bytes) -> None:
        self.data[key] = bytes(data)

    def delete(self, key: str) -> bool:
        return self.data.pop(key, None) is not None

    def list(self, prefix: str) -> List[str]:
        return sorted(k for k in self.data if k.startswith(prefix + "/"))


def test_two_wrappers_over_one_host_object_lose_no_update():
    store = SlowStore()
    errors = []

    def work():
        try:
            for _ in range(25):
                counter_increment(store, "counter")  # a new wrapper each call
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert store.data["counter"] == b"75"


def test_distinct_host_objects_do_not_share_a_lock():
    # An update of one object from inside the write of another is not a re-entry.
    inner = SlowStore()

    class Outer(SlowStore):
        def write(self, key: str, data: bytes) -> None:
            counter_increment(inner, "inner")
            super().write(key, data)

    outer = Outer()
    assert counter_increment(outer, "c") == 1
    assert inner.data["inner"] == b"1"


def test_locks_of_dead_host_objects_are_dropped():
    # Many short-lived host objects: each gets a working lock (no stale state is reused).
    for _ in range(200):
        store = SlowStore.__new__(SlowStore)
        store.data = {}
        assert counter_increment(store, "c") == 1
        del store
        gc.collect()


REENTRANT_TWO_WRAPPERS = r"""
from session_state import MemoryStore
from session_state.errors import ConflictError
from session_state.orchestrator import OrchestratorStore
from session_state.teams import SessionState, SpawnConfig, TeamStore

class Host:
    def __init__(self):
        self.m = MemoryStore(); self.hook = None; self.busy = False
    def read(self, k): return self.m.read(k)
    def write(self, k, d):
        if self.hook is not None and not self.busy:
            self.busy = True
            try:
                self.hook()   # an update through ANOTHER wrapper of the same host object
            finally:
                self.busy = False
        self.m.write(k, d)
    def delete(self, k): return self.m.delete(k)
    def list(self, p): return self.m.list(p)

h = Host()
first, second = OrchestratorStore(store=h), OrchestratorStore(store=h)
first.record_new("g", project={"name": "p", "path": "/p"})
h.hook = lambda: second.save(second.load())
try:
    first.start()
except ConflictError as e:
    print("orchestrator conflict:", e)
print("status:", first.load()["status"])

teams = TeamStore(store=h)
h.hook = None
teams.save("t", SessionState.from_config(SpawnConfig(name="a", prompt="p"), "codex", now="2026-01-01T00:00:00Z"))
h.hook = lambda: teams.update("t", "a", {"model": "m"})
try:
    first.save(first.load())
except ConflictError as e:
    print("team conflict:", e)
h.hook = None
print("model:", teams.load("t", "a").model)
"""


def test_an_update_through_another_wrapper_from_inside_write_is_a_conflict():
    out = subprocess.run(
        [sys.executable, "-c", REENTRANT_TWO_WRAPPERS], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert "orchestrator conflict: host store re-entered" in out.stdout, out.stdout
    assert "status: created" in out.stdout, out.stdout  # the outer move wrote nothing
    assert "team conflict: host store re-entered" in out.stdout, out.stdout
    assert "model: None" in out.stdout, out.stdout


def test_file_and_memory_stores_are_unaffected():
    store = MemoryStore()
    assert counter_increment(store, "c") == 1 and counter_increment(store, "c") == 2
