// OrchestratorStore and the orchestrator free functions with the Node package's arguments and
// behaviour: the recording verbs (`recordNew(input, project, suffix?)`, `recordAgentStart`, ...),
// `currentKey`, a bad document argument is `invalid_input` (the core's
// `parse_argument`), `renderResume` of a summary or a document, `jsonSchema`. Mirrors
// bindings-node/test/orchestrator.test.mjs where it tests the same behaviour.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { thrown, wasm } from "./helpers.mjs";

const { MemoryStore, OrchestratorStore, resumeSummary, renderResume, jsonSchema } = wasm;
const CLOCK = "2025-12-27T12:30:00Z";
const vectorText = (path) => readFileSync(new URL(`../../tests/vectors/${path}`, import.meta.url), "utf8");
const vector = (path) => JSON.parse(vectorText(path));
const project = { name: "p", path: "/p" };

/** Asserts `call` throws `invalid_input` whose message includes `says`. */
function refuses(call, says, what = says) {
  const err = thrown(call);
  assert.ok(err instanceof Error, `${what}: not an Error: ${err}`);
  assert.equal(err.code, "invalid_input", `${what}: ${err.message}`);
  assert.ok(err.message.includes(says), `${what}: ${JSON.stringify(err.message)} lacks ${JSON.stringify(says)}`);
  return err;
}

test("currentKey is the current session file's key", () => {
  assert.equal(new OrchestratorStore(new MemoryStore()).currentKey, ".claude/orchestrator-session.json");
});

test("recordNew takes (input: NewSession, project, suffix?); mode defaults to default, suffix to the clock", () => {
  const sessions = new OrchestratorStore(new MemoryStore());
  const doc = sessions.recordNew({ goal: "ship it" }, project);
  assert.equal(doc.mode, "default");
  assert.equal(doc.status, "created");
  assert.equal(doc.goal, "ship it");
  assert.deepEqual(doc.project, project);
  assert.match(doc.session_id, /^\d{4}-\d{2}-\d{2}-[0-9a-f]{6}$/);
  assert.deepEqual(sessions.load(), doc);
  const other = new OrchestratorStore(new MemoryStore()).recordNew({ goal: "g", mode: "fast" }, project, "abc123");
  assert.equal(other.mode, "fast");
  assert.match(other.session_id, /^\d{4}-\d{2}-\d{2}-abc123$/);
  assert.equal(thrown(() => sessions.recordNew({ goal: "again" }, project)).code, "already_exists");
  const next = sessions.recordNew({ goal: "again", archiveCurrent: true }, project, "def456");
  assert.match(next.session_id, /-def456$/);
  assert.equal(sessions.listHistory().entries[0].id, doc.session_id, "archiveCurrent archived the current one");
});

test("recordNew refuses what is not (NewSession, Project, suffix?), writing nothing", () => {
  const store = new MemoryStore();
  const sessions = new OrchestratorStore(store);
  refuses(() => sessions.recordNew("goal", project), "`input`", "a string input");
  refuses(() => sessions.recordNew({ goal: "g", moed: "x" }, project), "unknown field `moed`");
  refuses(() => sessions.recordNew({}, project), "missing field `goal`");
  refuses(() => sessions.recordNew({ goal: 5 }, project), "`input.goal`", "goal type");
  refuses(() => sessions.recordNew({ goal: "g" }, { name: "p", path: 5 }), "invalid type: integer `5`");
  refuses(() => sessions.recordNew({ goal: "g" }, project, 7), "`suffix`", "suffix type");
  refuses(() => sessions.recordNew(), "`input`", "nothing");
  assert.equal(store.size, 0);
});

test("recordAgentStart sets status in_progress and started now; the rest of an agent is the other verbs'", () => {
  const sessions = new OrchestratorStore(new MemoryStore());
  sessions.recordNew({ goal: "g" }, project, "s");
  const before = Date.now();
  const doc = sessions.recordAgentStart({ id: "a", type: "code", task: "write" });
  const agent = doc.agents[0];
  assert.equal(agent.status, "in_progress");
  assert.ok(Date.parse(agent.started) >= before - 1000 && Date.parse(agent.started) <= Date.now() + 1000, agent.started);
  refuses(() => sessions.recordAgentStart({ id: "b", type: "t", task: "x", custom: [1] }), "unknown field `custom`");
  refuses(() => sessions.recordAgentStart({ id: "b", type: "t", task: "x", status: "pending" }), "unknown field `status`");
  refuses(() => sessions.recordAgentStart({ id: "b", type: "t", task: "x", started: "2025-01-01T00:00:00Z" }), "unknown field `started`");
  refuses(() => sessions.recordAgentStart({ type: "code", task: "t" }), "missing field `id`");
  refuses(() => sessions.recordAgentStart({ id: "c", type: "code", task: "t", progress: "half" }), "unknown field `progress`");
  refuses(() => sessions.recordAgentStart("a"), "`input`");
  refuses(() => sessions.recordAgentStart([]), "`input`");
  assert.equal(sessions.load().agents.length, 1, "nothing saved by a refused call");
});

