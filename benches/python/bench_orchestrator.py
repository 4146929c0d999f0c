#!/usr/bin/env python3
"""save_session / load_session of a 200-agent session: session_state.orchestrator against the
skill's functions (../shared/reference/session_state_skill.py), in one run, each in its own
temporary folder of the same filesystem (no fsync on either side).

    .venv/bin/python benches/python/bench_orchestrator.py [repeats]   # default 200

Prints a table: mean time per call and the speed-up over the skill.
"""

import copy
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SKILL = REPO.parent / "shared" / "reference" / "session_state_skill.py"


def skill_module():
    if not SKILL.exists():
        sys.exit(f"the skill oracle is not there: {SKILL}")
    spec = importlib.util.spec_from_file_location("skill_oracle", SKILL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def session(agents=200):
    return {
        "schema_version": "1.0",
        "session_id": "2025-12-27-abc123",
        "created": "2025-12-27T10:30:00Z",
        "updated": "2025-12-27T12:30:00Z",
        "project": {"name": "my-project", "path": "/path/to/my-project", "git_branch": "dev"},
        "goal": "Add sensitivity analysis to RMediation::medci()",
        "mode": "default",
        "status": "in_progress",
        "agents": [
            {
                "id": f"code-{i}", "type": "code", "task": f"Implement part {i} of the method",
                "status": "complete" if i % 3 else "in_progress",
                "started": "2025-12-27T10:35:00Z", "completed": "2025-12-27T11:35:00Z",
                "result_summary": f"part {i} done, tests green", "progress": 60,
                "context_tokens": 1200 + i,
            }
            for i in range(agents)
        ],
        "completed_work": [{"task": f"task {i}", "outcome": "ok", "files": [f"R/f{i}.R"]}
                           for i in range(50)],
        "pending_tasks": [f"pending {i}" for i in range(20)],
        "decisions_made": [{"decision": f"d{i}", "rationale": "because",
                            "timestamp": "2025-12-27T10:40:00Z"} for i in range(20)],
        "context_usage": {"estimated_tokens": 25000, "percentage": 20, "last_compression": None},
        "errors": [],
    }


def timed(fn, repeats):
    fn()  # warm up (creates folders)
    start = time.perf_counter()
    for _ in range(repeats):
        fn()
    return (time.perf_counter() - start) / repeats


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    skill = skill_module()
    from session_state import orchestrator as ours

    rows = []
    here = os.getcwd()
    try:
        for name, mod in (("skill (seed)", skill), ("ours", ours)):
            with tempfile.TemporaryDirectory() as tmp:
                os.chdir(tmp)
                state = copy.deepcopy(session())
                save = timed(lambda: mod.save_session(state), repeats)
                load = timed(mod.load_session, repeats)
                assert len(mod.load_session()["agents"]) == 200
                rows.append((name, save, load))
                os.chdir(here)
    finally:
        os.chdir(here)
    print(f"Python {sys.version.split()[0]}, 200 agents, {repeats} calls each")
    print("| side | save_session | load_session |")
    print("|---|---:|---:|")
    for name, save, load in rows:
        print(f"| {name} | {save * 1e3:.3f} ms | {load * 1e3:.3f} ms |")
    (_, s0, l0), (_, s1, l1) = rows
    print(f"| speed-up | {s0 / s1:.1f}x | {l0 / l1:.1f}x |")


if __name__ == "__main__":
    main()
