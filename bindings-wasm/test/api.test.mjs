// OrchestratorStore, AgentRegistry and TeamStore through the Node build: the JS shapes
// (camelCase methods, plain objects, `Error` with `code`) over the core behaviours.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fakeWebStorage, mapStore, thrown, wasm } from "./helpers.mjs";

const { AgentRegistry, LocalStorageStore, MemoryStore, OrchestratorStore, TeamStore, resumeSummary, salvage } = wasm;
const CURRENT = ".claude/orchestrator-session.json";
const project = { name: "p", path: "/work/p", git_branch: "main" };

test("a session goes through its lifecycle, each move saved and archived at the end", () => {
  const store = new MemoryStore();
  const sessions = new OrchestratorStore(store);
  assert.equal(sessions.load(), null);
  const created = sessions.recordNew({ goal: "ship it", mode: "default" }, project, "abc123");
  assert.match(created.session_id, /^\d{4}-\d{2}-\d{2}-abc123$/);
  assert.equal(created.status, "created");
  assert.equal(thrown(() => sessions.recordNew({ goal: "again", mode: "default" }, project, "x")).code, "already_exists");
  assert.equal(sessions.start().status, "in_progress");
  assert.equal(sessions.recordAgentStart({ id: "code-1", type: "code", task: "write" }).agents[0].status, "in_progress");
  assert.equal(sessions.recordAgentProgress({ id: "code-1", percent: 40 }).agents[0].progress, 40);
  assert.equal(sessions.recordAgentProgress({ id: "code-1", percent: 62.5 }).agents[0].progress, 62.5);
  assert.equal(sessions.recordDecision({ decision: "use wasm", why: "one core" }).decisions_made.length, 1);
  assert.equal(sessions.pause().status, "paused");
  assert.equal(JSON.parse(store.readText(CURRENT)).status, "paused");
  assert.equal(sessions.pause().status, "paused", "a move to the status it has changes nothing");
  const err = thrown(() => sessions.complete());
  assert.equal(err.code, "invalid_transition");
  assert.ok(err instanceof Error);
  assert.equal(sessions.resume().status, "in_progress");
  assert.equal(sessions.recordAgentDone({ id: "code-1", summary: "done" }).agents[0].status, "complete");
  assert.equal(sessions.beforeCompression().status, "in_progress");
  const done = sessions.complete();
  assert.equal(done.status, "complete");
  assert.equal(sessions.load(), null, "the current file is gone after the final move");
  const page = sessions.listHistory({ limit: 5 });
  assert.deepEqual(page.entries.map((e) => [e.id, e.status]), [[done.session_id, "complete"]]);
  assert.equal(page.total, 1);
});

test("save returns the saved document and sets only `updated` on the caller's object", () => {
  const sessions = new OrchestratorStore(new MemoryStore());
  const doc = sessions.recordNew({ goal: "g", mode: "default" }, project, "s1");
  const before = structuredClone(doc);
  const saved = sessions.save(doc);
  assert.notEqual(saved.updated, before.updated);
  assert.deepEqual(doc, { ...before, updated: saved.updated });
  assert.notEqual(saved, doc);
  assert.equal(saved.session_id, doc.session_id);
  doc.extra_field = { kept: [1, 2] };
  assert.deepEqual(sessions.save(doc).extra_field, { kept: [1, 2] }, "unknown fields round-trip");
  assert.equal(thrown(() => sessions.save({ ...doc, session_id: "../x" })).code, "invalid_key");
  assert.equal(thrown(() => sessions.save({ ...doc, schema_version: "2.0" })).code, "incompatible_schema");
  assert.equal(thrown(() => sessions.save([])).code, "invalid_input");
  const key = sessions.archive(doc);
  assert.equal(key, `.claude/orchestrator-history/${doc.session_id}.json`);
  assert.equal(thrown(() => sessions.archive(doc)).code, "already_exists");
  assert.equal(sessions.archive(doc, { replace: true }), key);
});