test("the recording verbs name the member at fault; a wrong type is invalid_input", () => {
  const sessions = new OrchestratorStore(new MemoryStore());
  sessions.recordNew({ goal: "g" }, project, "s");
  sessions.recordAgentStart({ id: "a", type: "code", task: "t" });
  refuses(() => sessions.recordAgentProgress({ id: 1, percent: 50 }), "`input.id`");
  refuses(() => sessions.recordAgentDone({ id: null, summary: "done" }), "`input.id`");
  refuses(() => sessions.recordAgentFail({ id: {}, error: "boom" }), "`input.id`");
  refuses(() => sessions.recordTaskDone({ task: true, outcome: "x" }), "`input.task`");
  assert.equal(sessions.recordAgentDone({ id: "a", summary: "done" }).agents[0].status, "complete");
  sessions.recordTaskAdd({ task: "docs" });
  const [doc, task] = sessions.recordTaskDone({ task: "docs", outcome: "written" });
  assert.equal(task, "docs");
  assert.deepEqual(doc.pending_tasks, []);
  assert.equal(sessions.recordContext({ tokens: 5, compressed: true }).context_usage.estimated_tokens, 5);
  assert.equal(sessions.recordSave().session_id, doc.session_id);
});

test("save and archive: a document argument that is not a session is invalid_input, as in the Node package", () => {
  const store = new MemoryStore();
  const sessions = new OrchestratorStore(store);
  const err = refuses(() => sessions.save({ a: 1 }), "`doc` is not an orchestrator session: ");
  assert.equal(err.context?.key, undefined, "no file is named");
  refuses(() => sessions.archive({ a: 1 }), "`doc` is not an orchestrator session: ");
  refuses(() => sessions.save([]), "`doc` must be an object");
  refuses(() => sessions.save("{}"), "`doc` must be an object");
  const doc = vector("orchestrator/seed-example.json");
  doc.agents[0].progress = "most";
  const bad = refuses(() => sessions.save(doc), "agents[0].progress");
  assert.equal(bad.context.field, "agents[0].progress");
  assert.equal(thrown(() => sessions.save({ ...vector("orchestrator/seed-example.json"), schema_version: "2.0" })).code, "incompatible_schema");
  assert.equal(store.size, 0, "nothing written");
  const saved = sessions.save(vector("orchestrator/seed-example.json"));
  assert.equal(saved.session_id, "2025-12-27-abc123");
});

test("resumeSummary of a bad document is invalid_input naming doc; a bad now is invalid_input", () => {
  refuses(() => resumeSummary({}, CLOCK), "`doc` is not an orchestrator session: ");
  const doc = vector("orchestrator/seed-example.json");
  refuses(() => resumeSummary(doc, "yesterday"), "yesterday");
  refuses(() => resumeSummary(doc, 5), "`now`");
  assert.deepEqual(resumeSummary(doc, new Date(CLOCK)), vector("orchestrator/seed-example.resume.json"));
});

test("renderResume takes a summary, or a document (summarised now)", () => {
  const summary = resumeSummary(vector("orchestrator/seed-example.json"), CLOCK);
  assert.equal(renderResume(summary), vectorText("orchestrator/seed-example.resume.md"));
  const md = renderResume(vector("orchestrator/seed-example.json"));
  assert.match(md, /^## 🔄 RESUMING SESSION/);
  assert.match(md, /2025-12-27-abc123/);
  refuses(() => renderResume({ a: 1 }), "`summaryOrDoc` is not a summary: ");
  refuses(() => renderResume({ schema_version: "1.0" }), "`summaryOrDoc` is not an orchestrator session: ");
  refuses(() => renderResume("text"), "`summaryOrDoc` must be an object");
  refuses(() => renderResume(), "`summaryOrDoc` must be an object");
});

test("jsonSchema is the committed schema, a fresh object each call", () => {
  const schema = jsonSchema();
  assert.deepEqual(schema, vector("orchestrator/schema.json"));
  assert.equal(schema.title, "OrchestratorSession");
  schema.title = "changed";
  assert.equal(jsonSchema().title, "OrchestratorSession");
});

test("doctor and archive refuse each other's options (unknown members are invalid_input)", () => {
  const sessions = new OrchestratorStore(new MemoryStore());
  refuses(() => sessions.doctor({ replace: true }), "unknown field `replace`");
  const doc = sessions.recordNew({ goal: "g" }, project, "s");
  refuses(() => sessions.archive(doc, { fix: true }), "unknown field `fix`");
  refuses(() => sessions.complete({ fix: true }), "unknown field `fix`");
  refuses(() => sessions.doctor({ fix: "yes" }), "`options.fix`");
  assert.equal(sessions.doctor({ fix: true }).checked, 1);
});
