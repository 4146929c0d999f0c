// The core's store conformance suite through the wasm package (`runStoreConformance`,
// `storeConformanceCases`), as bindings-node/test/conformance.test.mjs: the package's stores
// and a correct host store pass every case; a host store that breaks the contract fails the
// cases it breaks.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fakeWebStorage, mapStore, thrown, wasm } from "./helpers.mjs";

const { runStoreConformance, storeConformanceCases, MemoryStore, LocalStorageStore } = wasm;

test("the case list is the core suite, non-empty and unique", () => {
  const cases = storeConformanceCases();
  assert.ok(cases.length >= 10);
  assert.equal(new Set(cases).size, cases.length);
  assert.ok(cases.includes("read_your_writes"), cases.join(" "));
});

for (const [name, make] of [
  ["MemoryStore", () => new MemoryStore()],
  ["LocalStorageStore", () => new LocalStorageStore("conf:", fakeWebStorage())],
  ["a host store over a Map", () => mapStore()],
]) {
  test(`${name} passes every conformance case`, () => {
    const report = runStoreConformance(make());
    assert.deepEqual(report.cases.map((c) => c.name), storeConformanceCases());
    assert.deepEqual(report.cases.filter((c) => !c.passed), []);
    assert.equal(report.passed, storeConformanceCases().length);
    assert.equal(report.failed, 0);
  });
}

test("the suite leaves nothing behind and takes another scratch folder", () => {
  const store = mapStore();
  runStoreConformance(store, "scratch/here");
  assert.deepEqual([...store.map.keys()], []);
  assert.ok(store.calls.some(([op, key]) => op === "write" && key.startsWith("scratch/here/")));
});

test("a host store that breaks the contract fails cases, with messages", () => {
  const forgetful = { ...mapStore(), delete: () => true }; // claims to delete, keeps the key
  const report = runStoreConformance(forgetful);
  assert.ok(report.failed > 0);
  assert.equal(report.passed + report.failed, report.cases.length);
  for (const c of report.cases.filter((c) => !c.passed)) assert.equal(typeof c.message, "string");
  for (const c of report.cases.filter((c) => c.passed)) assert.equal(c.message, null);
});

test("bad arguments: not a store is invalid_input, an unsafe scratch invalid_key", () => {
  assert.equal(thrown(() => runStoreConformance(42)).code, "invalid_input");
  assert.equal(thrown(() => runStoreConformance(new MemoryStore(), "../up")).code, "invalid_key");
  assert.equal(thrown(() => runStoreConformance(new MemoryStore(), 5)).code, "invalid_input");
});
