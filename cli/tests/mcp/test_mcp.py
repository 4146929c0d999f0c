"""`session-state mcp` through the official MCP Python SDK: the tool list and schemas, the
skill's whole flow by tool calls with the files checked on disk, the registry and team tools,
hostile calls (tool errors, nothing written), and a client that disconnects mid-call."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import anyio
from conftest import BIN, FIXTURES, connect, fails, ok, server_args

TOOLS = {
    # orchestrator session
    "resume", "show", "history", "archive", "start", "pause", "continue", "complete", "abort",
    "doctor",
    # recording (auto-save points)
    "new", "agent_start", "agent_progress", "agent_done", "agent_fail", "decision", "task_add",
    "task_done", "context", "save",
    # sub-agent registry
    "register", "should_resume", "chain",
    # teams
    "teams", "team",
    # fork, lineage, retention
    "fork", "history_tree", "prune",
}
READ_ONLY = {
    "resume", "show", "history", "doctor", "should_resume", "chain", "teams", "team", "history_tree",
}
DESTRUCTIVE = {"prune"}
CURRENT = Path(".claude/orchestrator-session.json")


def project(tmp_path: Path) -> Path:
    root = tmp_path / "my-project"
    root.mkdir()
    return root


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes (lock files excluded: taking a lock may create
    one, which writes no state)."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".lock" not in p.name
    }


def test_every_tool_is_listed_with_an_input_schema(tmp_path: Path) -> None:
    async def main() -> None:
        async with connect(project(tmp_path)) as s:
            tools = (await s.list_tools()).tools
            assert {t.name for t in tools} == TOOLS
            assert len(tools) == len(TOOLS)
            for t in tools:
                schema = t.input_schema
                assert schema["type"] == "object", t.name
                assert schema.get("additionalProperties") is False, t.name
                assert t.description, t.name
                assert t.annotations is not None and t.annotations.read_only_hint == (t.name in READ_ONLY), t.name
                assert t.annotations.destructive_hint == (t.name in DESTRUCTIVE), t.name
            by_name = {t.name: t.input_schema for t in tools}
            assert set(by_name["new"]["required"]) == {"goal"}
            assert set(by_name["agent_start"]["required"]) == {"id", "type", "task"}
            assert set(by_name["should_resume"]["required"]) == {"agent_name", "task"}
            assert set(by_name["history"].get("properties", {})) == {"limit", "offset", "status"}
            assert "apply" in by_name["prune"]["properties"]
            assert "required" not in by_name["prune"]

    anyio.run(main)


def test_the_skills_whole_flow_through_tool_calls(tmp_path: Path) -> None:
    root = project(tmp_path)

    async def main() -> None:
        async with connect(root) as s:
            await fails(s, "resume", {}, "not_found")
            await fails(s, "agent_start", {"id": "a", "type": "x", "task": "t"}, "not_found")
            assert not (root / ".claude").exists()

            doc = await ok(s, "new", goal="Add sensitivity analysis", id="2026-12-01-mcp001")
            assert (doc["session_id"], doc["status"]) == ("2026-12-01-mcp001", "created")
            assert doc["project"]["name"] == "my-project"
            assert doc["project"]["path"] == str(root)
            err = await fails(s, "new", {"goal": "another"}, "already_exists")
            assert "2026-12-01-mcp001" in err["message"]

            doc = await ok(s, "agent_start", id="arch-1", type="arch", task="Design the API")
            assert doc["status"] == "in_progress"
            await ok(s, "agent_start", id="code-1", type="code", task="Write the code")
            await ok(s, "agent_progress", id="code-1", percent=40)
            await ok(s, "agent_done", id="arch-1", summary="API designed", tokens=1200, files=["docs/api.md"])
            await ok(s, "decision", decision="Use JSON files", why="No database needed")
            await ok(s, "task_add", task="Write tests")
            await ok(s, "task_add", task="Update docs")
            doc = await ok(s, "task_done", task=1, outcome="12 tests", files=["tests/x.rs"])
            assert doc["pending_tasks"] == ["Update docs"]
            await ok(s, "task_done", task="Update docs", outcome="README updated")
            doc = await ok(s, "context", tokens=45000, percent=36, compressed=True)
            assert doc["context_usage"]["last_compression"]

            result = await s.call_tool("resume", {})
            assert not result.is_error
            markdown = result.content[0].text  # type: ignore[union-attr]
            assert markdown.startswith("## 🔄 RESUMING SESSION")
            assert "Add sensitivity analysis" in markdown and "API designed" in markdown
            summary = result.structured_content
            assert summary is not None and summary["session_id"] == "2026-12-01-mcp001"
            assert [a["id"] for a in summary["in_progress"]] == ["code-1"]

            doc = await ok(s, "pause")
            assert doc["status"] == "paused"
            await ok(s, "agent_done", id="code-1", summary="code written")  # recorded, stays paused
            assert (await ok(s, "show"))["status"] == "paused"
            doc = await ok(s, "continue")
            assert doc["status"] == "in_progress"
            await ok(s, "save")
            doc = await ok(s, "complete")
            assert doc["status"] == "complete"
            await fails(s, "resume", {}, "not_found")

            page = await ok(s, "history")
            assert page["total"] == 1 and page["skipped"] == []
            assert [(e["id"], e["status"]) for e in page["entries"]] == [("2026-12-01-mcp001", "complete")]
            assert (await ok(s, "history", status="aborted"))["total"] == 0
            assert (await ok(s, "history", offset=1))["entries"] == []
            report = await ok(s, "doctor")
            assert report["problem_count"] == 0

        # On disk: no current session; the archive holds the whole flow.
        assert not (root / CURRENT).exists()
        archived = json.loads((root / ".claude/orchestrator-history/2026-12-01-mcp001.json").read_text())
        assert archived["status"] == "complete"
        assert {a["id"]: a["status"] for a in archived["agents"]} == {"arch-1": "complete", "code-1": "complete"}
        assert [w["task"] for w in archived["completed_work"]] == [
            "Design the API", "Write tests", "Update docs", "Write the code",
        ]
        assert archived["completed_work"][0]["files"] == ["docs/api.md"]
        assert archived["decisions_made"][0]["decision"] == "Use JSON files"
        assert archived["decisions_made"][0]["rationale"] == "No database needed"
        assert archived["pending_tasks"] == []
        assert archived["context_usage"]["estimated_tokens"] == 45000
        assert archived["context_usage"]["last_compression"]
        leftovers = [p.name for p in (root / ".claude").iterdir() if ".tmp-" in p.name]
        assert leftovers == []

    anyio.run(main)


def test_registry_and_team_tools(tmp_path: Path) -> None:
    root = project(tmp_path)
    teams_root = tmp_path / "claude-home"
    sessions = teams_root / "teams" / "my-team" / "sessions"
    sessions.mkdir(parents=True)
    for name in ("coder", "reviewer"):
        shutil.copy(FIXTURES / f"{name}.json", sessions / f"{name}.json")

    async def main() -> None:
        async with connect(root, "--teams-root", str(teams_root)) as s:
            await ok(s, "register", agent_name="spec-builder", agent_id="spec-abc123",
                     chain="SPEC-1", result={"status": "success"})
            stored = json.loads((root / ".moai/memory/agent-sessions.json").read_text())
            assert stored["sessions"]["spec-builder"] == "spec-abc123"

            compat = await ok(s, "should_resume", agent_name="spec-builder",
                              task="update profiles", previous="rename files")
            assert compat == {"resume": True}
            explained = await ok(s, "should_resume", agent_name="spec-builder",
                                 task="update profiles", previous="rename files", policy="explained")
            assert explained["resume"] is False and explained["reason"] == "unrelated"
            assert set(explained) == {"resume", "score", "matched", "reason"}
            related = await ok(s, "should_resume", agent_name="spec-builder", task="run the tests again",
                               previous="run the tests", policy="explained", threshold=0.5)
            assert related["resume"] is True and related["score"] >= 0.5 and related["matched"]

            chain = await ok(s, "chain", chain_id="SPEC-1")
            assert chain["summary"]["agents"] == ["spec-builder"]
            assert chain["status"]["defined"] is False
            await fails(s, "chain", {"chain_id": "SPEC-404"}, "not_found")

            teams = await ok(s, "teams")
            assert teams == {"teams": [{"name": "my-team", "sessions": 2}]}
            members = await ok(s, "team", team="my-team")
            assert [m["agent"] for m in members["members"]] == ["coder", "reviewer"]
            plan = await ok(s, "team", team="my-team", resume_plan=True)
            assert [m["agent"] for m in plan["members"]] == ["coder", "reviewer"]
            await fails(s, "team", {"team": "no-such-team"}, "not_found")

    anyio.run(main)


HUGE = "x" * (80 * 1024)  # over the 64 KiB limit the hostile server is started with


def nested(levels: int) -> Any:
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


def hostile_calls() -> list[tuple[str, dict[str, Any], str]]:
    return [
        # unsafe ids and names
        ("new", {"goal": "g", "id": "../../escaped", "archive_current": True}, "invalid_key"),
        ("new", {"goal": "g", "id": "a/b", "archive_current": True}, "invalid_key"),
        ("register", {"agent_name": "a", "agent_id": "../../x"}, "invalid_key"),
        ("register", {"agent_name": "a", "agent_id": "x\u0000y"}, "invalid_key"),
        ("team", {"team": "../../etc"}, "invalid_key"),
        # wrong types
        ("agent_progress", {"id": "a1", "percent": "fifty"}, "invalid_input"),
        ("agent_progress", {"id": "a1", "percent": 101}, "invalid_input"),
        ("agent_progress", {"id": "a1", "percent": -1}, "invalid_input"),
        ("history", {"limit": "ten"}, "invalid_input"),
        ("history", {"status": "finished"}, "invalid_input"),
        ("context", {"tokens": "many"}, "invalid_input"),
        ("complete", {"replace": "yes"}, "invalid_input"),
        ("agent_done", {"id": "a1", "files": "one.txt"}, "invalid_input"),
        ("should_resume", {"agent_name": "a", "task": "t", "policy": "magic"}, "invalid_input"),
        ("should_resume", {"agent_name": "a", "task": "t", "threshold": 2}, "invalid_input"),
        # missing arguments and unknown ones
        ("agent_start", {"id": "a2", "type": "code"}, "invalid_input"),
        ("decision", {}, "invalid_input"),
        ("task_done", {"outcome": "done"}, "invalid_input"),
        ("pause", {"force": True}, "invalid_input"),
        ("agent_start", {"id": "a2", "type": "code", "task": "t", "extra": 1}, "invalid_input"),
        # huge strings
        ("decision", {"decision": HUGE}, "invalid_input"),
        ("agent_start", {"id": "a2", "type": "code", "task": HUGE}, "invalid_input"),
        ("register", {"agent_name": "a", "agent_id": "b", "result": {"blob": HUGE}}, "invalid_input"),
        ("new", {"goal": HUGE, "archive_current": True}, "invalid_input"),
        ("register", {"agent_name": "a", "agent_id": "b", "result": nested(110)}, "invalid_input"),
        # unknown tools
        ("no_such_tool", {}, "not_found"),
        ("../resume", {}, "not_found"),
        # valid calls the state refuses
        ("agent_done", {"id": "nobody"}, "not_found"),
        ("task_done", {"task": 7, "outcome": "x"}, "not_found"),
        ("chain", {"chain_id": "nothing"}, "not_found"),
    ]


def test_hostile_calls_are_tool_errors_and_write_nothing(tmp_path: Path) -> None:
    root = project(tmp_path)
    errlog = tmp_path / "server.stderr"

    async def main() -> None:
        async with connect(root, "--max-bytes", "64KiB", errlog=errlog) as s:
            await ok(s, "new", goal="g", id="2026-12-01-hostile")
            await ok(s, "agent_start", id="a1", type="code", task="t")
            await ok(s, "register", agent_name="a", agent_id="b")
            before = snapshot(tmp_path)
            for tool, arguments, code in hostile_calls():
                await fails(s, tool, arguments, code)
            # A member of the wrong type or range is named as the other front ends name it.
            for tool, arguments, field, said in [
                ("new", {"goal": 123}, "goal", "expected a string"),
                ("context", {"tokens": -1}, "tokens", "a whole number from 0 to"),
                ("history", {"limit": 1.5}, "limit", "a whole number from 0 up"),
                ("agent_done", {"id": "a1", "files": ["f", 2]}, "files[1]", "expected a string"),
            ]:
                error = await fails(s, tool, arguments, "invalid_input")
                assert error["context"] == {"field": field, "tool": tool}, error
                assert error["message"].startswith(f"`{field}` is invalid: "), error
                assert said in error["message"], error
            error = await fails(s, "decision", {}, "invalid_input")
            assert error["context"] == {"tool": "decision"}, error
            assert error["message"] == "the arguments are invalid: missing field `decision`", error
            assert snapshot(tmp_path) == before
            # Still serving after all of them.
            assert (await ok(s, "show"))["session_id"] == "2026-12-01-hostile"
            await ok(s, "complete")
            before = snapshot(tmp_path)
            await fails(s, "pause", {}, "not_found")
            assert snapshot(tmp_path) == before

    anyio.run(main)
    stderr = errlog.read_text()
    assert "panicked" not in stderr, stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my-project", "server.stderr"]


def test_a_refused_move_is_a_tool_error_and_changes_nothing(tmp_path: Path) -> None:
    root = project(tmp_path)

    async def main() -> None:
        async with connect(root) as s:
            await ok(s, "new", goal="g", id="2026-12-01-move")
            await ok(s, "start")
            await ok(s, "pause")
            before = snapshot(root)
            error = await fails(s, "complete", {}, "invalid_transition")
            assert error["context"] == {"from": "paused", "to": "complete"}
            assert snapshot(root) == before
            assert (await ok(s, "abort"))["status"] == "aborted"
            error = await fails(s, "new", {"goal": "g", "id": "2026-12-01-move"}, "already_exists")
            assert "2026-12-01-move" in error["message"]
            assert not (root / CURRENT).exists()

    anyio.run(main)


def jsonrpc(message: dict[str, Any]) -> bytes:
    return (json.dumps(message) + "\n").encode()


def test_a_client_that_disconnects_mid_call(tmp_path: Path) -> None:
    """The client sends a write and closes the connection while the call waits for the
    session file's lock (held here): the call, once started, runs to its end, the server then
    exits 0 without a panic, and the file is a whole document that a new server serves."""
    root = project(tmp_path)
    subprocess.run([BIN, "new", "--goal", "g", "--id", "2026-12-01-drop", "--root", str(root)],
                   check=True, capture_output=True)
    lock_path = root / ".claude" / ".orchestrator-session.json.lock"
    with open(lock_path, "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        server = subprocess.Popen([BIN, *server_args(root)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(jsonrpc({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}}))
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 1
        server.stdin.write(jsonrpc({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        server.stdin.write(jsonrpc({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "decision", "arguments": {"decision": "made while the client went away"}}}))
        server.stdin.flush()
        time.sleep(0.5)  # the call is now waiting for the lock
        server.stdin.close()
        server.stdout.close()
        time.sleep(0.3)
        fcntl.flock(lock, fcntl.LOCK_UN)
    code = server.wait(timeout=20)
    stderr = server.stderr.read().decode() if server.stderr else ""
    assert code == 0, stderr
    assert "panicked" not in stderr, stderr
    doc = json.loads((root / CURRENT).read_text())
    assert [d["decision"] for d in doc["decisions_made"]] == ["made while the client went away"]

    async def main() -> None:
        async with connect(root) as s:
            await ok(s, "decision", decision="after the reconnect")
            assert (await ok(s, "show"))["decisions_made"][-1]["decision"] == "after the reconnect"

    anyio.run(main)


def test_fork_history_tree_and_prune_through_tool_calls(tmp_path: Path) -> None:
    root = project(tmp_path)
    history = root / ".claude/orchestrator-history"
    history.mkdir(parents=True)
    old = {
        "schema_version": "1.0", "session_id": "2020-01-01-old", "created": "2020-01-01T00:00:00Z",
        "updated": "2020-01-01T00:00:00Z", "goal": "old goal", "status": "complete",
    }
    (history / "2020-01-01-old.json").write_text(json.dumps(old))

    async def main() -> None:
        async with connect(root) as s:
            await fails(s, "fork", {}, "not_found")
            await ok(s, "new", goal="ship", id="2026-12-01-aaa")
            await ok(s, "agent_start", id="code-1", type="code", task="x")
            original = (root / CURRENT).read_bytes()
            doc = await ok(s, "fork", new_id="2026-12-01-bbb")
            assert (doc["session_id"], doc["status"]) == ("2026-12-01-bbb", "created")
            assert doc["forked_from"]["session_id"] == "2026-12-01-aaa"
            assert doc["agents"][0]["id"] == "code-1"
            assert (history / "2026-12-01-aaa.json").read_bytes() == original
            err = await fails(s, "fork", {"session_id": "2020-01-01-old"}, "already_exists")
            assert err["context"]["session_id"] == "2026-12-01-bbb"

            lineage = await ok(s, "history_tree")
            rows = [(e["depth"], e["id"], e["current"]) for e in lineage["entries"]]
            assert rows == [
                (0, "2026-12-01-aaa", False), (1, "2026-12-01-bbb", True), (0, "2020-01-01-old", False),
            ]

            before = snapshot(root)
            plan = await ok(s, "prune", older_than_days=30)
            assert plan["applied"] is False
            assert [r["id"] for r in plan["removed"]] == ["2020-01-01-old"]
            assert snapshot(root) == before, "a dry run changes nothing"
            await fails(s, "prune", {}, "invalid_input")
            await fails(s, "prune", {"older_than_days": 1, "apply": "yes"}, "invalid_input")
            assert snapshot(root) == before
            plan = await ok(s, "prune", older_than_days=30, apply=True)
            assert plan["applied"] is True
            assert not (history / "2020-01-01-old.json").exists()
            assert (await ok(s, "history"))["total"] == 1

    anyio.run(main)


def test_calls_sent_without_waiting_run_in_the_order_sent(tmp_path: Path) -> None:
    """A host that sends several tool calls at once (parallel tool calls of one model turn)
    gets them run one at a time in the order it sent them: a session made by the first call
    takes the agents of the next ones."""
    root = project(tmp_path)

    async def main() -> None:
        async with connect(root) as s:
            for round in range(5):
                results: dict[int, Any] = {}

                async def call(i: int, tool: str, arguments: dict[str, Any]) -> None:
                    results[i] = await s.call_tool(tool, arguments)

                async with anyio.create_task_group() as tg:
                    new = {"goal": f"round {round}", "archive_current": True}
                    tg.start_soon(call, 0, "new", new)
                    for i in range(1, 6):
                        tg.start_soon(call, i, "agent_start", {"id": f"a{i}", "type": "code", "task": "t"})
                for i, result in sorted(results.items()):
                    assert not result.is_error, f"call {i} of round {round}: {result.content}"
                doc = json.loads((root / CURRENT).read_text())
                assert doc["goal"] == f"round {round}"
                assert [a["id"] for a in doc["agents"]] == [f"a{i}" for i in range(1, 6)]

    anyio.run(main)
