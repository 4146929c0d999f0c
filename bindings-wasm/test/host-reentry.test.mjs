// A host store's own methods can call back into the package. An update started from inside
// another update of the same host object (from the host's `write`) would read the old bytes
// and then be overwritten by the outer write: it throws `conflict` instead, through the same
// wrapper or another wrapper (another class, another instance) over the same host object.
// Different host objects stay independent, and the busy mark is always released.
import assert from "node:assert/strict";
import { test } from "node:test";

import { thrown, wasm } from "./helpers.mjs";

const { AgentRegistry, MemoryStore, OrchestratorStore, TeamStore } = wasm;
const project = { name: "p", path: "/p" };

/** A host store over a Map whose `write` runs `onWrite` once (then forgets it). */
function hostStore() {
  const map = new Map();
  return {
    map,
    onWrite: null,
    read(key) {
      return map.get(key) ?? null;
    },
    write(key, data) {
      map.set(key, Uint8Array.from(data));
      const hook = this.onWrite;
      this.onWrite = null;
      if (hook) hook(key);
    },
    delete(key) {
      return map.delete(key);
    },
    list(prefix) {
      return [...map.keys()].filter((k) => k.startsWith(`${prefix}/`));
    },
  };
}

/** Runs `inner` from inside the next host write, recording what it threw (or `undefined`). */
function duringNextWrite(host, inner) {
  const outcome = {};
  host.onWrite = () => {
    try {
      inner();
    } catch (err) {
      outcome.error = err;
    }
  };
  return outcome;
}

function assertConflict(outcome, what) {
  assert.ok(outcome.error, `${what}: the re-entrant update did not throw (its write would be lost)`);
  assert.ok(outcome.error instanceof Error, what);
  assert.equal(outcome.error.code, "conflict", `${what}: ${outcome.error.message}`);
  assert.match(outcome.error.message, /^host store re-entered: an update of `.+` was started while another update/);
  assert.ok(outcome.error.context.key, what);
}

test("a re-entrant update through the same wrapper is a conflict, the outer update kept", () => {
  const host = hostStore();
  const reg = new AgentRegistry(host);
  const outcome = duringNextWrite(host, () => reg.register("inner", "i1", {}));
  reg.register("outer", "o1", {});
  assertConflict(outcome, "same wrapper");
  assert.equal(reg.resumeId("outer"), "o1");
  assert.equal(reg.resumeId("inner"), null, "refused, not half-written");
});

test("a re-entrant update through another wrapper or class over the same host object is a conflict", () => {
  const host = hostStore();
  const first = new AgentRegistry(host);
  const second = new AgentRegistry(host);
  const two = duringNextWrite(host, () => second.register("inner", "i1", {}));
  first.register("outer", "o1", {});
  assertConflict(two, "two AgentRegistry");
  assert.deepEqual(Object.keys(first.allSessions().sessions), ["outer"]);

  const sessions = new OrchestratorStore(host);
  const viaClass = duringNextWrite(host, () => first.register("inner", "i1", {}));
  sessions.recordNew({ goal: "g", mode: "default" }, project, "abc");
  assertConflict(viaClass, "OrchestratorStore then AgentRegistry");
  const team = duringNextWrite(host, () => new TeamStore(host).recordSpawn("t", { name: "a", prompt: "p" }, "codex"));
  first.register("outer2", "o2", {});
  assertConflict(team, "AgentRegistry then TeamStore");
  const orchestrators = duringNextWrite(host, () => new OrchestratorStore(host).recordDecision({ decision: "d", why: "r" }));
  sessions.start();
  assertConflict(orchestrators, "two OrchestratorStore");
  assert.equal(sessions.load().status, "in_progress");
  assert.deepEqual(sessions.load().decisions_made, []);
});

test("uncaught, the conflict reaches the outer caller and nothing is lost silently", () => {
  const host = hostStore();
  const first = new AgentRegistry(host);
  const second = new AgentRegistry(host);
  host.onWrite = () => second.register("inner", "i1", {});
  assert.equal(thrown(() => first.register("outer", "o1", {})).code, "conflict");
});

test("the busy mark is released after a conflict, a host exception, a wrong return and a normal update", () => {
  const host = hostStore();
  const first = new AgentRegistry(host);
  const second = new AgentRegistry(host);
  duringNextWrite(host, () => second.register("inner", "i1", {}));
  first.register("a", "a1", 1);
  second.register("b", "b1", 1);
  const failing = new Error("disk full");
  host.onWrite = () => {
    throw failing;
  };
  assert.equal(thrown(() => first.register("c", "c1", 1)), failing);
  second.register("d", "d1", 1);
  // Wrappers take the methods when they are made: these two see the wrong return types.
  const { read, write } = host;
  host.read = () => 42;
  assert.equal(thrown(() => new AgentRegistry(host).register("e", "e1", 1)).code, "storage");
  host.read = read;
  host.write = () => 1;
  assert.equal(thrown(() => new AgentRegistry(host).register("e", "e1", 1)).code, "storage");
  host.write = write;
  second.register("f", "f1", 1);
  assert.deepEqual(Object.keys(first.allSessions().sessions).sort(), ["a", "b", "c", "d", "f"]);
});

test("different host objects are independent: an update of one from inside the other works", () => {
  const outerHost = hostStore();
  const innerHost = hostStore();
  const outer = new AgentRegistry(outerHost);
  const inner = new AgentRegistry(innerHost);
  const outcome = duringNextWrite(outerHost, () => inner.register("inner", "i1", 2));
  outer.register("outer", "o1", 1);
  assert.equal(outcome.error, undefined);
  assert.equal(inner.resumeId("inner"), "i1");
  const memory = new AgentRegistry(new MemoryStore());
  const viaMemory = duringNextWrite(outerHost, () => memory.register("m", "m1", 3));
  outer.register("again", "a1", 1);
  assert.equal(viaMemory.error, undefined);
  assert.equal(memory.resumeId("m"), "m1");
});

test("frozen host objects work and get no visible property", () => {
  const map = new Map();
  const host = Object.freeze({
    read: (key) => map.get(key) ?? null,
    write: (key, data) => {
      map.set(key, Uint8Array.from(data));
    },
    delete: (key) => map.delete(key),
    list: (prefix) => [...map.keys()].filter((k) => k.startsWith(`${prefix}/`)),
  });
  new AgentRegistry(host).register("a", "a1", 1);
  assert.equal(new AgentRegistry(host).resumeId("a"), "a1");
  const plain = hostStore();
  new AgentRegistry(plain).register("a", "a1", 1);
  assert.deepEqual(Object.getOwnPropertySymbols(plain), []);
  assert.deepEqual(Object.keys(plain), ["map", "onWrite", "read", "write", "delete", "list"]);
});
