// A host store's own methods can call back into the package. An update started from inside
// another update of the same host object (from the host's `write`) would read the old bytes
// and then be overwritten by the outer write: it must throw `conflict` instead, whether it
// goes through the same wrapper or another wrapper (another class, another instance) over the
// same host object. Different host objects stay independent, and the mark is always released.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { ss } from './helpers.mjs'

const require = createRequire(import.meta.url)

const { AgentRegistry, OrchestratorStore, TeamStore, MemoryStore } = ss

/** A host store over a Map whose `write` runs `onWrite` once (then forgets it). */
function hostStore() {
  const map = new Map()
  return {
    map,
    onWrite: null,
    read(key) { return map.get(key) ?? null },
    write(key, data) {
      map.set(key, Buffer.from(data))
      const hook = this.onWrite
      this.onWrite = null
      if (hook) hook(key)
    },
    delete(key) { return map.delete(key) },
    list(prefix) { return [...map.keys()].filter((k) => k.startsWith(prefix + '/')) },
  }
}

/** Runs `inner` from inside the next host write, returning what it threw (or `undefined`). */
function duringNextWrite(host, inner) {
  const outcome = {}
  host.onWrite = () => {
    try {
      inner()
    } catch (err) {
      outcome.error = err
    }
  }
  return outcome
}

function assertConflict(outcome, what) {
  assert.ok(outcome.error, `${what}: the re-entrant update did not throw (its write would be lost)`)
  assert.ok(outcome.error instanceof Error, what)
  assert.equal(outcome.error.code, 'conflict', `${what}: ${outcome.error.message}`)
  assert.match(outcome.error.message, /re-entered/)
}

test('a re-entrant update through the same wrapper is a conflict', () => {
  const host = hostStore()
  const reg = new AgentRegistry(host)
  const outcome = duringNextWrite(host, () => reg.register('inner', 'inner-1', 2))
  reg.register('outer', 'outer-1', 1)
  assertConflict(outcome, 'same wrapper')
  assert.equal(reg.resumeId('outer'), 'outer-1')
  assert.equal(reg.resumeId('inner'), null, 'refused, not half-written')
})

test('a re-entrant update through another wrapper over the same host object is a conflict', () => {
  const host = hostStore()
  const first = new AgentRegistry(host)
  const second = new AgentRegistry(host)
  const outcome = duringNextWrite(host, () => second.register('inner', 'inner-1', 2))
  first.register('outer', 'outer-1', 1)
  assertConflict(outcome, 'two AgentRegistry')
  assert.deepEqual(Object.keys(first.allSessions().sessions), ['outer'])
})

test('a re-entrant update through another class over the same host object is a conflict', () => {
  const host = hostStore()
  const sessions = new OrchestratorStore(host)
  const reg = new AgentRegistry(host)
  const teams = new TeamStore(host)
  const outcome = duringNextWrite(host, () => reg.register('inner', 'inner-1', 2))
  sessions.recordNew({ goal: 'g' }, { name: 'p', path: '/p' }, 'abc')
  assertConflict(outcome, 'OrchestratorStore then AgentRegistry')
  const team = duringNextWrite(host, () => teams.recordSpawn('t', { name: 'a', prompt: 'p' }, 'codex'))
  reg.register('outer', 'outer-1', 1)
  assertConflict(team, 'AgentRegistry then TeamStore')
  const two = duringNextWrite(host, () => new OrchestratorStore(host).recordDecision({ decision: 'd', why: 'r' }))
  sessions.start()
  assertConflict(two, 'two OrchestratorStore')
  assert.equal(sessions.load().status, 'in_progress')
  assert.deepEqual(sessions.load().decisions_made, [])
})

test('uncaught, the conflict reaches the outer caller unchanged and nothing is lost silently', () => {
  const host = hostStore()
  const first = new AgentRegistry(host)
  const second = new AgentRegistry(host)
  host.onWrite = () => second.register('inner', 'inner-1', 2)
  assert.throws(() => first.register('outer', 'outer-1', 1), { code: 'conflict' })
})

test('the busy mark is released after a conflict, a host exception and a normal update', () => {
  const host = hostStore()
  const first = new AgentRegistry(host)
  const second = new AgentRegistry(host)
  duringNextWrite(host, () => second.register('inner', 'inner-1', 2))
  first.register('a', 'a-1', 1)
  second.register('b', 'b-1', 1)
  const failing = new Error('disk full')
  host.onWrite = () => { throw failing }
  assert.throws(() => first.register('c', 'c-1', 1), (e) => e === failing)
  second.register('d', 'd-1', 1)
  assert.deepEqual(Object.keys(first.allSessions().sessions).sort(), ['a', 'b', 'c', 'd'])
})

test('different host objects are independent: an update of one from inside the other works', () => {
  const outerHost = hostStore()
  const innerHost = hostStore()
  const outer = new AgentRegistry(outerHost)
  const inner = new AgentRegistry(innerHost)
  const outcome = duringNextWrite(outerHost, () => inner.register('inner', 'inner-1', 2))
  outer.register('outer', 'outer-1', 1)
  assert.equal(outcome.error, undefined)
  assert.equal(inner.resumeId('inner'), 'inner-1')
  // A MemoryStore (not a host object) inside a host write is not affected either.
  const memory = new AgentRegistry(new MemoryStore())
  const viaMemory = duringNextWrite(outerHost, () => memory.register('m', 'm-1', 3))
  outer.register('again', 'again-1', 1)
  assert.equal(viaMemory.error, undefined)
})

test('frozen host objects work, and the host object gets no visible property', () => {
  const map = new Map()
  const host = Object.freeze({
    read: (key) => map.get(key) ?? null,
    write: (key, data) => { map.set(key, Buffer.from(data)) },
    delete: (key) => map.delete(key),
    list: (prefix) => [...map.keys()].filter((k) => k.startsWith(prefix + '/')),
  })
  const reg = new AgentRegistry(host)
  reg.register('a', 'a-1', 1)
  assert.equal(new AgentRegistry(host).resumeId('a'), 'a-1')
  const plain = hostStore()
  new AgentRegistry(plain)
  assert.deepEqual(Object.getOwnPropertySymbols(plain), [])
  assert.deepEqual(Object.keys(plain), ['map', 'onWrite', 'read', 'write', 'delete', 'list'])
})

test('a host store loading through the handle that is saving gets the file, not a hang', () => {
  // In a child process: a hang there fails this test on its timeout.
  const child = spawnSync(process.execPath, ['-e', `
    const { OrchestratorStore } = require(${JSON.stringify(require.resolve('../index.js'))})
    const map = new Map()
    const seen = []
    let sessions = null
    const host = {
      read: (key) => map.get(key) ?? null,
      write(key, data) {
        map.set(key, Buffer.from(data))
        if (sessions && key.endsWith('orchestrator-session.json')) seen.push(sessions.load().goal)
      },
      delete: (key) => map.delete(key),
      list: (prefix) => [...map.keys()].filter((k) => k.startsWith(prefix + '/')),
    }
    const handle = new OrchestratorStore(host)
    const doc = handle.recordNew({ goal: 'first' }, { name: 'p', path: '/p' }, 'abc')
    sessions = handle
    handle.save({ ...doc, goal: 'second' })
    console.log(JSON.stringify(seen))
  `], { encoding: 'utf8', timeout: 60_000 })
  assert.equal(child.error, undefined, 'the child hung')
  assert.equal(child.status, 0, child.stderr)
  assert.deepEqual(JSON.parse(child.stdout), ['second'])
})
