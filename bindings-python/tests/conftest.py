"""Shared paths and helpers of the Python tests."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, List

import pytest

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "vectors"
SHARED = REPO.parent / "shared"
ORACLE = SHARED / "reference" / "moai_session_manager.py"
SKILL_ORACLE = SHARED / "reference" / "session_state_skill.py"

TIME_KEYS = {"created_at", "last_updated", "last_resumed_at", "timestamp", "started_at", "completed_at"}
_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$")


def mask(value: Any) -> Any:
    """`value` with every registry timestamp replaced by "<time>" (None stays None)."""
    if isinstance(value, dict):
        return {
            k: ("<time>" if k in TIME_KEYS and isinstance(v, str) and _ISO.match(v) else mask(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [mask(v) for v in value]
    return value


def load_oracle(path: Path, name: str) -> Any:
    """Imports an oracle module from its file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_without_root_override(script: str, *args: str) -> "subprocess.CompletedProcess[str]":
    """Runs the Python `script` in a child process where file permissions hold: as root, in a
    new user namespace (`unshare --user`: root keeps its owner bits on root's files but loses
    CAP_DAC_OVERRIDE, and root's own Python still runs). Skips the test, with the reason, when
    root cannot have one."""
    command: List[str] = [sys.executable, "-c", script, *args]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        unshare = shutil.which("unshare")
        if unshare is None:
            pytest.skip("run as root and `unshare` is missing: permissions are not enforced for root")
        command = [unshare, "--user", *command]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0 and "unshare failed" in done.stderr:
        pytest.skip(f"run as root and user namespaces are refused: {done.stderr.strip()}")
    return done
