// Bad input through the JS API: wrong types (a number for a string, `undefined`, missing
// fields), unsafe ids and corrupt files give an `Error` with a core `code`, never a crash of
// the process; then every method of every class is called with hostile values of every kind.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ss, vector, tempDir, throwsCode } from './helpers.mjs'

const { OrchestratorStore, AgentRegistry, TeamStore, MemoryStore, FileStore } = ss

test('wrong argument types are invalid_input', () => {
  const store = new MemoryStore()
  const sessions = new OrchestratorStore(store)
  const reg = new AgentRegistry(store)
  const teams = new TeamStore(store)
  const cases = [
    () => new OrchestratorStore(3),
    () => new OrchestratorStore(undefined),
    () => new OrchestratorStore(store, 'fast'),
    () => new OrchestratorStore(store, { naiveOffsetMinutes: 'x' }),
    () => new OrchestratorStore(store, { naiveOffsetMinutes: 100000 }),
    () => new OrchestratorStore(store, { unknownOption: 1 }),
    () => new AgentRegistry({}),
    () => new AgentRegistry(store, { journal: 3 }),
    () => new TeamStore(null),
    () => sessions.save(undefined),
    () => sessions.save('{"schema_version": "1.0"}'),
    () => sessions.save([]),
    () => sessions.save({ schema_version: '1.0' }),
    () => sessions.save({ ...vector('orchestrator/seed-example.json'), agents: 'none' }),
    () => sessions.save({ ...vector('orchestrator/seed-example.json'), created: 12 }),
    () => sessions.archive(null),
    () => sessions.listHistory({ limit: -1 }),
    () => sessions.listHistory({ status: 'sleeping' }),
    () => sessions.listHistory(5),
    () => sessions.recordNew({ goal: 'no project' }),
    () => sessions.recordNew(),
    () => sessions.recordAgentProgress({ id: 'a', percent: 101 }),
    () => sessions.recordAgentProgress({ id: 'a', percent: Infinity }),
    () => sessions.recordAgentProgress({ id: 'a', percent: 100.5 }),
    () => sessions.recordAgentProgress({ id: 1, percent: 2 }),
    () => sessions.recordAgentStart({ id: 'a' }),
    () => sessions.recordDecision('only one'),
    () => sessions.doctor({ fix: 'yes' }),
    () => ss.resumeSummary(vector('orchestrator/seed-example.json'), 42),
    () => ss.resumeSummary(undefined),
    () => ss.renderResume({ not: 'a summary' }),
    () => ss.salvage(12),
    () => reg.register(1, 'id', {}),
    () => reg.register('name', undefined, {}),
    () => reg.register('name', 'id', 10n),
    () => reg.register('name', 'id', {}, 7),
    () => reg.resumeId(),
    () => reg.shouldResume('a', null),
    () => reg.shouldResume('a', 'b', 3),
    () => reg.createChain('c', 'not an array'),
    () => reg.createChain('c', [1, 2]),
    () => reg.incrementResumeCount({}),
    () => teams.save('t', { name: 'a' }),
    () => teams.save(3, {}),
    () => teams.load('t'),
    () => teams.recordSpawn('t', 'config', 'codex'),
    () => teams.recordSpawn('t', { name: 'a', prompt: 'p', maxTurns: 'ten' }, 'codex'),
    () => teams.update('t', 'a', null),
    () => ss.runStoreConformance(42),
  ]
  for (const [i, call] of cases.entries()) throwsCode(call, 'invalid_input', `case ${i}: ${call}`)
})

test('a lone surrogate is named with its member; agent fields the reader refuses are not written', () => {
  const caught = (call, code) => {
    try {
      call()
    } catch (err) {
      assert.equal(err.code, code, err.message)
      return err
    }
    assert.fail(`no ${code} error`)
  }
  const sessions = new OrchestratorStore(new MemoryStore())
  const project = { name: 'p', path: '/p' }
  const lone = caught(() => sessions.recordNew({ goal: '\ud800x' }, project), 'invalid_input')
  assert.match(lone.message, /^`input` holds the lone surrogate `\\ud800` at `\["goal"\]`/)
  assert.equal(lone.context.field, '["goal"]')
  sessions.recordNew({ goal: 'g' }, project, 'p')
  const over = caught(() => sessions.recordAgentStart({ id: 'a', type: 'c', task: 't', progress: 101 }), 'invalid_input')
  assert.equal(over.context.field, 'input.progress')
  assert.equal(sessions.load().agents.length, 0)
  // A document argument's errors name the argument, not the current file.
  const doc = sessions.load()
  const other = caught(() => sessions.save({ ...doc, schema_version: '2.0' }), 'incompatible_schema')
  assert.match(other.message, /^`doc` has schema_version `2.0`/)
  assert.equal(other.context.key, undefined)
})

