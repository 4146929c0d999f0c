// Documents cross the boundary as plain objects with the shape of the JSON files
// (`testingDocumentRoundTrip` runs the conversions every class uses).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { testingDocumentRoundTrip: roundTrip } = require('../index.js')

test('a document comes back equal, in key order, with unknown fields kept', () => {
  const doc = {
    schema_version: '1.0',
    zeta: 1,
    alpha: { nested: [1, 'two', null, true, { deep: 2.5 }] },
    unknown_field_from_a_newer_writer: { kept: ['yes'] },
    empty: {},
    unicode: 'café ✓ \u2028',
  }
  const back = roundTrip(doc)
  assert.deepEqual(back, doc)
  assert.deepEqual(Object.keys(back), Object.keys(doc))
  assert.notStrictEqual(back, doc)
  assert.equal(Object.getPrototypeOf(back), Object.prototype)
})

test('large integers stay numbers, never BigInt', () => {
  const doc = { ms: 1764438960000, max_safe: Number.MAX_SAFE_INTEGER, big: 1e300, neg: -4294967297 }
  const back = roundTrip(doc)
  for (const [k, v] of Object.entries(doc)) {
    assert.equal(typeof back[k], 'number', k)
    assert.equal(back[k], v, k)
  }
})

test('JSON semantics: undefined members dropped, Date as ISO text, NaN as null', () => {
  const back = roundTrip({ a: undefined, d: new Date('2026-11-29T17:56:00Z'), n: NaN, keep: 1 })
  assert.deepEqual(back, { d: '2026-11-29T17:56:00.000Z', n: null, keep: 1 })
})

test('what is not a JSON object is invalid_input', () => {
  const cyclic = { a: 1 }
  cyclic.self = cyclic
  const bad = [undefined, null, 3, 'text', [1, 2], { big: 10n }, cyclic, { toJSON: () => 'str' }]
  for (const value of bad) {
    assert.throws(
      () => roundTrip(value),
      (err) => err instanceof Error && err.code === 'invalid_input',
      String(value),
    )
  }
})
