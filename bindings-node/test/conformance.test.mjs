// The core's store conformance suite through JS: the package's stores and a correct host
// store pass every case; a host store that breaks the contract fails the cases it breaks.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ss, tempDir } from './helpers.mjs'

const { runStoreConformance, storeConformanceCases, FileStore, MemoryStore } = ss

/** A correct host store over a Map. */
function mapStore() {
  const map = new Map()
  return {
    map,
    read: (key) => map.get(key) ?? null,
    write: (key, data) => { map.set(key, Buffer.from(data)) },
    delete: (key) => map.delete(key),
    list: (prefix) => [...map.keys()].filter((k) => k.startsWith(`${prefix}/`)),
  }
}

test('the case list is the core suite, non-empty and unique', () => {
  const cases = storeConformanceCases()
  assert.ok(cases.length >= 10)
  assert.equal(new Set(cases).size, cases.length)
})

for (const [name, make] of [
  ['MemoryStore', () => new MemoryStore()],
  ['FileStore', () => new FileStore(tempDir())],
  ['a host store over a Map', mapStore],
]) {
  test(`${name} passes every conformance case`, () => {
    const report = runStoreConformance(make())
    assert.deepEqual(report.cases.map((c) => c.name), storeConformanceCases())
    assert.deepEqual(report.cases.filter((c) => !c.passed), [])
    assert.equal(report.passed, storeConformanceCases().length)
    assert.equal(report.failed, 0)
  })
}

test('the suite leaves nothing behind and takes another scratch folder', () => {
  const store = mapStore()
  runStoreConformance(store, 'scratch/here')
  assert.deepEqual([...store.map.keys()], [])
})

test('a host store that breaks the contract fails cases, with messages', () => {
  const forgetful = { ...mapStore(), delete: () => true } // claims to delete, keeps the key
  const report = runStoreConformance(forgetful)
  assert.ok(report.failed > 0)
  for (const c of report.cases.filter((c) => !c.passed)) assert.equal(typeof c.message, 'string')
  const unsorted = mapStore()
  unsorted.list = (prefix) => [...unsorted.map.keys()].filter((k) => k.startsWith(`${prefix}/`)).reverse()
  // The adapter sorts what `list` returns, so an unsorted host still conforms.
  assert.equal(runStoreConformance(unsorted).failed, 0)
})
