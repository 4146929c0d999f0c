// fork, historyTree and the three prunes (issue #21) over the Node build: fork keeps the
// original and sets forked_from; a prune's dry run changes nothing and its apply removes what
// the plan listed.
import assert from "node:assert/strict";
import { test } from "node:test";

import { thrown, wasm } from "./helpers.mjs";

const { AgentRegistry, MemoryStore, OrchestratorStore, TeamStore, sessionFromConfig } = wasm;
const project = { name: "p", path: "/p" };
const SESSIONS = ".moai/memory/agent-sessions.json";

/** Every key and its text, to compare a store before and after. */
const snapshot = (store) => new Map(store.list(".claude").concat(store.list(".moai"), store.list("teams")).map((k) => [k, store.readText(k)]));

test("fork archives the original as it is and makes a copy current with forked_from", () => {
  const store = new MemoryStore();
  const sessions = new OrchestratorStore(store);
  sessions.recordNew({ goal: "ship it" }, project, "aaaaaa");
  const original = sessions.start();
  const forked = sessions.fork({ newId: "2025-12-27-bbbbbb" });
  assert.equal(forked.session_id, "2025-12-27-bbbbbb");
  assert.equal(forked.status, "created");
  assert.equal(forked.goal, "ship it");
  assert.equal(forked.forked_from.session_id, original.session_id);
  assert.deepEqual(sessions.load(), forked);
  const kept = JSON.parse(store.readText(`.claude/orchestrator-history/${original.session_id}.json`));
  assert.deepEqual(kept, original, "the original is archived unchanged");
  const tree = sessions.historyTree();
  const rows = tree.entries.map((e) => [e.id, e.depth, e.forked_from, e.current]);
  assert.deepEqual(rows, [[original.session_id, 0, null, false], [forked.session_id, 1, original.session_id, true]]);
  assert.deepEqual(tree.skipped, []);
});

test("fork with no current session is not_found, and an unknown option is invalid_input", () => {
  const store = new MemoryStore();
  const sessions = new OrchestratorStore(store);
  assert.equal(thrown(() => sessions.fork()).code, "not_found");
  assert.equal(thrown(() => sessions.fork({ newid: "x" })).code, "invalid_input");
  assert.equal(store.size, 0);
});

test("pruneHistory: the dry run changes nothing; apply removes what the plan listed", () => {
  const store = new MemoryStore();
  const sessions = new OrchestratorStore(store);
  for (const suffix of ["aaaaa1", "aaaaa2", "aaaaa3"]) {
    sessions.recordNew({ goal: suffix }, project, suffix);
    sessions.start();
    sessions.complete();
  }
  const before = snapshot(store);
  const plan = sessions.pruneHistory({ keep: 1 });
  assert.equal(plan.applied, false);
  assert.equal(plan.removed.length, 2);
  assert.ok(plan.removed.every((r) => r.kind === "session"));
  assert.deepEqual(snapshot(store), before, "a dry run writes nothing");
  const applied = sessions.pruneHistory({ keep: 1, apply: true });
  assert.equal(applied.applied, true);
  assert.deepEqual(applied.removed, plan.removed);
  for (const removal of plan.removed) {
    for (const key of removal.removes) assert.equal(store.readText(key), null, `${key} removed`);
  }
  const left = sessions.listHistory().entries.map((e) => e.session_id);
  assert.equal(left.length, 1);
  assert.ok(!plan.removed.some((r) => left.includes(r.id)));
  assert.equal(thrown(() => sessions.pruneHistory({})).code, "invalid_input", "a criterion is needed");
});

test("AgentRegistry.prune: dry run changes nothing; apply removes the old agent only", () => {
  const store = new MemoryStore();
  const reg = new AgentRegistry(store);
  reg.register("old", "old-1", { r: 1 }, "C");
  reg.register("new", "new-1", { r: 2 }, "C");
  const doc = JSON.parse(store.readText(SESSIONS));
  doc.metadata["old-1"].created_at = "2020-01-01T00:00:00";
  store.write(SESSIONS, JSON.stringify(doc));
  const before = snapshot(store);
  const plan = reg.prune({ olderThanDays: 30 });
  assert.equal(plan.applied, false);
  assert.deepEqual(plan.removed.map((r) => [r.kind, r.id]), [["agent", "old-1"]]);
  assert.deepEqual(snapshot(store), before);
  const applied = reg.prune({ older_than_days: 30, apply: true });
  assert.deepEqual(applied.removed, plan.removed);
  assert.equal(reg.agentResult("old-1"), null);
  assert.deepEqual(reg.agentResult("new-1"), { r: 2 });
  assert.equal(thrown(() => reg.prune({ apply: true })).code, "invalid_input", "older_than_days is required");
});

test("TeamStore.prune: dry run changes nothing; apply removes the old member only", () => {
  const store = new MemoryStore();
  const teams = new TeamStore(store);
  teams.save("t", sessionFromConfig({ name: "old", prompt: "p" }, "codex", "2020-01-01T00:00:00Z"));
  teams.save("t", sessionFromConfig({ name: "new", prompt: "p" }, "codex"));
  const before = snapshot(store);
  const plan = teams.prune("t", { olderThanDays: 30 });
  assert.equal(plan.applied, false);
  assert.deepEqual(plan.removed.map((r) => [r.kind, r.id]), [["team_member", "old"]]);
  assert.deepEqual(snapshot(store), before);
  const applied = teams.prune("t", { olderThanDays: 30, apply: true });
  assert.deepEqual(applied.removed, plan.removed);
  assert.deepEqual(teams.list("t").members.map((m) => m.agent), ["new"]);
  assert.equal(thrown(() => teams.prune(5, { olderThanDays: 1 })).code, "invalid_input");
});
