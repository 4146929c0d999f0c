// Documents cross the boundary as plain objects with the shape of the JSON files, through
// the conversions every class uses: a registered result comes back from agentResult as
// the core stored it, and a document argument that is not a JSON object is refused.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { AgentRegistry, MemoryStore, TeamStore, OrchestratorStore } = require('../index.js')

/** `value` into the core and back out, as every class converts documents. */
function roundTrip(value) {
  const reg = new AgentRegistry(new MemoryStore())
  reg.register('agent', 'agent-1', value)
  return reg.agentResult('agent-1')
}

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
  const doc = { ms: 1764438960000, max_safe: Number.MAX_SAFE_INTEGER, min_safe: Number.MIN_SAFE_INTEGER, neg: -4294967297, small: 1e-300 }
  const back = roundTrip(doc)
  for (const [k, v] of Object.entries(doc)) {
    assert.equal(typeof back[k], 'number', k)
    assert.equal(back[k], v, k)
  }
})

test('JSON semantics: undefined members dropped, Date as ISO text', () => {
  const back = roundTrip({ a: undefined, d: new Date('2026-11-29T17:56:00Z'), keep: 1 })
  assert.deepEqual(back, { d: '2026-11-29T17:56:00.000Z', keep: 1 })
})

test('what JSON.stringify would change silently is invalid_input instead', () => {
  const registry = new AgentRegistry(new MemoryStore())
  for (const [value, says] of [
    [{ n: NaN }, 'member `n` is NaN'],
    [{ n: 2 ** 53 }, 'member `n` is 9007199254740992, beyond 2^53 - 1'],
    [{ n: -(2 ** 60) }, 'member `n` is -1152921504606847000, beyond 2^53 - 1'],
    [[1, 2 ** 64], 'member `1` is 18446744073709552000'],
    [{ n: -Infinity }, 'member `n` is -Infinity'],
    [new Map([[1, 2]]), 'is a Map'],
    [{ s: new Set([1]) }, 'member `s` is a Set'],
    [{ f: () => 1 }, 'member `f` is a function'],
  ]) {
    assert.throws(() => registry.register('a', 'id-1', value), (e) => {
      assert.equal(e.code, 'invalid_input')
      assert.match(e.message, new RegExp(says.replace(/[`^+-]/g, '.')))
      return true
    })
  }
  assert.deepEqual(registry.allSessions().sessions, {})
})

test('numbers from 1e21 on, which JSON.stringify writes in exponent form, are kept as floats', () => {
  const registry = new AgentRegistry(new MemoryStore())
  registry.register('a', 'a1', { big: 1e300, mid: -1e23, edge: 1e21 })
  assert.deepEqual(registry.agentResult('a1'), { big: 1e300, mid: -1e23, edge: 1e21 })
  assert.throws(() => registry.register('a', 'a2', { n: 9.99e20 }), (e) => e.code === 'invalid_input')
})

test('what is not a JSON object is invalid_input', () => {
  const cyclic = { a: 1 }
  cyclic.self = cyclic
  const bad = [undefined, null, 3, 'text', [1, 2], { big: 10n }, cyclic, { toJSON: () => 'str' }]
  const teams = new TeamStore(new MemoryStore())
  const sessions = new OrchestratorStore(new MemoryStore())
  for (const value of bad) {
    for (const call of [() => teams.update('t', 'a', value), () => sessions.save(value)]) {
    assert.throws(
      call,
      (err) => err instanceof Error && err.code === 'invalid_input',
      String(value),
    )
    }
  }
  for (const value of [10n, cyclic, () => 1]) {
    assert.throws(() => roundTrip(value), { code: 'invalid_input' }, String(value))
  }
})
