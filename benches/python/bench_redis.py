#!/usr/bin/env python3
"""The 200-agent session of bench_orchestrator.py on one Redis server: session_state (the skill
functions with ``store=RedisStore(url)``, and a MoAI registration) against the OpenAI Agents
SDK's ``RedisSession`` (``openai-agents[redis]``) holding the same document.

    bash benches/redis.sh                                    # starts a server, runs this too
    .venv/bin/python benches/python/bench_redis.py redis://127.0.0.1:6379/0 [repeats]

``RedisSession`` keeps a list of conversation items; the document is one item of it:
- save: ``clear_session()`` then ``add_items([doc])`` (a replace, as ``save_session``);
- load: ``get_items()``, the document is the last item;
- one item: ``add_items([result])``, the nearest to one registration (an append, no registry).
Its calls are awaited in one running event loop (no loop start per call).
"""

import asyncio
import copy
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_orchestrator import session  # noqa: E402  (the same 200-agent document)

RESULT = {"spec_id": "SPEC-bench", "files_created": ["a.md"], "status": "success"}


def timed(fn, repeats):
    fn()  # warm up
    start = time.perf_counter()
    for _ in range(repeats):
        fn()
    return (time.perf_counter() - start) / repeats


async def timed_async(fn, repeats):
    await fn()
    start = time.perf_counter()
    for _ in range(repeats):
        await fn()
    return (time.perf_counter() - start) / repeats


def ours(url, repeats):
    from session_state import RedisStore, orchestrator
    from session_state.moai import SessionManager

    store = RedisStore(f"{url}?prefix=bench-py-{os.getpid()}")
    state = copy.deepcopy(session())
    save = timed(lambda: orchestrator.save_session(state, store=store), repeats)
    load = timed(lambda: orchestrator.load_session(store=store), repeats)
    assert len(orchestrator.load_session(store=store)["agents"]) == 200
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)  # the manager makes its local transcript folder here
        try:
            manager = SessionManager(store=store)
            for i in range(200):
                manager.register_agent_result(f"agent-{i}", f"id-{i}", RESULT, f"chain-{i % 20}")
            register = timed(
                lambda: manager.register_agent_result("bench-agent", "bench-id", RESULT), repeats
            )
        finally:
            os.chdir(here)
    return save, load, register


async def theirs(url, repeats):
    from agents.extensions.memory import RedisSession

    doc = session()
    s = RedisSession.from_url(f"bench-{os.getpid()}", url=url)
    items = RedisSession.from_url(f"bench-items-{os.getpid()}", url=url)
    try:

        async def save():
            await s.clear_session()
            await s.add_items([doc])

        async def load():
            return (await s.get_items())[-1]

        t_save = await timed_async(save, repeats)
        t_load = await timed_async(load, repeats)
        assert len((await s.get_items())[-1]["agents"]) == 200
        t_item = await timed_async(lambda: items.add_items([RESULT]), repeats)
    finally:
        await s.close()
        await items.close()
    return t_save, t_load, t_item


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    url = sys.argv[1]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    import agents

    a = ours(url, repeats)
    b = asyncio.run(theirs(url, repeats))
    print(f"Python {sys.version.split()[0]}, openai-agents {agents.__version__}, "
          f"200 agents, {repeats} calls each, {url}")
    print("| side | save | load | one registration / one item |")
    print("|---|---:|---:|---:|")
    print(f"| session_state (RedisStore) | {a[0] * 1e3:.3f} ms | {a[1] * 1e3:.3f} ms | "
          f"{a[2] * 1e3:.3f} ms |")
    print(f"| openai-agents RedisSession | {b[0] * 1e3:.3f} ms | {b[1] * 1e3:.3f} ms | "
          f"{b[2] * 1e3:.3f} ms |")
    print(f"| ratio (RedisSession / ours) | {b[0] / a[0]:.2f}x | {b[1] / a[1]:.2f}x | "
          f"{b[2] / a[2]:.2f}x |")


if __name__ == "__main__":
    main()
