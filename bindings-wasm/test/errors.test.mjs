import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { thrown, wasm } from "./helpers.mjs";

test("ERROR_CODES is frozen and equals errorCodes()", () => {
  assert.ok(Object.isFrozen(wasm.ERROR_CODES));
  assert.deepEqual([...wasm.ERROR_CODES], wasm.errorCodes());
});

test("ERROR_CODES names every code of the core's ErrorKind, in order", () => {
  // The core's own list, read from its source: the `code()` match arms.
  const source = readFileSync(new URL("../../core/src/error.rs", import.meta.url), "utf8");
  const core = [...source.matchAll(/ErrorKind::\w+ => "([a-z_]+)",/g)].map((m) => m[1]);
  assert.ok(core.length >= 9, "found the core's codes");
  assert.deepEqual([...wasm.ERROR_CODES], core);
});

test("errors are Error objects with code and context", () => {
  const store = new wasm.MemoryStore();
  const err = thrown(() => store.read("../etc/passwd"));
  assert.ok(err instanceof Error);
  assert.equal(err.code, "invalid_key");
  assert.match(err.message, /^key `\.\.\/etc\/passwd` is not safe/);
  assert.deepEqual({ ...err.context }, { value: "../etc/passwd" });
  assert.ok(wasm.ERROR_CODES.includes(err.code));
});

test("already_exists names the package's `{ replace: true }` option, not the CLI's --replace", () => {
  const store = new wasm.MemoryStore();
  const sessions = new wasm.OrchestratorStore(store);
  sessions.recordNew({ goal: "g", mode: "default" }, { name: "p", path: "/p" }, "abc123");
  sessions.start();
  const done = sessions.complete();
  for (const [what, call] of [
    ["archive", () => sessions.archive(done)],
    [
      "complete",
      () => {
        // Made current again, with a later save of it archived (not one the current file
        // supersedes) in the way.
        sessions.save({ ...done, status: "in_progress" });
        const later = { ...done, status: "paused", goal: "a later goal", updated: "2099-01-01T00:00:00Z" };
        store.write(`.claude/orchestrator-history/${done.session_id}.json`, JSON.stringify(later));
        return sessions.complete();
      },
    ],
  ]) {
    const err = thrown(call);
    assert.equal(err.code, "already_exists", `${what}: ${err.message}`);
    assert.ok(!err.message.includes("--replace"), `${what}: ${err.message}`);
    assert.match(err.message, /^an archive of session `\d{4}-\d{2}-\d{2}-abc123` already exists at `[^`]+`: /, what);
    assert.ok(
      err.message.endsWith(
        "pass the option `{ replace: true }` to overwrite it: `archive(doc, { replace: true })` " +
          "(also for a session already in a final status), `complete({ replace: true })` or " +
          "`abort({ replace: true })`",
      ),
      `${what}: ${err.message}`,
    );
    assert.ok(err instanceof Error);
    assert.ok(err.context.key, what);
  }
  assert.equal(sessions.complete({ replace: true }).status, "complete");
});
