// FileStore and MemoryStore methods, and host stores driven through the Rust adapter
// (`testingStoreCall` runs one Store operation the way the core will).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { FileStore, MemoryStore, testingStoreCall: call } = require('../index.js')

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

test('FileStore reads, writes, deletes and lists files below its root', () => {
  const root = tmp()
  const store = new FileStore(root)
  assert.equal(store.root, root)
  assert.equal(store.durable, false)
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
  call(memory, 'write', 'k/v', bytes('1'))
  assert.equal(memory.read('k/v').toString(), '1')
  call(memory, 'append', 'k/v', bytes('2'))
  call(memory, 'update', 'k/v', bytes('3'))
  assert.equal(call(memory, 'read', 'k/v').toString(), '123')

  const root = tmp()
  const file = new FileStore(root)
  call(file, 'write', 'k/v', bytes('x'))
  call(file, 'update', 'k/v', bytes('y'))
  assert.equal(readFileSync(join(root, 'k/v'), 'utf8'), 'xy')
  assert.deepEqual(call(file, 'list', 'k'), ['k/v'])
  assert.equal(call(file, 'delete', 'k/v'), true)
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

test('a host object is a store: every operation calls its methods with `this`', () => {
  const host = new MapStore()
  assert.equal(call(host, 'read', 'a/x'), null)
  call(host, 'write', 'a/x', bytes('1'))
  call(host, 'write', 'a/b/y', bytes('2'))
  assert.equal(call(host, 'read', 'a/x').toString(), '1')
  assert.deepEqual(call(host, 'list', 'a'), ['a/b/y', 'a/x'])
  call(host, 'update', 'a/x', bytes('+'))
  call(host, 'append', 'a/x', bytes('!'))
  assert.equal(host.map.get('a/x').toString(), '1+!')
  assert.equal(call(host, 'delete', 'a/x'), true)
  assert.equal(call(host, 'delete', 'a/x'), false)
  assert.deepEqual(host.calls.slice(0, 3), [['read', 'a/x'], ['write', 'a/x'], ['write', 'a/b/y']])
})

test('a plain object with string values and a sloppy list is accepted and cleaned', () => {
  const data = { 'p/one': 'text', 'p/two': 'x' }
  const host = {
    read: (key) => data[key],
    write: (key, value) => { data[key] = value.toString() },
    delete: (key) => delete data[key],
    list: () => ['p/two', '../evil', 'p/one', 'other/key', 'p/one', 'p'],
  }
  assert.equal(call(host, 'read', 'p/one').toString(), 'text')
  assert.equal(call(host, 'read', 'p/none'), null)
  assert.deepEqual(call(host, 'list', 'p'), ['p/one', 'p/two'])
})

test('a value thrown by a host method reaches the caller unchanged', () => {
  class HostFailure extends Error {
    constructor() {
      super('disk on fire')
      this.code = 'EHOST'
    }
  }
  const thrownValues = [new HostFailure(), 'a plain string', { not: 'an error' }, 42]
  for (const thrown of thrownValues) {
    for (const op of ['read', 'write', 'delete', 'list', 'update', 'append']) {
      const host = new MapStore()
      host[op === 'update' || op === 'append' ? 'read' : op] = () => { throw thrown }
      let caught = 'nothing thrown'
      try {
        call(host, op, 'k/v', bytes('1'))
      } catch (err) {
        caught = err
      }
      assert.strictEqual(caught, thrown, `${op} throwing ${String(thrown)}`)
    }
  }
  // The package still works afterwards: no exception was left pending.
  assert.equal(call(new MapStore(), 'read', 'k/v'), null)
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
      () => call(host, op, 'k/v'),
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
    assert.throws(() => call(store, 'read', 'k'), { code: 'invalid_input' }, String(store))
  }
  assert.throws(() => call(new MemoryStore(), 'read', '../k'), { code: 'invalid_key' })
  assert.throws(() => call(new MemoryStore(), 'nope', 'k'), { code: 'invalid_input' })
  assert.throws(() => call(new MemoryStore(), 'write', 'k', 7), { code: 'invalid_input' })
})
