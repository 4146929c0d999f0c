"""Ctrl-C while a change waits for another process's lock ends the wait: the caller gets
``KeyboardInterrupt`` at once and nothing is written, not even once the lock is free. The interrupt
comes from a timer thread: that it runs at all during the wait shows the wait does not hold the
interpreter lock."""

import _thread
import fcntl
import json
import subprocess
import sys
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


# `OrchestratorStore.save` of a FileStore first tries its commit on a helper thread while this
# one builds the saved dict; a taken lock hands the commit back to this thread, which waits as
# any change does. Run in a child, so that a wait that never ends fails the test, not the run.
SAVE_WHILE_LOCKED = r"""
import _thread, fcntl, json, sys, threading, time
from session_state import FileStore
from session_state.orchestrator import OrchestratorStore

root, ending = sys.argv[1], sys.argv[2]
sessions = OrchestratorStore(store=FileStore(root))
doc = sessions.record_new("goal")
with open(f"{root}/.claude/.orchestrator-session.json.lock", "a") as holder:
    fcntl.flock(holder, fcntl.LOCK_EX)
    end = (lambda: fcntl.flock(holder, fcntl.LOCK_UN)) if ending == "release" else _thread.interrupt_main
    threading.Timer(0.5, end).start()
    started = time.monotonic()
    try:
        outcome = sessions.save({**doc, "goal": "new"})["goal"]
    except KeyboardInterrupt:
        outcome = "KeyboardInterrupt"
    print(json.dumps({"waited": time.monotonic() - started, "outcome": outcome}))
"""


@pytest.mark.parametrize("ending, outcome, goal", [
    ("release", "new", "new"),
    ("interrupt", "KeyboardInterrupt", "goal"),
])
def test_a_save_meeting_a_taken_lock_waits_on_the_callers_thread(tmp_path, ending, outcome, goal):
    run = subprocess.run([sys.executable, "-c", SAVE_WHILE_LOCKED, str(tmp_path), ending],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["outcome"] == outcome
    assert 0.4 < result["waited"] < 10, result
    current = tmp_path / ".claude" / "orchestrator-session.json"
    assert json.loads(current.read_text(encoding="utf-8"))["goal"] == goal
