// Values that JSON.stringify would change silently (NaN written as null, a function or a Map
// member dropped, 2 ** 60 written as another integer) are `invalid_input` naming the member,
// with the Node package's rules and messages; so are values nested deeper than the core's
// limit (100 levels of objects and arrays), at any depth without a stack overflow. Every
// entry point that takes a document or a value goes through the same conversion.
import assert from "node:assert/strict";
import { test } from "node:test";

import { mapStore, thrown, wasm } from "./helpers.mjs";

const { AgentRegistry, MemoryStore, OrchestratorStore, TeamStore, resumeSummary } = wasm;
const project = { name: "p", path: "/p" };
const LIMIT = 100;

/** Asserts `call` throws `invalid_input` whose message contains `says`. */
function refuses(call, says, what) {
  const err = thrown(call);
  assert.ok(err instanceof Error, `${what}: not an Error: ${err}`);
  assert.equal(err.code, "invalid_input", `${what}: ${err.message}`);
  assert.ok(err.message.includes(says), `${what}: ${JSON.stringify(err.message)} lacks ${JSON.stringify(says)}`);
  return err;
}

/** An object that holds itself. */
function cyclic() {
  const o = { a: 1 };
  o.self = o;
  return o;
}

test("values JSON cannot hold exactly are invalid_input naming the member, and nothing is stored", () => {
  const host = mapStore();
  const registry = new AgentRegistry(host);
  const sym = Symbol("s");
  for (const [value, says] of [
    [{ n: NaN, i: Infinity }, "member `n` is NaN, which JSON cannot hold"],
    [{ i: Infinity }, "member `i` is Infinity, which JSON cannot hold"],
    [{ n: -Infinity }, "member `n` is -Infinity"],
    [{ f: () => 1 }, "member `f` is a function, which JSON cannot hold"],
    [{ s: Symbol("x") }, "member `s` is a symbol"],
    [{ b: 10n }, "member `b` is a bigint"],
    [{ m: new Map([[1, 2]]) }, "member `m` is a Map, which JSON cannot hold"],
    [{ s: new Set([1]) }, "member `s` is a Set"],
    [new Map(), "the value is a Map"],
    [{ n: 2 ** 53 }, "member `n` is 9007199254740992, beyond 2^53 - 1"],
    [{ n: -(2 ** 60) }, "member `n` is -1152921504606847000, beyond 2^53 - 1"],
    [[1, 2 ** 64], "member `1` is 18446744073709552000"],
    [{ deep: { list: [1, { x: NaN }] } }, "member `x` is NaN"],
    [sym, "the value is a symbol"],
    [() => 1, "the value is a function"],
    [cyclic(), "`result` is not JSON: TypeError: Converting circular structure to JSON"],
  ]) {
    refuses(() => registry.register("a", "a5", value), says, String(says));
  }
  assert.equal(host.calls.filter(([m]) => m === "write").length, 0, "nothing written");
  assert.deepEqual(registry.allSessions().sessions, {});
});

test("numbers from 1e21 on, which JSON.stringify writes in exponent form, are kept as floats", () => {
  const registry = new AgentRegistry(new MemoryStore());
  registry.register("a", "a1", { big: 1e300, mid: -1e23, edge: 1e21 });
  assert.deepEqual(registry.agentResult("a1"), { big: 1e300, mid: -1e23, edge: 1e21 });
  refuses(() => registry.register("a", "a2", { n: 9.99e20 }), "member `n` is 999000000000000000000, beyond 2^53 - 1", "below 1e21");
});

test("exact values still pass: safe integers, Date, toJSON, undefined members dropped", () => {
  const registry = new AgentRegistry(new MemoryStore());
  const value = {
    max: Number.MAX_SAFE_INTEGER,
    min: Number.MIN_SAFE_INTEGER,
    frac: 0.1,
    d: new Date("2026-11-29T17:56:00Z"),
    gone: undefined,
    custom: { toJSON: () => ({ ok: [1, null] }) },
  };
  registry.register("a", "a5", value);
  assert.deepEqual(registry.agentResult("a5"), {
    max: Number.MAX_SAFE_INTEGER,
    min: Number.MIN_SAFE_INTEGER,
    frac: 0.1,
    d: "2026-11-29T17:56:00.000Z",
    custom: { ok: [1, null] },
  });
});

test("every document and value argument is strict", () => {
  const sessions = new OrchestratorStore(new MemoryStore());
  const doc = sessions.recordNew({ goal: "g", mode: "default" }, project, "abc");
  refuses(() => sessions.save({ ...doc, extension: { n: NaN } }), "member `n` is NaN", "save");
  refuses(() => sessions.archive({ ...doc, f: () => 1 }), "member `f` is a function", "archive");
  refuses(() => resumeSummary({ ...doc, big: 2 ** 60 }), "member `big` is 1152921504606847000", "resumeSummary");
  refuses(() => sessions.recordNew({ goal: "g" }, { ...project, m: new Map() }), "member `m` is a Map", "session");
  refuses(
    () => new AgentRegistry(new MemoryStore()).createChain("c", ["a"], { n: Infinity }),
    "member `n` is Infinity",
    "createChain metadata",
  );
  refuses(() => sessions.listHistory({ limit: NaN }), "member `limit` is NaN", "options");
  const teams = new TeamStore(new MemoryStore());
  refuses(() => teams.recordSpawn("t", { name: "a", prompt: "p", env: { X: 1n } }, "codex"), "member `X` is a bigint", "config");
  assert.equal(sessions.load().extension, undefined, "the refused save changed nothing");
});

/** `levels` arrays inside each other around `1` (`nestedArray(1)` is `[1]`, depth 1). */
function nestedArray(levels) {
  let value = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** `levels` objects inside each other around `1`. */
function nestedObject(levels) {
  let value = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

test("nesting deeper than 100 levels is invalid_input with context max_depth, at any depth", () => {
  const registry = new AgentRegistry(new MemoryStore());
  registry.register("a", "ok-array", nestedArray(LIMIT));
  registry.register("a", "ok-object", nestedObject(LIMIT));
  assert.deepEqual(registry.agentResult("ok-array"), nestedArray(LIMIT));
  for (const [name, value] of [
    ["101 arrays", nestedArray(LIMIT + 1)],
    ["101 objects", nestedObject(LIMIT + 1)],
    ["100,000 arrays", nestedArray(100_000)],
    ["100,000 objects", nestedObject(100_000)],
    ["by toJSON", { toJSON: () => nestedArray(LIMIT + 1) }],
  ]) {
    const err = refuses(
      () => registry.register("a", "deep", value),
      `\`result\` is nested deeper than the limit of ${LIMIT} levels`,
      name,
    );
    assert.ok(!(err instanceof RangeError), name);
    assert.ok(!err.message.includes("call stack"), name);
    assert.equal(err.context.max_depth, String(LIMIT), name);
  }
  const sessions = new OrchestratorStore(new MemoryStore());
  const doc = sessions.recordNew({ goal: "g", mode: "default" }, project, "abc");
  const err = refuses(() => sessions.save({ ...doc, extension: nestedObject(100_000) }), "nested deeper", "save");
  assert.equal(err.context.max_depth, "100");
  assert.equal(registry.agentResult("deep"), null);
});
