"""OrchestratorStore fork, history_tree, prune_history and the resume options;
AgentRegistry.prune and TeamStore.prune, over a FileStore in a temporary folder."""

import json
from pathlib import Path

import pytest

from session_state import AgentRegistry, FileStore
from session_state.errors import AlreadyExistsError, InvalidInputError
from session_state.orchestrator import OrchestratorStore, render_resume, resume_summary
from session_state.teams import BackendType, SessionState, SpawnConfig, TeamStore

HISTORY = ".claude/orchestrator-history"
OLD = "2020-01-01T00:00:00Z"


def files(root: Path) -> dict:
    """Every file below `root` with its bytes (lock and queue files excluded: the file store
    keeps one pair per key written under a lock, and a delete removes its key's pair)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and ".lock" not in p.name}


def test_fork_keeps_the_original_and_records_forked_from(tmp_path):
    sessions = OrchestratorStore(store=FileStore(tmp_path))
    original = sessions.record_new("goal", suffix="orig01")
    sessions.start()
    sessions.record_decision("use x", "because")
    forked = sessions.fork(new_id="2026-01-01-fork01")
    assert forked["session_id"] == "2026-01-01-fork01"
    assert forked["forked_from"]["session_id"] == original["session_id"]
    assert forked["status"] == "created"
    assert forked["goal"] == "goal"
    assert sessions.load()["session_id"] == "2026-01-01-fork01"
    kept = json.loads((tmp_path / HISTORY / f"{original['session_id']}.json").read_bytes())
    assert kept["status"] == "in_progress"
    assert kept["decisions_made"][0]["decision"] == "use x"
    assert "forked_from" not in kept
    tree = sessions.history_tree()
    by_id = {e["id"]: e for e in tree["entries"]}
    assert by_id[original["session_id"]]["depth"] == 0
    assert by_id["2026-01-01-fork01"]["depth"] == 1
    assert by_id["2026-01-01-fork01"]["forked_from"] == original["session_id"]
    assert by_id["2026-01-01-fork01"]["current"] is True
    # Forking the archived original while the fork is current needs `archive_current`.
    before = files(tmp_path)
    with pytest.raises(AlreadyExistsError) as refused:
        sessions.fork(original["session_id"], new_id="2026-01-01-fork02")
    assert refused.value.hint == "archive_current"
    assert files(tmp_path) == before
    again = sessions.fork(original["session_id"], new_id="2026-01-01-fork02", archive_current=True)
    assert again["forked_from"]["session_id"] == original["session_id"]
    assert (tmp_path / HISTORY / "2026-01-01-fork01.json").is_file()


def archived(tmp_path: Path, count: int) -> OrchestratorStore:
    """A store with `count` completed sessions in its history."""
    sessions = OrchestratorStore(store=FileStore(tmp_path))
    for n in range(count):
        sessions.record_new(f"goal {n}", suffix=f"s{n:05}")
        sessions.start()
        sessions.complete()
    return sessions


def test_prune_history_dry_run_changes_nothing_and_apply_removes_the_plan(tmp_path):
    sessions = archived(tmp_path, 4)
    before = files(tmp_path)
    plan = sessions.prune_history(keep=1)
    assert plan["applied"] is False
    assert len(plan["removed"]) == 3
    assert all(r["kind"] == "session" for r in plan["removed"])
    assert files(tmp_path) == before
    applied = sessions.prune_history(keep=1, apply=True)
    assert applied["applied"] is True
    assert applied["removed"] == plan["removed"]
    gone = {key for r in plan["removed"] for key in r["removes"]}
    after = files(tmp_path)
    assert gone and not gone & set(after)
    history = {k for k in before if k.startswith(HISTORY + "/") and k.endswith(".json")}
    assert {k for k in after if k in history} == history - gone
    assert sessions.list_history()["total"] == 1


def test_prune_history_needs_a_criterion(tmp_path):
    sessions = archived(tmp_path, 1)
    with pytest.raises(InvalidInputError):
        sessions.prune_history()


def test_resume_summary_says_stale(tmp_path):
    sessions = OrchestratorStore(store=FileStore(tmp_path))
    sessions.record_new("goal", suffix="stale1")
    current = tmp_path / ".claude" / "orchestrator-session.json"
    doc = json.loads(current.read_bytes())
    doc["updated"] = OLD
    doc["project"]["git_head"] = {"commit": "a" * 40, "branch": "main"}
    current.write_text(json.dumps(doc))
    fresh = resume_summary(doc, now="2020-01-01T01:00:00Z")
    assert fresh.get("stale", {}) == {}
    summary = resume_summary(
        doc,
        now="2020-01-03T00:00:00Z",
        stale_after_hours=24,
        git_head={"commit": "b" * 40, "branch": "main"},
    )
    assert summary["stale"]["idle"]["limit_hours"] == 24
    assert summary["stale"]["head_moved"]["commit_changed"] is True
    assert summary["stale"]["head_moved"]["branch_changed"] is False
    markdown = render_resume(doc, now="2020-01-03T00:00:00Z", stale_after_hours=24)
    assert "⚠️" in markdown
    assert "⚠️" not in render_resume(doc, now="2020-01-01T01:00:00Z")
    stored = sessions.resume_summary(stale_after_hours=1)
    assert stored is not None
    assert stored["stale"]["idle"]["limit_hours"] == 1
    assert "head_moved" not in stored["stale"]  # no repository: HEAD not compared


def test_saves_record_the_git_head_of_the_file_store(tmp_path):
    (tmp_path / ".git" / "refs" / "heads").mkdir(parents=True)
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/feature\n")
    (tmp_path / ".git" / "refs" / "heads" / "feature").write_text("c" * 40 + "\n")
    sessions = OrchestratorStore(store=FileStore(tmp_path))
    doc = sessions.record_new("goal", suffix="head01")
    assert doc["project"]["git_head"] == {"commit": "c" * 40, "branch": "feature"}
    (tmp_path / ".git" / "refs" / "heads" / "feature").write_text("d" * 40 + "\n")
    moved = OrchestratorStore(store=FileStore(tmp_path)).resume_summary()
    assert moved["stale"]["head_moved"]["commit_changed"] is True


def test_registry_prune(tmp_path):
    registry = AgentRegistry(FileStore(tmp_path))
    registry.register("old-agent", "agent-old", {"r": 1}, "chain-old")
    registry.register("new-agent", "agent-new", {"r": 2}, "chain-new")
    path = tmp_path / ".moai" / "memory" / "agent-sessions.json"
    doc = json.loads(path.read_bytes())
    doc["metadata"]["agent-old"]["created_at"] = "2020-01-01T00:00:00"
    path.write_text(json.dumps(doc))
    before = files(tmp_path)
    plan = registry.prune(older_than_days=30)
    assert plan["applied"] is False
    assert [(r["kind"], r["id"]) for r in plan["removed"]] == [
        ("agent", "agent-old"),
        ("chain", "chain-old"),
    ]
    assert files(tmp_path) == before
    assert registry.prune(older_than_days=30, keep_agent_ids=["agent-old"])["removed"] == []
    applied = registry.prune(older_than_days=30, apply=True)
    assert applied["removed"] == plan["removed"]
    assert registry.agent_result("agent-old") is None
    assert registry.resume_id("old-agent") is None
    assert registry.agent_result("agent-new") == {"r": 2}
    with pytest.raises(InvalidInputError):
        registry.prune(apply=True)


def test_team_prune(tmp_path):
    teams = TeamStore(store=FileStore(tmp_path))
    for name, now in [("old", "2020-01-01T00:00:00Z"), ("new", None)]:
        config = SpawnConfig(name=name, prompt="p", model="m")
        teams.save("t", SessionState.from_config(config, BackendType.CODEX, now=now))
    before = files(tmp_path)
    plan = teams.prune("t", older_than_days=30)
    assert plan["applied"] is False
    assert [r["id"] for r in plan["removed"]] == ["old"]
    assert files(tmp_path) == before
    applied = teams.prune("t", older_than_days=30, apply=True)
    assert applied["removed"] == plan["removed"]
    gone = set(plan["removed"][0]["removes"])
    assert set(before) - set(files(tmp_path)) == gone
    assert [m.name for m in teams.list("t").members] == ["new"]
