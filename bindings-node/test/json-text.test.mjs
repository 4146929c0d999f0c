// `OrchestratorStore.save` reads a document of plain objects, arrays and JSON scalars through
// `JSON.stringify` alone (the core's PLAIN_JSON_JS) and anything else through the strict
// replacer: both give the same saved document.
import test from 'node:test'
import assert from 'node:assert/strict'
import { ss, vector } from './helpers.mjs'

const { MemoryStore, OrchestratorStore } = ss

/** `levels` arrays inside each other around `1`. */
function nested(levels) {
  let value = 1
  for (let i = 0; i < levels; i++) value = [value]
  return value
}

/** `doc` with a prototype other than `Object.prototype`, which only the strict reading takes. */
function notPlain(doc) {
  return Object.assign(Object.create({ inherited: 1 }), doc)
}

test('a plain document and the same one read strictly save the same', () => {
  const seed = vector('orchestrator/seed-example.json')
  const bare = Object.assign(Object.create(null), { a: 1, b: [null, true, 'x'] })
  const docs = {
    seed,
    'members JSON leaves out or writes as null': { ...seed, skipped: undefined, holes: [1, , undefined] },
    'numbers JSON holds': { ...seed, numbers: [-0, 0.1, 2 ** 53 - 1, -(2 ** 53 - 1), 1e21, -1e300] },
    'a null-prototype object': { ...seed, bare },
    'nesting at the limit': { ...seed, deep: nested(99) },
  }
  for (const [what, doc] of Object.entries(docs)) {
    const sessions = new OrchestratorStore(new MemoryStore())
    const { updated: _a, ...plain } = sessions.save(doc)
    const { updated: _b, ...strict } = sessions.save(notPlain(doc))
    assert.deepEqual(plain, strict, what)
    assert.deepEqual(plain, (({ updated: _, ...rest }) => rest)(JSON.parse(JSON.stringify(doc))), what)
  }
})
