// Host stores are synchronous by contract: a method returning a thenable (an `async` method, a
// Promise, any object with a callable `then`) is a `storage` error naming the method, never a
// silently lost write; a rejected Promise does not end the process; `write` must return
// nothing, `delete` a boolean and `list` an array of strings.
import test from 'node:test'
import assert from 'node:assert/strict'
import vm from 'node:vm'
import { ss } from './helpers.mjs'

const { TeamStore, AgentRegistry, runStoreConformance } = ss

/** A synchronous in-memory host store. */
function mapStore() {
  const map = new Map()
  return {
    map,
    read: (key) => map.get(key) ?? null,
    write: (key, data) => { map.set(key, Buffer.from(data)) },
    delete: (key) => map.delete(key),
    list: (prefix) => [...map.keys()].filter((k) => k.startsWith(prefix + '/')),
  }
}

const STATE = { name: 'a', backendType: 'codex', prompt: 'p', createdAt: '2026-01-01T00:00:00Z' }

/** One operation through the classes that calls host method `method`. */
const OPS = {
  read: (host) => new TeamStore(host).load('t', 'a'),
  write: (host) => new TeamStore(host).save('t', STATE),
  delete: (host) => new TeamStore(host).delete('t', 'a'),
  list: (host) => new TeamStore(host).listTeams(),
}

/** Asserts `call` throws the `storage` error of a thenable returned by host method `method`. */
function throwsThenable(call, method, what) {
  assert.throws(call, (err) => {
    assert.ok(err instanceof Error, `${what}: not an Error: ${err}`)
    assert.equal(err.code, 'storage', `${what}: ${err.message}`)
    assert.ok(err.message.includes(`\`${method}\``), `${what}: ${err.message}`)
    assert.ok(err.message.includes('host store methods must be synchronous'), `${what}: ${err.message}`)
    assert.equal(err.context.method, method, what)
    return true
  }, what)
}

/** Resolves after pending promise jobs and a macrotask have run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

test('an async write is a storage error, not a silently lost write', () => {
  const host = mapStore()
  const plain = host.write
  host.write = async (key, data) => {
    await null
    plain(key, data)
  }
  throwsThenable(() => OPS.write(host), 'write', 'async write')
  // Through the read-modify-write path (`update`) too.
  throwsThenable(() => new TeamStore(host).recordSpawn('t', { name: 'b', prompt: 'p' }, 'codex'), 'write', 'recordSpawn')
  throwsThenable(() => new AgentRegistry(host).register('a', 'a-1', 1), 'write', 'register')
})

test('every host method returning a thenable is a storage error naming it', () => {
  const results = {
    'a resolved Promise': (value) => Promise.resolve(value),
    'an async function result': (value) => (async () => value)(),
    'a custom thenable': () => ({ then() { throw new Error('a thenable must not be called') } }),
    'a function with a then': () => Object.assign(() => {}, { then() {} }),
  }
  const sync = { read: null, write: undefined, delete: false, list: [] }
  for (const [kind, make] of Object.entries(results)) {
    for (const method of Object.keys(OPS)) {
      const host = mapStore()
      // `write` is reached only when the team file is absent, `delete`/`read` either way.
      host[method] = () => make(sync[method])
      throwsThenable(() => OPS[method](host), method, `${method} returning ${kind}`)
    }
  }
})

test('a rejected promise from a host method does not end the process', async () => {
  const unhandled = []
  const onUnhandled = (reason) => unhandled.push(reason)
  process.on('unhandledRejection', onUnhandled)
  try {
    for (const method of Object.keys(OPS)) {
      const host = mapStore()
      host[method] = async () => { throw new Error(`${method} rejected`) }
      throwsThenable(() => OPS[method](host), method, `${method} rejecting`)
      const rejected = mapStore()
      rejected[method] = () => Promise.reject(new Error(`${method} rejected`))
      throwsThenable(() => OPS[method](rejected), method, `${method} Promise.reject`)
      const otherRealm = mapStore()
      otherRealm[method] = () => vm.runInNewContext(`Promise.reject(new Error('${method} rejected'))`)
      throwsThenable(() => OPS[method](otherRealm), method, `${method} rejecting in another realm`)
    }
    await settle()
  } finally {
    process.off('unhandledRejection', onUnhandled)
  }
  assert.deepEqual(unhandled.map(String), [])
})

test('write must return undefined or null', () => {
  for (const value of ['not-void', 0, false, true, {}, [], Buffer.from('x')]) {
    const host = mapStore()
    const plain = host.write
    host.write = (key, data) => {
      plain(key, data)
      return value
    }
    assert.throws(
      () => OPS.write(host),
      (err) => err instanceof Error && err.code === 'storage' && err.message.includes('`write`') &&
        err.message.includes('expected undefined'),
      `write returning ${String(value)}`,
    )
  }
  for (const value of [undefined, null]) {
    const host = mapStore()
    const plain = host.write
    host.write = (key, data) => {
      plain(key, data)
      return value
    }
    OPS.write(host)
    assert.deepEqual(new TeamStore(host).load('t', 'a').name, 'a')
  }
})

test('delete must return a boolean and list an array of strings', () => {
  const cases = [
    ['delete', undefined],
    ['delete', null],
    ['delete', 1],
    ['delete', 'true'],
    ['list', undefined],
    ['list', null],
    ['list', ['teams/t/sessions/a.json', 3]],
    ['list', { length: 0 }],
  ]
  for (const [method, value] of cases) {
    const host = mapStore()
    host[method] = () => value
    assert.throws(
      () => OPS[method](host),
      (err) => err instanceof Error && err.code === 'storage' && err.message.includes(`\`${method}\``),
      `${method} returning ${JSON.stringify(value)}`,
    )
  }
})

test('a synchronous host store still passes the conformance suite', () => {
  const report = runStoreConformance(mapStore())
  assert.equal(report.failed, 0, JSON.stringify(report.cases.filter((c) => !c.passed)))
})

test('a method that stops being a function after wrapping is a storage error naming it', () => {
  for (const method of ['read', 'write', 'delete', 'list']) {
    for (const replacement of [undefined, null, 42, 'read']) {
      const host = mapStore()
      const store = new TeamStore(host)
      const ops = {
        read: () => store.load('t', 'a'),
        write: () => store.save('t', STATE),
        delete: () => store.delete('t', 'a'),
        list: () => store.listTeams(),
      }
      host[method] = replacement
      const what = `${method} = ${String(replacement)}`
      assert.throws(ops[method], (err) => {
        assert.ok(!(err instanceof TypeError), `${what}: a raw TypeError: ${err.message}`)
        assert.equal(err.code, 'storage', `${what}: ${err.message}`)
        assert.ok(err.message.includes(`\`${method}\` is now of type ${typeof replacement}, not a function`), `${what}: ${err.message}`)
        return true
      }, what)
    }
  }
})
