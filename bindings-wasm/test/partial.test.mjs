// tests/vectors/partial (see its README): documents lacking keys their readers treat as
// optional load, and a rewrite keeps every entry as it was, absent keys absent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { wasm } from "./helpers.mjs";

const { AgentRegistry, MemoryStore, OrchestratorStore, TeamStore } = wasm;
const ALL = JSON.parse(readFileSync(new URL("../../tests/vectors/partial/cases.json", import.meta.url), "utf8"));

/** The value at a JSON pointer (no escapes in these vectors), or undefined. */
function at(doc, pointer) {
  for (const part of pointer.split("/").slice(1)) {
    if (doc === null || typeof doc !== "object" || !Object.hasOwn(doc, part)) return undefined;
    doc = doc[part];
  }
  return doc;
}

/** Writes the case's document, loads it and rewrites it through its target: the file after. */
function rewritten(c) {
  const store = new MemoryStore();
  const key = ALL.targets[c.target].key;
  store.write(key, Buffer.from(JSON.stringify(c.document, null, 2)));
  if (c.target === "registry") {
    const reg = new AgentRegistry(store);
    reg.load();
    reg.register("probe", "probe-1", { ok: true });
  } else if (c.target === "chains") {
    const reg = new AgentRegistry(store);
    reg.loadChains();
    reg.createChain("probe", ["a"]);
  } else if (c.target === "orchestrator") {
    const sessions = new OrchestratorStore(store);
    sessions.save(sessions.load());
  } else {
    const teams = new TeamStore(store);
    teams.save("t", teams.load("t", "a"));
  }
  return JSON.parse(Buffer.from(store.read(key)).toString("utf8"));
}

test("every partial document loads and keeps its entries, absent keys absent", () => {
  assert.ok(ALL.cases.length >= 10);
  for (const c of ALL.cases) {
    const after = rewritten(c);
    for (const pointer of c.kept) assert.deepEqual(at(after, pointer), at(c.document, pointer), `${c.name}: ${pointer}`);
    for (const pointer of c.absent) assert.equal(at(after, pointer), undefined, `${c.name}: ${pointer} was added`);
  }
});
