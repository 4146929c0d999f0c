// FileStore and MemoryStore methods, and host stores driven through the Rust adapter by the
// package's classes (TeamStore reads, writes, deletes and lists; AgentRegistry in journal
// mode appends) and by the core's conformance suite.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, existsSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createRequire } from 'node:module'
import { throwsCode } from './helpers.mjs'

const require = createRequire(import.meta.url)
const { FileStore, MemoryStore, TeamStore, AgentRegistry, runStoreConformance } = require('../index.js')

const bytes = (s) => Buffer.from(s, 'utf8')
const tmp = () => mkdtempSync(join(tmpdir(), 'session-state-stores-'))

function exercise(store) {
  assert.equal(store.read('a/b.json'), null)
  store.write('a/b.json', bytes('{"x":1}'))
  store.write('a/c/d.json', new Uint8Array([1, 2, 3]))
  store.write('ab.json', bytes('3'))
  const got = store.read('a/b.json')
  assert.ok(Buffer.isBuffer(got))
  assert.equal(got.toString('utf8'), '{"x":1}')
  assert.deepEqual([...store.read('a/c/d.json')], [1, 2, 3])
  assert.deepEqual(store.list('a'), ['a/b.json', 'a/c/d.json'])
  assert.deepEqual(store.list('missing'), [])
  store.write('a/b.json', bytes('{"x":2}'))
  assert.equal(store.read('a/b.json').toString(), '{"x":2}')
  assert.equal(store.delete('a/b.json'), true)
  assert.equal(store.delete('a/b.json'), false)
  assert.equal(store.read('a/b.json'), null)
  assert.deepEqual(store.list('a'), ['a/c/d.json'])
}

test('FileStore reads a leading ~ as the home folder, as a shell does', () => {
  const home = tmp()
  const before = process.env.HOME
  process.env.HOME = home
  try {
    assert.equal(homedir(), home)
    assert.equal(new FileStore('~').root, home)
    const store = new FileStore('~/.claude')
    assert.equal(store.root, join(home, '.claude'))
    new TeamStore(store).recordSpawn('alpha', { name: 'z', prompt: 'p' }, 'codex')
    assert.ok(existsSync(join(home, '.claude/teams/alpha/sessions/z.json')))
    assert.equal(new FileStore('./~/x').root, resolve('./~/x'), 'only a leading ~')
    throwsCode(() => new FileStore('~user/x'), 'invalid_input', "another user's home")
    process.env.HOME = ''
    throwsCode(() => new FileStore('~/x'), 'invalid_input', 'HOME unset')
  } finally {
    process.env.HOME = before
  }
})

test('FileStore reads, writes, deletes and lists files below its root', () => {
  const root = tmp()
  const store = new FileStore(root)
  assert.equal(store.root, root)
  assert.equal(store.durable, true)
  exercise(store)
  assert.deepEqual([...readFileSync(join(root, 'a/c/d.json'))], [1, 2, 3])
  assert.equal(existsSync(join(root, 'a/b.json')), false)
})

test('FileStore with durable writes', () => {
  const store = new FileStore(tmp(), { durable: true })
  assert.equal(store.durable, true)
  exercise(store)
  assert.throws(() => new FileStore(tmp(), 'yes'), { code: 'invalid_input' })
  assert.throws(() => new FileStore(tmp(), { durable: 'yes' }), { code: 'invalid_input' })
})

test('MemoryStore reads, writes, deletes and lists', () => {
  const store = new MemoryStore()
  exercise(store)
  assert.equal(store.size, 2)
})

test('class stores work through the adapter and share their data', () => {
  const memory = new MemoryStore()
  new AgentRegistry(memory).register('a', 'a-1', { n: 1 })
  assert.deepEqual(JSON.parse(memory.read('.moai/memory/agent-sessions.json')).sessions, { a: 'a-1' })
  assert.equal(new AgentRegistry(memory).resumeId('a'), 'a-1', 'a second handle sees the first')
  assert.equal(runStoreConformance(memory).failed, 0)

  const root = tmp()
  const file = new FileStore(root)
  new TeamStore(file).recordSpawn('t', { name: 'a', prompt: 'p' }, 'codex')
  assert.equal(JSON.parse(readFileSync(join(root, 'teams/t/sessions/a.json'), 'utf8')).name, 'a')
  assert.deepEqual(file.list('teams'), ['teams/t/sessions/a.json'])
  assert.equal(runStoreConformance(file).failed, 0)
})

/** A host store over a Map, written as a class so its methods need `this`. */
class MapStore {
  constructor() {
    this.map = new Map()
    this.calls = []
  }
  read(key) {
    this.calls.push(['read', key])
    return this.map.get(key) ?? null
  }
  write(key, data) {
    this.calls.push(['write', key])
    assert.ok(Buffer.isBuffer(data))
    this.map.set(key, Buffer.from(data))
  }
  delete(key) {
    this.calls.push(['delete', key])
    return this.map.delete(key)
  }
  list(prefix) {
    this.calls.push(['list', prefix])
    return [...this.map.keys()].filter((k) => k.startsWith(prefix + '/'))
  }
}

