// RedisStore on a redis-server of the test's own (127.0.0.1, a free port, a temp dir, killed
// after): the raw methods, the conformance suite, an orchestrator session and a registration
// through the package's classes with nothing written on disk, and a down server.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { ss, tempDir, throwsCode } from './helpers.mjs'

const { RedisStore, OrchestratorStore, AgentRegistry, runStoreConformance } = ss

const installed = spawnSync('redis-server', ['--version']).status === 0
const skip = installed ? false : 'redis-server is not installed (scripts/setup installs it)'

/** A TCP port nothing listens on right now. */
async function freePort() {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

let url
let proc
let folder

before(async () => {
  if (!installed) return
  const port = await freePort()
  folder = tempDir('session-state-redis-server-')
  proc = spawn('redis-server', [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', folder,
    '--save', '', '--appendonly', 'yes', '--appendfsync', 'always',
  ], { stdio: 'ignore' })
  url = `redis://127.0.0.1:${port}/0`
  const deadline = Date.now() + 20_000
  for (;;) {
    try {
      new RedisStore(url).ping()
      return
    } catch (err) {
      assert.equal(err.code, 'storage', err.message)
      assert.ok(Date.now() < deadline, 'redis-server did not start')
      await sleep(50)
    }
  }
})

after(async () => {
  if (proc && proc.exitCode === null) {
    const exited = new Promise((resolve) => proc.once('exit', resolve))
    proc.kill('SIGKILL')
    await exited
  }
  if (folder) rmSync(folder, { recursive: true, force: true })
})

test('RedisStore reads, writes, deletes and lists keys on the server', { skip }, () => {
  const store = new RedisStore(`${url}?prefix=node-raw`)
  assert.equal(store.server, url)
  assert.equal(store.prefix, 'node-raw')
  assert.equal(new RedisStore(url).prefix, 'session-state')
  assert.equal(store.ping(), undefined)
  assert.equal(store.read('a/b.json'), null)
  store.write('a/b.json', Buffer.from('{"x":1}'))
  store.write('a/c/d.json', new Uint8Array([1, 2, 3]))
  const got = store.read('a/b.json')
  assert.ok(Buffer.isBuffer(got))
  assert.equal(got.toString('utf8'), '{"x":1}')
  assert.deepEqual([...store.read('a/c/d.json')], [1, 2, 3])
  assert.deepEqual(store.list('a'), ['a/b.json', 'a/c/d.json'])
  assert.deepEqual(new RedisStore(`${url}?prefix=other`).list('a'), [])
  assert.equal(store.delete('a/b.json'), true)
  assert.equal(store.delete('a/b.json'), false)
  assert.deepEqual(store.list('a'), ['a/c/d.json'])
  throwsCode(() => store.read('../x'), 'invalid_key')
})

test('RedisStore passes the store conformance suite', { skip }, () => {
  const report = runStoreConformance(new RedisStore(`${url}?prefix=node-conformance`))
  assert.equal(report.failed, 0, JSON.stringify(report.cases.filter((c) => !c.passed)))
  assert.ok(report.passed > 0)
})

test('an orchestrator session and a registration on Redis read back, nothing on disk', { skip }, () => {
  const here = process.cwd()
  const empty = tempDir('session-state-redis-cwd-')
  process.chdir(empty)
  try {
    const at = `${url}?prefix=node-classes`
    const made = new OrchestratorStore(new RedisStore(at)).recordNew({ goal: 'ship it' }, { name: 'p', path: '/p' })
    const again = new OrchestratorStore(new RedisStore(at)).load()
    assert.equal(again.session_id, made.session_id)
    assert.equal(again.goal, 'ship it')

    new AgentRegistry(new RedisStore(at)).register('spec-builder', 'spec-abc123', { status: 'success' }, 'chain-1')
    const registry = new AgentRegistry(new RedisStore(at))
    assert.equal(registry.resumeId('spec-builder', 'chain-1'), 'spec-abc123')
    assert.deepEqual(registry.agentResult('spec-abc123'), { status: 'success' })
    const transcript = '.moai/logs/agent-transcripts/agent-spec-abc123.jsonl'
    assert.equal(registry.exportTranscript('spec-abc123'), null)
    new RedisStore(at).write(transcript, Buffer.from('{"role":"user"}\n'))
    assert.equal(registry.exportTranscript('spec-abc123'), transcript)

    assert.notDeepEqual(new RedisStore(at).list('.claude'), [])
    assert.deepEqual(readdirSync(empty), [])
  } finally {
    process.chdir(here)
    rmSync(empty, { recursive: true, force: true })
  }
})

test('a down server is a storage error without the password', { skip }, async () => {
  const port = await freePort()
  const store = new RedisStore(`redis://bob:pw-123@127.0.0.1:${port}/0?connect_timeout_ms=200`)
  assert.equal(store.server.includes('pw-123'), false)
  assert.equal(store.server, `redis://bob@127.0.0.1:${port}/0`)
  const calls = [
    () => store.ping(),
    () => store.read('a'),
    () => store.write('a', Buffer.from('x')),
    () => new OrchestratorStore(store).load(),
  ]
  for (const call of calls) {
    assert.throws(call, (err) => {
      assert.equal(err.code, 'storage', err.message)
      assert.ok(err.message.includes(`127.0.0.1:${port}`), err.message)
      assert.equal(JSON.stringify({ message: err.message, context: err.context }).includes('pw-123'), false, err.message)
      return true
    })
  }
})

test('RedisStore refuses a URL it cannot use', () => {
  throwsCode(() => new RedisStore('http://127.0.0.1:6379'), 'invalid_input')
  throwsCode(() => new RedisStore(6379), 'invalid_input')
  throwsCode(() => new OrchestratorStore(6379), 'invalid_input')
})
