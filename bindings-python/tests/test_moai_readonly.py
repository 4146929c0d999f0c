"""``SessionManager`` over a ``.moai/memory`` folder the process may only read (mode 555, the
files readable): every read works and nothing is created there (no lock file); a
registration fails with ``StorageError``. The seed reads such a folder too.

Permissions are not enforced for root: run as root, the checks run in a child process in a
new user namespace (``unshare --user``), and are skipped with the reason when that is refused.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import run_without_root_override

SESSIONS = {
    "sessions": {"spec-builder": "agent-abc"},
    "chains": {"SPEC-1": ["agent-abc"]},
    "metadata": {
        "agent-abc": {
            "agent_name": "spec-builder",
            "created_at": "2026-03-01T12:00:00",
            "chain_id": "SPEC-1",
            "resume_count": 0,
        }
    },
    "last_updated": "2026-03-01T12:00:00",
}

# Runs in the folder given as argv[1]; prints what it saw as JSON.
CHECKS = r"""
import json, os, sys
from session_state import StorageError
from session_state.moai import SessionManager
os.chdir(sys.argv[1])
out = {}
for journal in (False, True):
    m = SessionManager(journal=journal)
    out[f"journal={journal}"] = [
        m.get_resume_id("spec-builder"),
        m.get_resume_id("spec-builder", "SPEC-1"),
        m.should_resume("spec-builder", "update the login spec", "write the login spec"),
        m.get_chain_summary("SPEC-1")["status"],
        m.get_all_sessions()["sessions"],
        len(m.list_agents()),
    ]
    m.close()
    try:
        m.register_agent_result("planner", "agent-def", {"ok": True})
        out[f"register journal={journal}"] = "written"
    except StorageError as e:
        out[f"register journal={journal}"] = e.code
    del m
print(json.dumps(out))
"""


def run_checks(root: Path, script: str = CHECKS) -> dict:
    done = run_without_root_override(script, str(root))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


def test_reads_of_a_read_only_memory_folder_work_and_create_nothing():
    root = Path(tempfile.mkdtemp(prefix="session-state-ro-"))
    memory = root / ".moai" / "memory"
    try:
        memory.mkdir(parents=True)
        (root / ".moai" / "logs" / "agent-transcripts").mkdir(parents=True)
        (memory / "agent-sessions.json").write_text(json.dumps(SESSIONS, indent=2))
        (memory / "workflow-chains.json").write_text("{}")
        os.chmod(root, 0o755)
        memory.chmod(0o555)
        before = sorted(p.name for p in memory.iterdir())
        seen = run_checks(root)
        expected = ["agent-abc", "agent-abc", True, "not_found",
                    {"spec-builder": "agent-abc"}, 1]
        # The results are not in the file (the seed's own format): the summary is not_found,
        # as the seed's after a restart.
        assert seen["journal=False"] == expected
        assert seen["journal=True"] == expected
        assert seen["register journal=False"] == "storage"
        assert seen["register journal=True"] == "storage"
        assert sorted(p.name for p in memory.iterdir()) == before  # no lock file, nothing
        assert json.loads((memory / "agent-sessions.json").read_text()) == SESSIONS
    finally:
        memory.chmod(0o755)
        shutil.rmtree(root)


# Reads with registrations waiting in the journal, then a normal exit (the manager's cleanup
# tries to fold the journal).
PENDING = r"""
import json, os, sys
from session_state.moai import SessionManager
os.chdir(sys.argv[1])
m = SessionManager(journal=True)
print(json.dumps({"late": m.get_resume_id("late-agent")}))
"""


def test_a_pending_journal_in_a_read_only_folder_is_read_and_exit_prints_no_traceback():
    # At exit the cleanup cannot fold the journal here: it must not print a traceback.
    root = Path(tempfile.mkdtemp(prefix="session-state-ro-"))
    memory = root / ".moai" / "memory"
    try:
        memory.mkdir(parents=True)
        (memory / "agent-sessions.json").write_text(json.dumps(SESSIONS, indent=2))
        # The writer leaves without its cleanup (`os._exit`): the registration stays pending.
        writer = (
            "import os, sys\nfrom session_state.moai import SessionManager\nos.chdir(sys.argv[1])\n"
            "m = SessionManager(journal=True)\n"
            "m.register_agent_result('late-agent', 'agent-late', {})\n"
            "os._exit(0)\n"
        )
        subprocess.run([sys.executable, "-c", writer, str(root)], check=True)
        journal = (memory / "agent-sessions.journal.jsonl").read_bytes()
        assert b"agent-late" in journal
        os.chmod(root, 0o755)
        memory.chmod(0o555)
        assert run_checks(root, PENDING) == {"late": "agent-late"}
        assert (memory / "agent-sessions.journal.jsonl").read_bytes() == journal
    finally:
        memory.chmod(0o755)
        shutil.rmtree(root)