/** One operation of the adapter on `host`, through the classes. */
const OPS = {
  read: (host) => new TeamStore(host).load('t', 'a'),
  write: (host) => new TeamStore(host).save('t', { name: 'a', backendType: 'codex', prompt: 'p', createdAt: '2026-01-01T00:00:00Z' }),
  delete: (host) => new TeamStore(host).delete('t', 'a'),
  list: (host) => new TeamStore(host).listTeams(),
  append: (host) => new AgentRegistry(host, { journal: true }).register('a', 'a-1', 1),
}

test('a host object is a store: every operation calls its methods with `this`', () => {
  const host = new MapStore()
  const teams = new TeamStore(host)
  assert.deepEqual(teams.listTeams(), [])
  const state = teams.recordSpawn('t', { name: 'a', prompt: 'p' }, 'codex')
  assert.deepEqual(host.calls.slice(0, 3), [['list', 'teams'], ['read', 'teams/t/sessions/a.json'], ['write', 'teams/t/sessions/a.json']])
  assert.deepEqual(teams.load('t', 'a'), state)
  assert.deepEqual(teams.listTeams(), [{ name: 't', sessions: 1 }])
  assert.equal(teams.delete('t', 'a'), true)
  assert.equal(teams.delete('t', 'a'), false)
  OPS.append(host)
  assert.ok(host.map.get('.moai/memory/agent-sessions.journal.jsonl').toString().includes('"a-1"'))
  assert.equal(new AgentRegistry(host).resumeId('a'), 'a-1')
  assert.deepEqual(runStoreConformance(new MapStore()).failed, 0)
})

test('a plain object with string values and a sloppy list is accepted and cleaned', () => {
  const doc = '{"name": "one", "backendType": "codex", "prompt": "p", "createdAt": "2026-01-01T00:00:00Z"}'
  const data = { 'teams/t/sessions/one.json': doc, 'teams/t/sessions/two.json': doc.replace('one', 'two') }
  const host = {
    read: (key) => data[key],
    write: (key, value) => { data[key] = value.toString() },
    delete: (key) => delete data[key],
    list: () => ['teams/t/sessions/two.json', '../evil', 'teams/t/sessions/one.json', 'other/key', 'teams/t/sessions/one.json', 'teams'],
  }
  const teams = new TeamStore(host)
  assert.equal(teams.load('t', 'one').name, 'one')
  throwsNotFound(() => teams.load('t', 'none'))
  assert.deepEqual(teams.list('t').members.map((m) => m.key), ['teams/t/sessions/one.json', 'teams/t/sessions/two.json'])
  assert.deepEqual(teams.list('t').skipped, [])
})

function throwsNotFound(call) {
  assert.throws(call, { code: 'not_found' })
}

test('a value thrown by a host method reaches the caller unchanged', () => {
  class HostFailure extends Error {
    constructor() {
      super('disk on fire')
      this.code = 'EHOST'
    }
  }
  const thrownValues = [new HostFailure(), 'a plain string', { not: 'an error' }, 42]
  for (const thrown of thrownValues) {
    for (const op of Object.keys(OPS)) {
      const host = new MapStore()
      host[op === 'append' ? 'read' : op] = () => { throw thrown }
      let caught = 'nothing thrown'
      try {
        OPS[op](host)
      } catch (err) {
        caught = err
      }
      assert.strictEqual(caught, thrown, `${op} throwing ${String(thrown)}`)
    }
  }
  // The package still works afterwards: no exception was left pending.
  assert.equal(new TeamStore(new MapStore()).delete('t', 'a'), false)
})

test('a host method returning the wrong type is a storage error', () => {
  const cases = [
    ['read', () => 42],
    ['read', () => ({})],
    ['delete', () => 'yes'],
    ['list', () => 'a/b'],
    ['list', () => [1, 2]],
  ]
  for (const [op, method] of cases) {
    const host = new MapStore()
    host[op] = method
    assert.throws(
      () => OPS[op](host),
      (err) => err instanceof Error && err.code === 'storage' && err.message.includes(`\`${op}\``),
      op,
    )
  }
})

test('anything that is not a store is invalid_input', () => {
  const notStores = [
    undefined,
    null,
    3,
    'store',
    {},
    { read() {}, write() {}, delete() {} },
    { read: 1, write() {}, delete() {}, list() {} },
  ]
  for (const store of notStores) {
    for (const make of [(s) => new TeamStore(s), (s) => new AgentRegistry(s), (s) => runStoreConformance(s)]) {
      assert.throws(() => make(store), { code: 'invalid_input' }, String(store))
    }
  }
})