test("a corrupt current file: load throws corrupt_state with the salvage, recover and doctor repair it", () => {
  const store = new MemoryStore();
  const sessions = new OrchestratorStore(store);
  const doc = sessions.recordNew({ goal: "g", mode: "default" }, project, "s2");
  const text = store.readText(CURRENT);
  store.write(CURRENT, text.slice(0, text.indexOf('"agents"') + 5));
  const err = thrown(() => sessions.load());
  assert.equal(err.code, "corrupt_state");
  assert.equal(err.context.key, CURRENT);
  assert.equal(err.salvaged.session_id, doc.session_id);
  assert.deepEqual(salvage(store.read(CURRENT)).document, err.salvaged);
  assert.equal(salvage(store.read(CURRENT)).recovered_anything, true);
  assert.equal(salvage(new Uint8Array([0xff, 0x00, 0x13])).recovered_anything, false);
  const report = sessions.doctor();
  assert.deepEqual(report.problems.map((p) => [p.key, p.code, p.fixable]), [[CURRENT, "corrupt_state", true]]);
  const repair = sessions.recover();
  assert.match(repair.kept_copy, /^\.claude\/orchestrator-session\.json\.corrupt-\d{8}T\d{6}Z/);
  assert.equal(sessions.load().session_id, doc.session_id);
  assert.equal(sessions.recover(), null);
  assert.deepEqual(sessions.doctor({ fix: true }).problems, []);
});

test("a string argument holding a lone surrogate is invalid_input, not turned into U+FFFD", () => {
  const reg = new AgentRegistry(new MemoryStore());
  reg.register("agent", "x", { v: 1 });
  for (const call of [
    () => reg.register("agent", "x\uD800", { v: 1 }),
    () => reg.agentResult("x\uDC00"),
    () => new MemoryStore().write("k/a\uD800.json", "{}"),
    () => new MemoryStore().write("k/a.json", "\uD800"),
  ]) {
    const err = thrown(call);
    assert.equal(err.code, "invalid_input", err.message);
    assert.match(err.message, /lone surrogate/);
  }
  assert.deepEqual(Object.keys(reg.load().sessions), ["agent"]);
  reg.register("agent", "x\uD83D\uDE00", { v: 3 });
  assert.deepEqual(reg.agentResult("x\u{1F600}"), { v: 3 });
});

test("save and archive of a document read before a later save are conflict, nothing written", () => {
  const store = new MemoryStore();
  const a = new OrchestratorStore(store);
  const b = new OrchestratorStore(store);
  a.recordNew({ goal: "g" }, project, "s");
  const snap = a.load();
  b.recordDecision({ decision: "use postgres", why: "important" });
  const before = store.readText(CURRENT);
  assert.equal(thrown(() => a.save({ ...snap, goal: "new" })).code, "conflict");
  assert.equal(thrown(() => a.archive(snap)).code, "conflict");
  assert.equal(store.readText(CURRENT), before);
  const saved = a.save({ ...a.load(), goal: "new" });
  assert.equal(saved.decisions_made.length, 1);
});

test("save sets the saved `updated` on its argument; one handle refuses a document read before its own later save", () => {
  const sessions = new OrchestratorStore(new MemoryStore());
  sessions.recordNew({ goal: "g" }, project, "s");
  const [first, second] = [sessions.load(), sessions.load()];
  const before = structuredClone(first);
  first.goal = "first";
  const saved = sessions.save(first);
  assert.deepEqual(first, { ...before, goal: "first", updated: saved.updated });
  second.goal = "second";
  assert.equal(thrown(() => sessions.save(second)).code, "conflict");
  first.pending_tasks.push("next");
  sessions.save(first);
  assert.deepEqual([sessions.load().goal, sessions.load().pending_tasks], ["first", ["next"]]);
  // A frozen document is saved; its `updated` stays as read.
  const frozen = Object.freeze(sessions.load());
  const read = frozen.updated;
  assert.equal(sessions.save(frozen).goal, "first");
  assert.equal(frozen.updated, read);
  assert.notEqual(sessions.load().updated, read);
  // A setter that throws: the save is written, then its exception reaches the caller.
  const doc = sessions.load();
  doc.goal = "proxied";
  const refusing = new Proxy(doc, { set() { throw new Error("no sets"); } });
  assert.throws(() => sessions.save(refusing), /no sets/);
  assert.equal(sessions.load().goal, "proxied");
});

test("a stale document's save is refused after saves within one millisecond of the clock", () => {
  // Date.now() counts milliseconds: most rounds make all three saves within one.
  for (let i = 0; i < 200; i++) {
    const sessions = new OrchestratorStore(new MemoryStore());
    sessions.recordNew({ goal: "g" }, project, "s");
    const stale = sessions.load();
    sessions.recordTaskAdd({ task: "X" });
    sessions.recordTaskAdd({ task: "Y" });
    stale.pending_tasks.push("stale");
    assert.equal(thrown(() => sessions.save(stale)).code, "conflict", `round ${i}`);
    assert.deepEqual(sessions.load().pending_tasks, ["X", "Y"]);
  }
});

