// Values nested deeper than the core's limit (MAX_VALUE_NESTING = 100 levels of objects and
// arrays) are `invalid_input` with `context.max_depth === '100'`, at any depth: 101 levels as
// well as 100,000 (no stack overflow, no `RangeError`), through every entry point that takes
// a value or a document.
import test from 'node:test'
import assert from 'node:assert/strict'
import { ss } from './helpers.mjs'

const { AgentRegistry, MemoryStore, OrchestratorStore, TeamStore, resumeSummary } = ss

const LIMIT = 100

/** `levels` arrays inside each other around `1` (`nestedArray(1)` is `[1]`, depth 1). */
function nestedArray(levels) {
  let value = 1
  for (let i = 0; i < levels; i++) value = [value]
  return value
}

/** `levels` objects inside each other around `1` (`{ a: 1 }` is depth 1). */
function nestedObject(levels) {
  let value = 1
  for (let i = 0; i < levels; i++) value = { a: value }
  return value
}

/** An object and array mix, `levels` deep. */
function nestedMixed(levels) {
  let value = 'leaf'
  for (let i = 0; i < levels; i++) value = i % 2 ? { a: value, b: [1, 2] } : [0, value]
  return value
}

/** A value whose depth comes from `toJSON` (what is written is what is counted). */
function nestedByToJSON(levels) {
  return { toJSON: () => nestedArray(levels) }
}

const PROJECT = { name: 'p', path: '/p' }

/** Entry points taking a value, as `(value) => call`; the argument nests `extra` levels above the value. */
const ENTRIES = {
  'register result': { extra: 0, call: (v) => new AgentRegistry(new MemoryStore()).register('a', 'a-1', v) },
  'createChain metadata': { extra: 0, call: (v) => new AgentRegistry(new MemoryStore()).createChain('c', ['a'], v) },
  'OrchestratorStore.save document': {
    extra: 1,
    call: (v) => {
      const sessions = new OrchestratorStore(new MemoryStore())
      sessions.save({ ...sessions.recordNew({ goal: 'g' }, PROJECT), extension: v })
    },
  },
  'TeamStore.update changes': {
    extra: 1,
    call: (v) => {
      const teams = new TeamStore(new MemoryStore())
      teams.recordSpawn('t', { name: 'a', prompt: 'p' }, 'codex')
      teams.update('t', 'a', { extension: v })
    },
  },
  'resumeSummary document': {
    extra: 1,
    call: (v) => {
      const doc = new OrchestratorStore(new MemoryStore()).recordNew({ goal: 'g' }, PROJECT)
      resumeSummary({ ...doc, extension: v }, '2025-12-27T12:30:00Z')
    },
  },
}

/** Asserts `call` throws the nesting error of the package. */
function throwsTooDeep(call, what) {
  assert.throws(call, (err) => {
    assert.ok(err instanceof Error, `${what}: not an Error: ${err}`)
    assert.ok(!(err instanceof RangeError), `${what}: a RangeError: ${err.message}`)
    assert.equal(err.code, 'invalid_input', `${what}: ${err.message}`)
    assert.ok(err.message.includes(`nested deeper than the limit of ${LIMIT} levels`), `${what}: ${err.message}`)
    assert.ok(!err.message.includes('call stack'), `${what}: ${err.message}`)
    assert.equal(err.context?.max_depth, String(LIMIT), `${what}: context ${JSON.stringify(err.context)}`)
    return true
  }, what)
}

test('a value nested deeper than 100 levels is invalid_input with max_depth, at any depth', () => {
  for (const [entry, { extra, call }] of Object.entries(ENTRIES)) {
    for (const levels of [LIMIT + 1, 127, 128, 129, 1000, 100_000]) {
      for (const make of [nestedArray, nestedObject, nestedMixed, nestedByToJSON]) {
        const depth = levels - extra
        throwsTooDeep(() => call(make(depth)), `${entry}: ${make.name}(${depth}), ${levels} levels in all`)
      }
    }
  }
})

test('a value nested exactly 100 levels is accepted', () => {
  for (const [entry, { extra, call }] of Object.entries(ENTRIES)) {
    for (const make of [nestedArray, nestedObject, nestedMixed]) {
      call(make(LIMIT - extra)) // throws on failure
      assert.ok(true, entry)
    }
  }
  const reg = new AgentRegistry(new MemoryStore())
  reg.register('a', 'a-1', nestedArray(LIMIT))
  assert.deepEqual(reg.agentResult('a-1'), nestedArray(LIMIT))
})

test('a shared (not circular) object at two depths is counted where it is written', () => {
  const shared = nestedArray(LIMIT - 1)
  const reg = new AgentRegistry(new MemoryStore())
  // depth 100 under `a`, 101 under `b`: too deep.
  throwsTooDeep(() => reg.register('a', 'a-1', { a: shared, b: [shared] }), 'shared deeper')
  reg.register('a', 'a-2', { a: shared, b: shared })
  assert.deepEqual(reg.agentResult('a-2'), { a: shared, b: shared })
})

test('cycles are still reported as cycles', () => {
  const cyclic = { a: 1 }
  cyclic.self = cyclic
  assert.throws(
    () => new AgentRegistry(new MemoryStore()).register('a', 'a-1', cyclic),
    (err) => err.code === 'invalid_input' && /circular/i.test(err.message) && err.context?.max_depth === undefined,
  )
})
