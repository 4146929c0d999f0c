// AgentRegistry with the Node package's methods and options: the `journal` option,
// `chainIds`, `exportTranscript`, `readTranscript`, `load`, `loadChains`, `compact`, `close`,
// `repair`. Mirrors bindings-node/test/registry.test.mjs and options.test.mjs where they test
// the same behaviour (over a MemoryStore or a host store instead of a FileStore).
import assert from "node:assert/strict";
import { test } from "node:test";

import { mapStore, thrown, wasm } from "./helpers.mjs";

const { AgentRegistry, MemoryStore } = wasm;
const SESSIONS = ".moai/memory/agent-sessions.json";
const CHAINS = ".moai/memory/workflow-chains.json";
const JOURNAL = ".moai/memory/agent-sessions.journal.jsonl";
const text = (store, key) => new TextDecoder().decode(store.read(key));

function refuses(call, says, what = says) {
  const err = thrown(call);
  assert.equal(err.code, "invalid_input", `${what}: ${err.message}`);
  assert.ok(err.message.includes(says), `${what}: ${JSON.stringify(err.message)} lacks ${JSON.stringify(says)}`);
}

test("chains, agents, transcripts, journal mode", () => {
  const store = new MemoryStore();
  const reg = new AgentRegistry(store, { journal: true });
  reg.createChain("C", ["a", "b", "c"]);
  reg.register("b", "b-1", null, "C");
  reg.register("a", "a-1", [1, 2], "C");
  assert.ok(store.read(JOURNAL), "registrations go to the journal");
  const status = reg.chainStatus("C");
  assert.deepEqual(status.done, ["a", "b"]);
  assert.deepEqual(status.out_of_order, ["a"]);
  assert.deepEqual(reg.chainIds(), ["C"]);
  assert.deepEqual(Object.keys(reg.load().sessions), ["b", "a"], "load replays the journal");
  reg.close();
  assert.deepEqual(Object.keys(JSON.parse(text(store, SESSIONS)).sessions), ["b", "a"], "close folds the journal into the seed file");
  reg.register("c", "c-1", 3, "C");
  reg.compact();
  assert.deepEqual(Object.keys(JSON.parse(text(store, SESSIONS)).sessions), ["b", "a", "c"], "compact folds it too");
  assert.deepEqual(reg.loadChains().C.expected_sequence, ["a", "b", "c"]);
  assert.equal(reg.exportTranscript("a-1"), null);
  assert.equal(reg.readTranscript("a-1"), null);
  store.write(".moai/logs/agent-transcripts/agent-a-1.jsonl", '{"role":"user"}\nnot json\n{"cut');
  assert.equal(reg.exportTranscript("a-1"), ".moai/logs/agent-transcripts/agent-a-1.jsonl");
  const lines = reg.readTranscript("a-1");
  assert.deepEqual(lines.map((l) => l.kind), ["record", "invalid", "torn"]);
  assert.deepEqual(lines[0], { kind: "record", line: 1, value: { role: "user" } });
  assert.equal(thrown(() => reg.exportTranscript("../x")).code, "invalid_key");
  assert.equal(thrown(() => reg.readTranscript("../x")).code, "invalid_key");
  refuses(() => reg.exportTranscript(5), "`agentId` must be a string");
  refuses(() => reg.readTranscript(null), "`agentId` must be a string");
  assert.deepEqual(reg.repair(), []);
});

test("chainIds lists the chains of the sessions file, then those only in workflow-chains.json", () => {
  const store = new MemoryStore();
  const reg = new AgentRegistry(store);
  assert.deepEqual(reg.chainIds(), []);
  assert.deepEqual(reg.load().sessions, {});
  assert.deepEqual(reg.loadChains(), {});
  reg.createChain("defined", ["x"]);
  reg.register("a", "a-1", 1, "used");
  assert.deepEqual(reg.chainIds(), ["defined", "used"]);
  store.write(CHAINS, JSON.stringify({ ...reg.loadChains(), elsewhere: { expected_sequence: ["y"], metadata: {} } }));
  assert.deepEqual(reg.chainIds(), ["defined", "used", "elsewhere"]);
});

test("the journal option takes true, false, null, undefined and { minCompactBytes }", () => {
  for (const journal of [true, false, null, undefined, { minCompactBytes: 10 }]) {
    const store = new MemoryStore();
    const reg = new AgentRegistry(store, { journal });
    reg.register("a", "id-1", { ok: true });
    assert.deepEqual(reg.agentResult("id-1"), { ok: true }, JSON.stringify(journal));
    assert.equal(store.read(JOURNAL) !== null, journal === true || typeof journal === "object" && journal !== null, JSON.stringify(journal));
  }
  assert.deepEqual(new AgentRegistry(new MemoryStore(), undefined).chainIds(), []);
});

