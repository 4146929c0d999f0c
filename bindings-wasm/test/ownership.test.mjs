// The ownership operations of OrchestratorStore (issue #20) over the Node build: two handles
// with different owners over one MemoryStore, the fence, release, heartbeat and live sessions,
// and the `takeover` hint.
import assert from "node:assert/strict";
import { test } from "node:test";

import { thrown, wasm } from "./helpers.mjs";

const { MemoryStore, OrchestratorStore } = wasm;
const project = { name: "p", path: "/p" };
const CURRENT = ".claude/orchestrator-session.json";

test("a session claimed by a refuses b's writes with conflict naming a, writing nothing", () => {
  const store = new MemoryStore();
  const a = new OrchestratorStore(store);
  const b = new OrchestratorStore(store);
  const outcome = a.claim({ owner: "orchestrator-a" });
  assert.equal(outcome.lease.owner, "orchestrator-a");
  assert.equal(outcome.lease.epoch, 1);
  assert.equal(outcome.live.session_id, "orchestrator-a");
  a.recordNew({ goal: "g" }, project, "aaaaaa");
  const before = store.readText(CURRENT);
  const err = thrown(() => b.start());
  assert.equal(err.code, "conflict", err.message);
  assert.equal(err.context.owner, "orchestrator-a");
  assert.equal(store.readText(CURRENT), before, "nothing written");
  b.setWriter({ owner: "orchestrator-b" });
  assert.equal(thrown(() => b.start()).code, "conflict");
  const claim = thrown(() => b.claim({ owner: "orchestrator-b" }));
  assert.equal(claim.code, "conflict");
  assert.equal(claim.hint, undefined, "a live lease has no takeover hint");
  assert.equal(store.readText(CURRENT), before);
  assert.equal(a.start().status, "in_progress", "the owner writes");
  assert.deepEqual(b.lease(), a.lease());
});

test("renew, release: after a release another owner may claim; the epoch grows", () => {
  const store = new MemoryStore();
  const a = new OrchestratorStore(store);
  const b = new OrchestratorStore(store);
  assert.equal(a.lease(), null);
  a.claim({ owner: "a", lease_seconds: 60 });
  const renewed = a.renew("a", 120);
  assert.equal(renewed.owner, "a");
  assert.equal(renewed.lease_seconds, 120);
  assert.equal(thrown(() => b.renew("b")).code, "conflict");
  assert.equal(thrown(() => a.renew("a", -1)).code, "invalid_input");
  const released = a.release({ owner: "a" });
  assert.equal(released.lease.owner ?? null, null);
  assert.equal(released.lease.epoch, 1);
  const taken = b.claim({ owner: "b" });
  assert.equal(taken.lease.owner, "b");
  assert.equal(taken.lease.epoch, 2);
  b.recordNew({ goal: "g" }, project);
  a.setWriter({ owner: "a", epoch: 1 });
  assert.deepEqual(a.writer, { owner: "a", epoch: 1 });
  assert.equal(thrown(() => a.pause()).code, "conflict");
  a.setWriter(null);
  assert.equal(a.writer, null);
  assert.equal(thrown(() => a.start()).code, "conflict", "no writer on a claimed session");
});

test("heartbeat and liveSessions list every running orchestrator", () => {
  const store = new MemoryStore();
  const a = new OrchestratorStore(store);
  const b = new OrchestratorStore(store);
  a.claim({ owner: "a", ttl_seconds: 600 });
  const beat = a.heartbeat({ owner: "a" });
  assert.equal(beat.renewed, true);
  assert.equal(beat.live.session_id, "a");
  const other = b.heartbeat({ owner: "b" });
  assert.equal(other.renewed, false);
  assert.equal(other.lease.owner, "a");
  const live = a.liveSessions();
  assert.deepEqual(live.map((s) => [s.entry.session_id, s.stale]), [["a", false], ["b", false]]);
  assert.deepEqual(live[0].entry.process ?? {}, {}, "the browser reports no process");
  const scoped = b.claim({ owner: "b", scopes: ["chain-1"] });
  assert.equal(scoped.lease, null);
  assert.equal(thrown(() => a.claim({ owner: "a", scopes: ["chain-1"] })).code, "conflict");
  assert.deepEqual(b.release({ owner: "b", scopes: ["chain-1"] }).lease, null);
  assert.equal(thrown(() => a.claim({ owner: "a", bogus: 1 })).code, "invalid_input");
});

test("an expired lease: a claim without takeover gets the takeover hint, with takeover it wins", () => {
  const store = new MemoryStore();
  const b = new OrchestratorStore(store);
  // a's lease as a claim in 2020 left it: long expired.
  const lease = { owner: "a", epoch: 1, claimed: "2020-01-01T00:00:00Z", expires: "2020-01-01T00:05:00Z", lease_seconds: 300 };
  store.write(".claude/orchestrator-session.owner.json", JSON.stringify(lease));
  const err = thrown(() => b.claim({ owner: "b" }));
  assert.equal(err.code, "conflict");
  assert.equal(err.hint, "takeover");
  assert.ok(err.message.includes("{ takeover: true }"), err.message);
  assert.equal(b.lease().owner, "a", "nothing written");
  const taken = b.claim({ owner: "b", takeover: true });
  assert.equal(taken.lease.epoch, 2);
  assert.equal(taken.lease.took_over_from, "a");
});
