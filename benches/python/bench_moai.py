#!/usr/bin/env python3
"""Registering N results with chains: session_state.moai.SessionManager against the seed's
oracle (../shared/reference/moai_session_manager.py), in one run.

Both sides write into a fresh temporary folder of the same filesystem, neither fsyncs (the
oracle never does; ours runs with ``durable=False``: atomic rename, no fsync). Each
registration has a small result dict and one of 20 chains, as in MoAI-ADK's workflows.

    .venv/bin/python benches/python/bench_moai.py [N ...]      # default: 500 1000 2000

Prints a table: seconds per side, per registration, and the speed-up over the oracle.
"""

import importlib.util
import logging
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ORACLE = REPO.parent / "shared" / "reference" / "moai_session_manager.py"

logging.disable(logging.CRITICAL)


def oracle_class():
    if not ORACLE.exists():
        sys.exit(f"the oracle is not there: {ORACLE}")
    spec = importlib.util.spec_from_file_location("moai_oracle", ORACLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SessionManager


def run(factory, n):
    with tempfile.TemporaryDirectory(dir=tempfile.gettempdir()) as tmp:
        root = Path(tmp)
        m = factory(root)
        start = time.perf_counter()
        for i in range(n):
            m.register_agent_result(
                f"agent-{i % 50}",
                f"id-{i:06d}",
                {"status": "success", "files_created": [f"src/mod_{i}.py"], "n": i},
                f"SPEC-{i % 20:03d}",
            )
        close = getattr(m, "close", None)
        if close is not None:
            close()  # journal mode: fold the journal so the seed's file has everything
        elapsed = time.perf_counter() - start
        data = (root / "memory" / "agent-sessions.json").read_text(encoding="utf-8")
        assert data.count('"agent_name"') >= n, "not everything was written"
        return elapsed


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [500, 1000, 2000]
    Oracle = oracle_class()
    from session_state.moai import SessionManager

    def kw(root):
        return {"session_file": root / "memory" / "agent-sessions.json",
                "transcript_dir": root / "transcripts", "durable": False}

    sides = [
        ("oracle (seed)", lambda r: Oracle(**{k: v for k, v in kw(r).items() if k != "durable"})),
        ("ours, plain (default)", lambda r: SessionManager(**kw(r))),
        ("ours, journal=True", lambda r: SessionManager(**kw(r), journal=True)),
    ]
    print(f"Python {sys.version.split()[0]}, temp folder {tempfile.gettempdir()}")
    print(f"| N | {' | '.join(name for name, _ in sides)} | speed-up plain | speed-up journal |")
    print("|---:|" + "---:|" * (len(sides) + 2))
    for n in sizes:
        times = [run(f, n) for _, f in sides]
        cells = [f"{t:.2f} s ({t / n * 1e3:.2f} ms/reg)" for t in times]
        print(f"| {n:,} | {' | '.join(cells)} | {times[0] / times[1]:.1f}x | {times[0] / times[2]:.1f}x |")


if __name__ == "__main__":
    main()