test('a string argument holding a lone surrogate is invalid_input, not turned into U+FFFD', () => {
  const reg = new AgentRegistry(new MemoryStore())
  reg.register('agent', 'x', { v: 1 })
  for (const call of [
    () => reg.register('agent', 'x\uD800', { v: 1 }),
    () => reg.register('agent\uDBFF', 'y', { v: 2 }),
    () => reg.agentResult('x\uDC00'),
    () => new MemoryStore().write('k/a\uD800.json', Buffer.from('{}')),
  ]) {
    assert.throws(call, (err) => err.code === 'invalid_input' && /lone surrogate/.test(err.message))
  }
  assert.deepEqual(Object.keys(reg.load().sessions), ['agent'])
  // A proper pair is text like any other.
  reg.register('agent', 'x\uD83D\uDE00', { v: 3 })
  assert.deepEqual(reg.agentResult('x\u{1F600}'), { v: 3 })
})

// A FileStore's save commits on a second thread (while the saved document is built): the
// same refusal comes back from there.
for (const [name, makeStore] of [
  ['MemoryStore', () => new MemoryStore()],
  ['FileStore', () => new FileStore(tempDir())],
]) {
  test(`save and archive of a document read before a later save are conflict, nothing written (${name})`, () => {
    const store = makeStore()
    const a = new OrchestratorStore(store)
    const b = new OrchestratorStore(store)
    a.recordNew({ goal: 'g' }, { name: 'p', path: '/p' }, 's')
    const snap = a.load()
    b.recordDecision({ decision: 'use postgres', why: 'important' })
    const before = store.read('.claude/orchestrator-session.json')
    for (const call of [() => a.save({ ...snap, goal: 'new' }), () => a.archive(snap)]) {
      assert.throws(call, (err) => err.code === 'conflict' && /later save/.test(err.message))
    }
    assert.deepEqual(store.read('.claude/orchestrator-session.json'), before)
    // Loaded again, the change keeps the decision; saving the returned document again works.
    const saved = a.save({ ...a.load(), goal: 'new' })
    assert.equal(saved.decisions_made.length, 1)
    b.save({ ...saved, goal: 'newer' })
    assert.equal(a.load().goal, 'newer')
  })

  test(`one handle refuses a document read before its own later save (${name})`, () => {
    const sessions = new OrchestratorStore(makeStore())
    sessions.recordNew({ goal: 'g' }, { name: 'p', path: '/p' }, 's')
    const [first, second] = [sessions.load(), sessions.load()]
    first.goal = 'first'
    const saved = sessions.save(first)
    assert.equal(first.updated, saved.updated, 'save sets the saved `updated` on its argument')
    second.goal = 'second'
    throwsCode(() => sessions.save(second), 'conflict')
    first.pending_tasks.push('next')
    sessions.save(first)
    assert.deepEqual([sessions.load().goal, sessions.load().pending_tasks], ['first', ['next']])
    // A frozen document is saved; its `updated` stays as read.
    const frozen = Object.freeze(sessions.load())
    const read = frozen.updated
    assert.equal(sessions.save(frozen).goal, 'first')
    assert.equal(frozen.updated, read)
    assert.notEqual(sessions.load().updated, read)
    // A setter that throws: the save is written, then its exception reaches the caller.
    const doc = sessions.load()
    doc.goal = 'proxied'
    const refusing = new Proxy(doc, { set () { throw new Error('no sets') } })
    assert.throws(() => sessions.save(refusing), /no sets/)
    assert.equal(sessions.load().goal, 'proxied')
  })

  test(`async tasks sharing one handle lose no save (${name})`, async () => {
    const sessions = new OrchestratorStore(makeStore())
    sessions.recordNew({ goal: 'g' }, { name: 'p', path: '/p' }, 's')
    const work = async (t) => {
      for (let i = 0; i < 25; i++) {
        for (;;) { // load, change, save; load again after a conflict
          const doc = sessions.load()
          await new Promise((resolve) => setImmediate(resolve))
          doc.pending_tasks.push(`${t}-${i}`)
          try {
            sessions.save(doc)
            break
          } catch (err) {
            assert.equal(err.code, 'conflict', err.message)
          }
        }
      }
    }
    await Promise.all([0, 1, 2, 3].map(work))
    assert.equal(sessions.load().pending_tasks.length, 100)
  })
}

