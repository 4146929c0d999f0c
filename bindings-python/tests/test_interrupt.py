"""Ctrl-C while a change waits for another process's lock ends the wait: the caller gets
``KeyboardInterrupt`` at once and nothing is written, not even once the lock is free. The interrupt
comes from a timer thread: that it runs at all during the wait shows the wait does not hold the
interpreter lock."""

import _thread
import fcntl
import threading
import time

import pytest

from session_state.orchestrator import OrchestratorStore


def test_ctrl_c_while_waiting_for_a_lock_writes_nothing(tmp_path):
    sessions = OrchestratorStore(tmp_path)
    sessions.record_new("goal")
    current = tmp_path / ".claude" / "orchestrator-session.json"
    before = current.read_bytes()
    # Another holder of the lock (flock locks per open file, so this conflicts).
    with open(tmp_path / ".claude" / ".orchestrator-session.json.lock", "a") as holder:
        fcntl.flock(holder, fcntl.LOCK_EX)
        timer = threading.Timer(0.3, _thread.interrupt_main)
        timer.start()
        started = time.monotonic()
        try:
            with pytest.raises(KeyboardInterrupt):
                sessions.record_decision("d", "r")
        finally:
            timer.cancel()
        waited = time.monotonic() - started
        assert waited < 10, f"waited {waited:.1f} s: the lock timeout, not the interrupt"
        assert current.read_bytes() == before
        fcntl.flock(holder, fcntl.LOCK_UN)
    # The lock is free again: the change goes through.
    assert sessions.record_decision("d", "r")["decisions_made"][-1]["decision"] == "d"