test("async tasks sharing one handle lose no save", async () => {
  const sessions = new OrchestratorStore(new MemoryStore());
  sessions.recordNew({ goal: "g" }, project, "s");
  const work = async (t) => {
    for (let i = 0; i < 25; i++) {
      for (;;) { // load, change, save; load again after a conflict
        const doc = sessions.load();
        await new Promise((resolve) => setImmediate(resolve));
        doc.pending_tasks.push(`${t}-${i}`);
        try {
          sessions.save(doc);
          break;
        } catch (err) {
          assert.equal(err.code, "conflict", err.message);
        }
      }
    }
  };
  await Promise.all([0, 1, 2, 3].map(work));
  assert.equal(sessions.load().pending_tasks.length, 100);
});

test("options and arguments are checked, not coerced", () => {
  assert.equal(thrown(() => new OrchestratorStore(42)).code, "invalid_input");
  assert.equal(thrown(() => new OrchestratorStore(new MemoryStore(), { nope: 1 })).code, "invalid_input");
  const small = new OrchestratorStore(new MemoryStore(), { maxDocumentBytes: 10 });
  assert.equal(thrown(() => small.recordNew({ goal: "g", mode: "default" }, project, "s") && small.load()).code, "invalid_input");
  const sessions = new OrchestratorStore(new MemoryStore());
  assert.equal(thrown(() => sessions.listHistory({ status: "sleeping" })).code, "invalid_input");
  assert.equal(thrown(() => sessions.recordAgentProgress({ id: "a", percent: 50 })).code, "not_found");
  for (const bad of [101, 256, -1, 100.5, "50"]) {
    assert.equal(thrown(() => sessions.recordAgentProgress({ id: "a", percent: bad })).code, "invalid_input", String(bad));
  }
  assert.equal(thrown(() => resumeSummary({}, "2025-01-01T00:00:00Z")).code, "invalid_input");
  assert.equal(thrown(() => salvage(12)).code, "invalid_input");
  // A lone surrogate (UTF-8 cannot hold it) is named with its member, as in the Node package.
  const lone = thrown(() => sessions.recordNew({ goal: "\ud800x" }, project));
  assert.equal(lone.code, "invalid_input");
  assert.match(lone.message, /^`input` holds the lone surrogate `\\ud800` at `\["goal"\]`/);
  assert.equal(lone.context.field, '["goal"]');
  // Agent fields the file reader would refuse are not written (progress above 100).
  sessions.recordNew({ goal: "g" }, project, "p");
  const over = thrown(() => sessions.recordAgentStart({ id: "a", type: "c", task: "t", progress: 101 }));
  assert.equal(over.code, "invalid_input");
  assert.equal(over.context.field, "input.progress");
  assert.equal(sessions.load().agents.length, 0);
});

test("the orchestrator works over localStorage-like and host stores", () => {
  const web = fakeWebStorage();
  const sessions = new OrchestratorStore(new LocalStorageStore("app:", web));
  sessions.recordNew({ goal: "g", mode: "default" }, project, "s3");
  assert.equal(JSON.parse(web.getItem(`app:${CURRENT}`)).goal, "g");
  const host = mapStore();
  new OrchestratorStore(host).recordNew({ goal: "h", mode: "default" }, project, "s4");
  assert.ok(host.map.has(CURRENT));
  const boom = new Error("disk on fire");
  const failing = { ...mapStore(), read() { throw boom; } };
  assert.equal(thrown(() => new OrchestratorStore(failing).load()), boom);
});

test("AgentRegistry: the seed's operations with camelCase names", () => {
  const reg = new AgentRegistry(new MemoryStore());
  reg.createChain("SPEC-1", ["spec-builder", "planner"], { feature: "auth" });
  reg.register("spec-builder", "spec-abc123", { status: "success" }, "SPEC-1");
  assert.equal(reg.resumeId("spec-builder"), "spec-abc123");
  assert.equal(reg.resumeId("spec-builder", "OTHER"), null);
  assert.equal(reg.resumeId("nobody"), null);
  assert.deepEqual(reg.agentResult("spec-abc123"), { status: "success" });
  assert.equal(reg.agentResult("nope"), null);
  assert.equal(reg.shouldResume("spec-builder", "update profiles", "rename files"), true);
  const decision = reg.decideResume("spec-builder", "update profiles", "rename files", { policy: "explained" });
  assert.deepEqual([decision.resume, decision.reason], [false, "unrelated"]);
  assert.equal(reg.decideResume("spec-builder", "a b", "a b", { cap: 0 }).reason, "resume_cap_reached");
  assert.equal(thrown(() => reg.decideResume("x", "a", "b", { policy: "magic" })).code, "invalid_input");
  assert.equal(reg.incrementResumeCount("spec-abc123"), true);
  assert.equal(reg.agents()[0].resume_count, 1);
  const status = reg.chainStatus("SPEC-1");
  assert.deepEqual([status.done, status.missing, status.complete], [["spec-builder"], ["planner"], false]);
  assert.equal(reg.chainSummary("SPEC-1").agent_count, 1);
  assert.deepEqual(reg.chainResults("SPEC-1").map((r) => r.agent_name), ["spec-builder"]);
  assert.deepEqual(reg.allSessions(), { sessions: { "spec-builder": "spec-abc123" }, chains: ["SPEC-1"], total_results: 1 });
  assert.equal(thrown(() => reg.register("a", "../x", {})).code, "invalid_key");
  assert.equal(reg.clearAgent("spec-builder"), true);
  assert.equal(reg.clearChain("SPEC-1"), true);
  assert.equal(reg.clearChain("SPEC-1"), false);
});