test('unsafe ids and names are invalid_key, and nothing is written', () => {
  const store = new MemoryStore()
  const reg = new AgentRegistry(store)
  const teams = new TeamStore(store)
  const sessions = new OrchestratorStore(store)
  for (const id of ['../x', '/abs', 'a/b', '..', '', 'x\u0000y', 'a\\b']) {
    throwsCode(() => reg.register('agent', id, {}), 'invalid_key', `agent id ${JSON.stringify(id)}`)
    throwsCode(() => reg.exportTranscript(id), 'invalid_key', `transcript ${JSON.stringify(id)}`)
    throwsCode(() => teams.load(id, 'agent'), 'invalid_key', `team ${JSON.stringify(id)}`)
    throwsCode(() => teams.load('team', id), 'invalid_key', `agent ${JSON.stringify(id)}`)
    throwsCode(() => sessions.save({ ...vector('orchestrator/seed-example.json'), session_id: id }), 'invalid_key', `session ${JSON.stringify(id)}`)
  }
  throwsCode(() => sessions.recordNew({ goal: 'g' }, { name: 'p', path: '/' }, '../x'), 'invalid_key')
  throwsCode(() => sessions.recover('../outside'), 'invalid_key')
  throwsCode(() => ss.runStoreConformance(store, '../x'), 'invalid_key')
  assert.equal(store.size, 0)
})

test('corrupt and incompatible files are typed errors', () => {
  const store = new MemoryStore()
  const sessions = new OrchestratorStore(store)
  for (const [bytes, code] of [
    ['', 'corrupt_state'],
    ['{"schema_version": "1.0", "session_id": ', 'corrupt_state'],
    ['[]', 'corrupt_state'],
    ['{"schema_version": "2.0"}', 'incompatible_schema'],
    ['\u0000\u00ff binary', 'corrupt_state'],
  ]) {
    store.write('.claude/orchestrator-session.json', Buffer.from(bytes))
    throwsCode(() => sessions.load(), code, JSON.stringify(bytes))
    throwsCode(() => sessions.start(), code, JSON.stringify(bytes))
  }
  store.write('.moai/memory/agent-sessions.json', Buffer.from('{"sessions": 3}'))
  throwsCode(() => new AgentRegistry(store).allSessions(), 'corrupt_state')
  store.write('teams/t/sessions/a.json', Buffer.from('{"name": "a"'))
  throwsCode(() => new TeamStore(store).load('t', 'a'), 'corrupt_state')
  throwsCode(() => sessions.archive({ ...vector('orchestrator/seed-example.json'), schema_version: '0.9' }), 'incompatible_schema')
})

test('a host store exception reaches the caller of every class unchanged', () => {
  class Exploding extends Error {}
  const boom = new Exploding('disk on fire')
  const host = { read: () => { throw boom }, write: () => {}, delete: () => false, list: () => { throw 'a string' } }
  for (const call of [
    () => new OrchestratorStore(host).load(),
    () => new AgentRegistry(host).allSessions(),
    () => new TeamStore(host).load('t', 'a'),
  ]) {
    assert.throws(call, (err) => err === boom)
  }
  assert.throws(() => new TeamStore(host).listTeams(), (err) => err === 'a string')
  assert.throws(() => new OrchestratorStore(host).listHistory(), (err) => err === 'a string')
})

const HOSTILE = [
  undefined, null, 0, -1, 1.5, NaN, Infinity, 2 ** 64, '', '../x', 'a\u0000b', '\ud800', 'x'.repeat(5000),
  true, {}, [], [1, [2]], () => 1, Symbol('s'), 10n, new Date(NaN), Buffer.from('{'),
  { toJSON() { throw new Error('no json') } },
  (() => { const o = {}; o.self = o; return o })(),
  { schema_version: '1.0' }, { name: '../x', prompt: 1 },
]

test('every method with hostile values throws typed errors or returns, and the process survives', () => {
  const root = new FileStore(tempDir())
  const targets = [
    new OrchestratorStore(new MemoryStore()),
    new AgentRegistry(new MemoryStore()),
    new TeamStore(new MemoryStore()),
    new OrchestratorStore(root),
  ]
  let calls = 0
  let typed = 0
  const check = (fn, args, label) => {
    calls++
    try {
      fn(...args)
    } catch (err) {
      assert.ok(err instanceof Error, `${label}: threw a non-Error ${String(err)}`)
      assert.ok(ss.ERROR_CODES.includes(err.code), `${label}: code ${err.code}: ${err.message}`)
      typed++
    }
  }
  for (const target of targets) {
    const proto = Object.getPrototypeOf(target)
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || typeof target[name] !== 'function') continue
      for (const a of HOSTILE) {
        check((...args) => target[name](...args), [a], `${proto.constructor.name}.${name}(${String(a)})`)
        check((...args) => target[name](...args), ['agent', a, a], `${proto.constructor.name}.${name}('agent', ${String(a)})`)
      }
    }
  }
  for (const name of ['resumeSummary', 'renderResume', 'salvage', 'sessionFromConfig', 'toSpawnConfig', 'parseBackendType', 'runStoreConformance']) {
    for (const a of HOSTILE) check(ss[name], [a, a], `${name}(${String(a)})`)
  }
  console.log(`${calls} calls, ${typed} typed errors`)
  assert.ok(calls > 1000, `${calls} calls`)
  assert.ok(typed > calls / 2, `${typed} typed errors of ${calls} calls`)
})
