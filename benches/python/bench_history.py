#!/usr/bin/env python3
"""archive_session and list_history(limit=10) through Python at 100 to 100,000 archived
sessions, each size in its own temporary folder (in /dev/shm when there is one;
`durable=False`: no fsync).

    .venv/bin/python benches/python/bench_history.py [sizes...]   # default 100 1000 10000 100000

The archives are written as files (the seed's layout), the index is built by a first listing,
and the listing is timed once the folder's marks have settled (FsStore vouches for a mark 2 s
after the last change). Prints, per size: mean time of `list_history(limit=10)` (warm, same
process), of `archive_session` (200 more archives), how far the peak RSS of a fresh process
rises over its RSS during its first and its second listing (Linux: peak reset through
/proc/self/clear_refs), the same for a listing that parses every file (`full_scan=True`),
and the size of the head a listing reads.
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SETTLE = 2.5  # seconds: past FsStore's MARK_SETTLE (2 s)
# tmpfs when there is one: the library's own work is timed, not the waits of a disk journal
# shared with other processes.
SHM = "/dev/shm"


def document(i, status="complete"):
    return {
        "schema_version": "1.0",
        "session_id": f"2020-01-01-{i:06x}",
        "created": f"2020-01-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00Z",
        "updated": "2020-02-01T00:00:00Z",
        "project": {"name": "bench", "path": "/bench", "git_branch": "main"},
        "goal": f"Goal of archived session {i}",
        "mode": "default",
        "status": status,
        "agents": [],
        "completed_work": [],
        "pending_tasks": [],
        "decisions_made": [],
        "context_usage": {"estimated_tokens": 0, "percentage": 0, "last_compression": None},
        "errors": [],
    }


def timed(fn, repeats):
    start = time.perf_counter()
    for _ in range(repeats):
        fn()
    return (time.perf_counter() - start) / repeats


RSS = """
import sys
from session_state import orchestrator

def status(field):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field))

def grows(listing):
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # resets the peak (VmHWM) to the current RSS
    before = status("VmRSS:")
    listing()
    return status("VmHWM:") - before

if sys.argv[1] == "list":
    listing = lambda: orchestrator.list_history(10)
else:
    listing = lambda: orchestrator._here().list_history(10, full_scan=True)
print(grows(listing), grows(listing))
"""


def peak_rss_kib(folder, what):
    """KiB the peak RSS rose during the first listing of a fresh process, and the second."""
    out = subprocess.run([sys.executable, "-c", RSS, what], cwd=folder, check=True,
                         capture_output=True, text=True)
    first, again = out.stdout.split()
    return f"{int(first):,}/{int(again):,}"


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [100, 1000, 10000, 100000]
    from session_state import FileStore, orchestrator

    print("| archives | list_history(limit=10) | archive_session | peak RSS growth, first/second call: listing; full scan | head read |")
    print("|---:|---:|---:|---:|---:|")
    here = os.getcwd()
    for n in sizes:
        with tempfile.TemporaryDirectory(dir=SHM if os.path.isdir(SHM) else None) as tmp:
            folder = Path(tmp) / ".claude" / "orchestrator-history"
            folder.mkdir(parents=True)
            for i in range(n):
                (folder / f"2020-01-01-{i:06x}.json").write_text(json.dumps(document(i)))
            os.chdir(tmp)
            try:
                store = FileStore(tmp, durable=False)
                orchestrator.list_history(10, store=store)  # builds the index
                time.sleep(SETTLE)
                orchestrator.list_history(10, store=store)  # writes the head
                head = (Path(tmp) / ".claude" / "orchestrator-history.head.json").stat().st_size
                listing = timed(lambda: orchestrator.list_history(10, store=store), 200)
                assert len(orchestrator.list_history(10, store=store)) == 10
                # Peak RSS of a fresh process listing, over one only importing (the default
                # store of the current folder: this one).
                time.sleep(SETTLE)
                orchestrator.list_history(10, store=store)
                rss = peak_rss_kib(tmp, "list")
                rss_full = peak_rss_kib(tmp, "full_scan")
                count = iter(range(n, n + 200))
                archive = timed(lambda: orchestrator.archive_session(document(next(count)),
                                                                     store=store), 200)
                # No lock file per archive: none in the history folder, and in `.claude` the
                # pair of each key written under a lock (the current file, the index journal).
                locks = [p.name for p in folder.rglob("*.lock*")]
                assert not locks, locks
                locks = sorted(p.name for p in folder.parent.glob(".*.lock*"))
                assert len(locks) <= 4, locks
            finally:
                os.chdir(here)
        print(f"| {n:,} | {listing * 1e3:.3f} ms | {archive * 1e3:.3f} ms | {rss}; {rss_full} KiB | {head:,} bytes |")


if __name__ == "__main__":
    main()
