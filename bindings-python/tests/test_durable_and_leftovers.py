"""Saved means saved: ``FileStore`` and ``SessionManager`` fsync each write by default, and
``durable=False`` opts out (the fsyncs are counted in a child process by a small library
preloaded into it, built with the C compiler). ``doctor`` reports the temporary files of
killed writers and ``doctor(fix=True)`` removes them.
"""

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from session_state import FileStore
from session_state.orchestrator import OrchestratorStore

COUNTER = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
static int syncs;
int fsync(int fd) {
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    __atomic_add_fetch(&syncs, 1, __ATOMIC_SEQ_CST);
    return real(fd);
}
int fdatasync(int fd) {
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    __atomic_add_fetch(&syncs, 1, __ATOMIC_SEQ_CST);
    return real(fd);
}
__attribute__((destructor)) static void report(void) {
    const char *path = getenv("SYNC_COUNT_FILE");
    FILE *out = path ? fopen(path, "w") : NULL;
    if (out) { fprintf(out, "%d", syncs); fclose(out); }
}
"""

REGISTER = textwrap.dedent(
    """
    import sys
    from session_state.moai import SessionManager
    kw = {} if sys.argv[2] == "default" else {"durable": sys.argv[2] == "True"}
    m = SessionManager(sys.argv[1] + "/.moai/memory/agent-sessions.json", **kw)
    m.register_agent_result("planner", "p-1", {"ok": True})
    """
)


def test_a_file_store_is_durable_unless_told_otherwise(tmp_path):
    assert FileStore(tmp_path).durable is True
    assert FileStore(tmp_path, durable=True).durable is True
    assert FileStore(tmp_path, durable=False).durable is False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="LD_PRELOAD counter: Linux")
def test_session_manager_fsyncs_each_write_by_default(tmp_path):
    compiler = os.environ.get("CC") or shutil.which("cc")
    assert compiler, "no C compiler to build the fsync counter"
    (tmp_path / "count.c").write_text(COUNTER)
    library = tmp_path / "count.so"
    subprocess.run(
        [compiler, "-shared", "-fPIC", "-o", str(library), str(tmp_path / "count.c"), "-ldl"],
        check=True,
    )

    def syncs(mode: str) -> int:
        root = tmp_path / mode
        root.mkdir()
        count = tmp_path / f"{mode}.count"
        env = dict(os.environ, LD_PRELOAD=str(library), SYNC_COUNT_FILE=str(count))
        subprocess.run([sys.executable, "-c", REGISTER, str(root), mode], check=True, env=env)
        return int(count.read_text())

    assert syncs("default") >= 2  # the file before its rename, its folder after
    assert syncs("True") >= 2
    assert syncs("False") == 0


def test_doctor_reports_and_removes_the_temporary_files_of_killed_writers(tmp_path):
    store = OrchestratorStore(tmp_path)
    dead = subprocess.Popen(["true"])
    dead.wait()
    claude = tmp_path / ".claude"
    claude.mkdir()
    leftover = claude / f".orchestrator-session.json.tmp-{dead.pid}-0"
    leftover.write_bytes(b"{" * 1000)
    live = claude / f".orchestrator-session.json.tmp-{os.getpid()}-1"
    live.write_bytes(b"{")

    report = store.doctor()
    assert report["leftovers"] == [{"path": f".claude/{leftover.name}", "bytes": 1000}]
    assert leftover.exists()
    assert store.doctor(fix=True)["leftovers"] == report["leftovers"]
    assert not leftover.exists()
    assert live.exists()
    assert store.doctor()["leftovers"] == []
    json.dumps(report)
