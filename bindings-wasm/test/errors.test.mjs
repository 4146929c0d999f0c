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