test("bad registry options are invalid_input naming them", () => {
  const store = new MemoryStore();
  refuses(() => new AgentRegistry(store, { journal: "yes" }), "`options.journal` is invalid");
  refuses(() => new AgentRegistry(store, { journal: 1 }), "`options.journal` is invalid");
  refuses(() => new AgentRegistry(store, { journal: { minCompactBytes: -1 } }), "`options.journal.minCompactBytes` is invalid");
  refuses(() => new AgentRegistry(store, { journal: { minCompactBytes: 1, extra: 2 } }), "unknown field `extra`");
  refuses(() => new AgentRegistry(store, { journal: {} }), "missing field `minCompactBytes`");
  refuses(() => new AgentRegistry(store, { jurnal: true }), "unknown field `jurnal`");
  refuses(() => new AgentRegistry(store, "journal"), "`options` must be an object");
  refuses(() => new AgentRegistry(store, [true]), "`options` must be an object");
  assert.equal(store.size, 0);
});

test("a corrupt registry file is kept aside; repair writes back what is whole", () => {
  const store = new MemoryStore();
  store.write(SESSIONS, '{"sessions": {"a": ');
  const reg = new AgentRegistry(store);
  assert.equal(thrown(() => reg.allSessions()).code, "corrupt_state");
  assert.equal(thrown(() => reg.load()).code, "corrupt_state");
  const [repaired, ...more] = reg.repair();
  assert.deepEqual(more, []);
  assert.equal(repaired.key, SESSIONS);
  assert.equal(typeof repaired.action, "string");
  const aside = repaired.kept_copy;
  assert.match(aside, /agent-sessions\.json\.corrupt-\d{8}T\d{6}Z/);
  assert.equal(text(store, aside), '{"sessions": {"a": ');
  reg.register("a", "a-1", 1);
  assert.equal(reg.resumeId("a"), "a-1");
});

test("repair writes back the complete entries of a torn sessions file", () => {
  const store = new MemoryStore();
  const reg = new AgentRegistry(store);
  for (const i of [0, 1, 2]) reg.register(`agent-${i}`, `id-${i}`, { i }, "C");
  const whole = text(store, SESSIONS);
  const torn = whole.slice(0, whole.indexOf('"id-2": {') + 20);
  store.write(SESSIONS, torn);
  assert.equal(thrown(() => reg.resumeId("agent-0")).code, "corrupt_state");
  const [{ kept_copy: aside, action }] = reg.repair();
  assert.match(action, /^salvaged /);
  assert.equal(text(store, aside), torn, "the torn bytes are kept");
  assert.deepEqual(["agent-0", "agent-1", "agent-2"].map((n) => reg.resumeId(n)), ["id-0", "id-1", "id-2"]);
});

test("repair repairs a corrupt sessions file and a corrupt chains file together", () => {
  const host = mapStore();
  host.write(SESSIONS, "nope");
  host.write(CHAINS, "[1,");
  const reg = new AgentRegistry(host);
  assert.equal(thrown(() => reg.createChain("C", ["x"])).code, "corrupt_state");
  assert.equal(thrown(() => reg.loadChains()).code, "corrupt_state");
  const repaired = reg.repair();
  assert.deepEqual(repaired.map((r) => r.key), [SESSIONS, CHAINS]);
  assert.equal(repaired[1].action, "started empty");
  const kept = repaired.map((r) => r.kept_copy);
  assert.equal(kept.length, 2);
  assert.match(kept[0], /agent-sessions\.json\.corrupt-/);
  assert.match(kept[1], /workflow-chains\.json\.corrupt-/);
  assert.deepEqual(kept.map((k) => host.map.get(k)).map((v) => (typeof v === "string" ? v : new TextDecoder().decode(v))), ["nope", "[1,"]);
  reg.createChain("C", ["x"]);
  reg.register("x", "x-1", { ok: true }, "C");
  assert.deepEqual(reg.chainResults("C").map((r) => r.result), [{ ok: true }]);
  assert.deepEqual(reg.repair(), [], "nothing left to repair");
});

test("register takes an undefined result as null, createChain a null metadata as none", () => {
  const reg = new AgentRegistry(new MemoryStore());
  reg.register("a", "a-1", undefined);
  assert.equal(reg.agentResult("a-1"), null);
  assert.equal(reg.agents()[0].has_result, false);
  reg.createChain("C", ["a"], null);
  reg.createChain("D", ["a"]);
  assert.deepEqual(reg.loadChains().C.metadata, reg.loadChains().D.metadata);
});
