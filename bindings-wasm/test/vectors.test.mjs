// The shared vectors under <repo>/tests/vectors through the Node build (pkg-node): the same
// goldens the Rust suites check, reached through the JS API.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { thrown, wasm } from "./helpers.mjs";

const { AgentRegistry, MemoryStore, OrchestratorStore, TeamStore, renderResume, resumeSummary, salvage } = wasm;
const vectors = join(dirname(dirname(dirname(fileURLToPath(import.meta.url)))), "tests", "vectors");
const bytes = (...path) => readFileSync(join(vectors, ...path));
const json = (...path) => JSON.parse(bytes(...path).toString("utf8"));
const CURRENT = ".claude/orchestrator-session.json";
// The fixed clock of the orchestrator goldens (tests/vectors/orchestrator/README.md).
const NOW = "2025-12-27T12:30:00Z";

test("orchestrator: the seed example loads unchanged and its summary equals the goldens", () => {
  const store = new MemoryStore();
  store.write(CURRENT, bytes("orchestrator", "seed-example.json"));
  const doc = new OrchestratorStore(store).load();
  assert.deepEqual(doc, json("orchestrator", "seed-example.json"));
  const summary = resumeSummary(doc, NOW);
  assert.deepEqual(summary, json("orchestrator", "seed-example.resume.json"));
  assert.deepEqual(resumeSummary(doc, new Date(NOW)), summary);
  assert.equal(renderResume(summary), bytes("orchestrator", "seed-example.resume.md").toString("utf8"));
});

test("orchestrator: the torn copy fails as corrupt_state and salvages as the golden", () => {
  const torn = bytes("orchestrator", "seed-example.torn.json");
  const golden = json("orchestrator", "seed-example.torn.salvaged.json");
  assert.deepEqual(salvage(torn), golden);
  assert.deepEqual(salvage(torn.toString("utf8")), golden);
  const store = new MemoryStore();
  store.write(CURRENT, torn);
  const err = thrown(() => new OrchestratorStore(store).load());
  assert.equal(err.code, "corrupt_state");
  assert.deepEqual(err.salvaged, golden.document);
});

test("orchestrator: the project fixture's history lists in the golden order, its current session loads", () => {
  const store = new MemoryStore();
  const root = join(vectors, "orchestrator", "project", ".claude");
  store.write(CURRENT, readFileSync(join(root, "orchestrator-session.json")));
  for (const name of readdirSync(join(root, "orchestrator-history"))) {
    store.write(`.claude/orchestrator-history/${name}`, readFileSync(join(root, "orchestrator-history", name)));
  }
  const sessions = new OrchestratorStore(store);
  const page = sessions.listHistory();
  assert.deepEqual(page.entries, json("orchestrator", "project.history.json"));
  assert.deepEqual(page.skipped, []);
  assert.equal(page.total, 3);
  assert.deepEqual(sessions.listHistory({ limit: 1, offset: 1 }).entries, [page.entries[1]]);
  assert.deepEqual(sessions.listHistory({ status: "aborted" }).entries.map((e) => e.id), ["2025-12-22-0be7c2"]);
  const current = sessions.load();
  assert.match(current.updated, /Z$/, "naive `updated` resolved to UTC");
});

test("registry: every should_resume golden matches through the JS API", () => {
  const registry = new AgentRegistry(new MemoryStore());
  for (let count = 0; count < 7; count += 1) {
    registry.register(`agent-${count}`, `id-${count}`, { n: count });
    for (let i = 0; i < count; i += 1) assert.equal(registry.incrementResumeCount(`id-${count}`), true);
  }
  const cases = json("registry", "should_resume.json");
  assert.ok(cases.length >= 2600);
  const wrong = cases.filter(
    (c) => registry.shouldResume(c.agent_name, c.current_task, c.previous_task) !== c.resume,
  );
  assert.deepEqual(wrong, []);
  // decideResume with the compat policy agrees with shouldResume.
  for (const c of cases.slice(0, 200)) {
    assert.equal(registry.decideResume(c.agent_name, c.current_task, c.previous_task).resume, c.resume);
  }
});

function teamFiles(folder) {
  return readdirSync(join(vectors, "teams", folder)).filter((n) => n.endsWith(".json"));
}

test("teams: the crate's files and the crate-written goldens round-trip byte for byte", () => {
  const unsafe = [];
  for (const folder of ["fixtures", "crate-written"]) {
    for (const name of teamFiles(folder)) {
      const original = bytes("teams", folder, name);
      const agent = JSON.parse(original.toString("utf8")).name;
      const store = new MemoryStore();
      const key = `teams/t/sessions/${agent}.json`;
      store.write(key, original);
      const teams = new TeamStore(store);
      const state = teams.load("t", agent);
      assert.deepEqual(teams.list("t").members.map((m) => m.agent), [agent]);
      assert.equal(teams.resumePlan("t").members.length, 1);
      store.delete(key);
      if (/\d{16,}/.test(original.toString("utf8"))) {
        // Integers beyond 2^53 (`budget_chars: u64::MAX`) do not survive a JS number: saving
        // the object back is refused, never written as another number.
        assert.equal(thrown(() => teams.save("t", state)).code, "invalid_input", `${folder}/${name}`);
        assert.equal(store.read(key), null);
        unsafe.push(name);
        continue;
      }
      assert.equal(teams.save("t", state), key);
      assert.equal(store.readText(key), original.toString("utf8"), `${folder}/${name}`);
    }
  }
  assert.deepEqual(unsafe.sort(), ["from-offset.json", "micros.json", "millis.json"]);
});

test("teams: every file of bad/ is refused as corrupt_state and listed as skipped", () => {
  for (const name of teamFiles("bad")) {
    const store = new MemoryStore();
    store.write(`teams/t/sessions/a.json`, bytes("teams", "bad", name));
    const teams = new TeamStore(store);
    assert.equal(thrown(() => teams.load("t", "a")).code, "corrupt_state", name);
    const listing = teams.list("t");
    assert.deepEqual(listing.members, [], name);
    assert.deepEqual(listing.skipped.map((s) => s.code), ["corrupt_state"], name);
  }
});
