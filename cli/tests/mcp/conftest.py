"""Starts `session-state mcp` under the official MCP Python SDK (`mcp` from PyPI) and calls its
tools the way an agent host does. The binary is $SESSION_STATE_BIN, else the workspace's
target/debug/session-state (scripts/ci/45-mcp.sh builds it)."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

REPO = Path(__file__).resolve().parents[3]
BIN = os.environ.get("SESSION_STATE_BIN", str(REPO / "target" / "debug" / "session-state"))
FIXTURES = REPO / "tests" / "vectors" / "teams" / "fixtures"


def server_args(root: Path, *extra: str) -> list[str]:
    return ["mcp", "--root", str(root), *extra]


@asynccontextmanager
async def connect(root: Path, *extra: str, errlog: Path | None = None) -> AsyncIterator[ClientSession]:
    """A client session with `session-state mcp --root ROOT EXTRA...`, initialised. The
    server's stderr goes to `errlog` (default: this process's stderr)."""
    params = StdioServerParameters(command=BIN, args=server_args(root, *extra))
    log = open(errlog, "w") if errlog else sys.stderr  # noqa: SIM115 (closed below)
    try:
        async with stdio_client(params, errlog=log) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=60) as session:
                await session.initialize()
                yield session
    finally:
        if errlog:
            log.close()


async def ok(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """Calls `tool`, expects success, returns the structured content."""
    result = await session.call_tool(tool, arguments)
    text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
    assert not result.is_error, f"{tool}({arguments}): {text}"
    assert isinstance(result.structured_content, dict), result
    assert text, f"{tool} answered no text"
    return result.structured_content


async def fails(session: ClientSession, tool: str, arguments: dict[str, Any], code: str) -> dict[str, Any]:
    """Calls `tool`, expects a tool error of kind `code`, returns its structured content."""
    result = await session.call_tool(tool, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    assert result.is_error, f"{tool}({str(arguments)[:200]}) succeeded: {text[:300]}"
    error = result.structured_content
    assert isinstance(error, dict), result
    assert error["code"] == code, f"{tool}: {error}"
    assert error["message"], error
    assert text == f"error[{code}]: {error['message']}", text
    return error