test("TeamStore: record a spawn, list, plan the resume, delete", () => {
  const store = new MemoryStore();
  const teams = new TeamStore(store);
  const state = teams.recordSpawn("my-team", { name: "coder", prompt: "You write Rust.", model: "gpt-5-codex" }, "codex");
  assert.equal(state.backendType, "codex");
  assert.match(state.createdAt, /Z$/);
  assert.deepEqual(teams.load("my-team", "coder"), state);
  assert.deepEqual(teams.listTeams(), [{ name: "my-team", sessions: 1 }]);
  assert.deepEqual(teams.list("my-team").members.map((m) => m.key), ["teams/my-team/sessions/coder.json"]);
  const plan = teams.resumePlan("my-team");
  assert.deepEqual(plan.members.map((m) => [m.agent, m.action, m.backend]), [["coder", "respawn", "codex"]]);
  assert.equal(thrown(() => teams.recordSpawn("my-team", { name: "x", prompt: "p" }, "cobol")).code, "invalid_input");
  assert.equal(thrown(() => teams.load("../t", "coder")).code, "invalid_key");
  assert.equal(thrown(() => teams.load("my-team", "ghost")).code, "not_found");
  assert.equal(teams.save("my-team", { ...state, model: "o3" }), "teams/my-team/sessions/coder.json");
  assert.equal(teams.load("my-team", "coder").model, "o3");
  teams.mergeMetadata("my-team", "coder", { thread: "t1", run: "1" });
  assert.deepEqual(teams.mergeMetadata("my-team", "coder", { run: null, pr: "7" }).metadata, { thread: "t1", pr: "7" });
  const bad = thrown(() => teams.mergeMetadata("my-team", "coder", { run: 1 }));
  assert.equal(bad.code, "invalid_input");
  assert.equal(bad.context.field, "entries.run");
  assert.deepEqual(teams.load("my-team", "coder").metadata, { thread: "t1", pr: "7" });
  assert.equal(teams.delete("my-team", "coder"), true);
  assert.equal(teams.delete("my-team", "coder"), false);
});

test("complete and abort are all or nothing over an existing archive, unless { replace: true }", () => {
  const store = new MemoryStore();
  const sessions = new OrchestratorStore(store);
  const made = sessions.recordNew({ goal: "g", mode: "default" }, project, "same");
  sessions.start();
  // Made current again from its archive, whose later save (not one the current file
  // supersedes) is in the way.
  const done = sessions.complete();
  sessions.save({ ...done, status: "in_progress" });
  const later = { ...done, status: "paused", goal: "a later goal", updated: "2099-01-01T00:00:00Z" };
  store.write(`.claude/orchestrator-history/${made.session_id}.json`, JSON.stringify(later));
  for (const move of ["complete", "abort"]) {
    const err = thrown(() => sessions[move]());
    assert.equal(err.code, "already_exists", move);
    assert.equal(sessions.load().status, "in_progress", `${move}: nothing changed`);
  }
  assert.equal(thrown(() => sessions.abort({ replace: true, fix: true })).code, "invalid_input");
  assert.equal(sessions.abort({ replace: true }).status, "aborted");
  assert.equal(sessions.load(), null);
  assert.deepEqual(sessions.listHistory().entries.map((e) => e.status), ["aborted"]);
});

test("integer options beyond 2^32 - 1 are taken, as by the Node package (wasm32's usize is 32 bits)", () => {
  for (const big of [2 ** 32, Number.MAX_SAFE_INTEGER]) {
    const sessions = new OrchestratorStore(new MemoryStore(), { maxDocumentBytes: big });
    sessions.recordNew({ goal: "g" }, project, "s");
    assert.equal(sessions.load().goal, "g");
    const page = sessions.listHistory({ limit: big, offset: big });
    assert.deepEqual(page.entries, []);
  }
});
