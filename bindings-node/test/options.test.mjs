// Every options object the package takes refuses what it does not know: a misspelt or
// unknown member, and a member of the wrong type, throw `invalid_input` whose message and
// `context.field` name the member, and nothing is written.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ss, tempDir, vector } from './helpers.mjs'

const { FileStore, MemoryStore, OrchestratorStore, AgentRegistry } = ss

/** Asserts `call` throws `invalid_input` naming `field` in the message and `context.field`. */
function refuses(call, field, what) {
  assert.throws(call, (err) => {
    assert.ok(err instanceof Error, `${what}: not an Error`)
    assert.equal(err.code, 'invalid_input', `${what}: ${err.message}`)
    assert.ok(err.message.includes(field), `${what}: message does not name \`${field}\`: ${err.message}`)
    assert.ok(err.context?.field?.endsWith(field), `${what}: context.field ${err.context?.field}`)
    return true
  }, what)
}

test('FileStore: a misspelt or unknown option is invalid_input naming it', () => {
  const root = tempDir()
  for (const [options, field] of [
    [{ durabilty: 'fsync' }, 'durabilty'],
    [{ durable: true, fsync: true }, 'fsync'],
    [{ Durable: true }, 'Durable'],
  ]) {
    refuses(() => new FileStore(root, options), field, JSON.stringify(options))
  }
})

test('FileStore: an option of the wrong type is invalid_input naming it', () => {
  const root = tempDir()
  for (const durable of ['yes', 1, [], {}]) {
    assert.throws(() => new FileStore(root, { durable }), (err) => {
      assert.equal(err.code, 'invalid_input', err.message)
      assert.equal(err.context?.field, 'options.durable', err.message)
      assert.match(err.message, /`options\.durable`/)
      return true
    }, JSON.stringify(durable))
  }
  refuses(() => new FileStore(root, 'durable'), 'options', 'a string for options')
  // Durable (each write fsynced) unless `{ durable: false }` says otherwise.
  assert.equal(new FileStore(root).durable, true)
  assert.equal(new FileStore(root, { durable: true }).durable, true)
  assert.equal(new FileStore(root, { durable: undefined }).durable, true)
  assert.equal(new FileStore(root, null).durable, true)
  assert.equal(new FileStore(root, { durable: false }).durable, false)
})

test('every other options object names an unknown or badly typed member', () => {
  const store = new MemoryStore()
  const sessions = new OrchestratorStore(store)
  const reg = new AgentRegistry(store)
  const cases = [
    ['OrchestratorStore unknown', () => new OrchestratorStore(store, { naiveOffset: 60 }), 'naiveOffset'],
    ['OrchestratorStore type', () => new OrchestratorStore(store, { maxDocumentBytes: 'big' }), 'options.maxDocumentBytes'],
    ['OrchestratorStore negative', () => new OrchestratorStore(store, { maxDocumentBytes: -1 }), 'options.maxDocumentBytes'],
    ['OrchestratorStore offset type', () => new OrchestratorStore(store, { naiveOffsetMinutes: 1.5 }), 'options.naiveOffsetMinutes'],
    ['archive unknown', () => sessions.archive(vector('orchestrator/seed-example.json'), { replce: true }), 'replce'],
    ['archive type', () => sessions.archive(vector('orchestrator/seed-example.json'), { replace: 'yes' }), 'options.replace'],
    ['complete unknown', () => sessions.complete({ force: true }), 'force'],
    ['complete type', () => sessions.complete({ replace: 1 }), 'options.replace'],
    ['abort unknown', () => sessions.abort({ replaceExisting: true }), 'replaceExisting'],
    ['abort type', () => sessions.abort({ replace: 'no' }), 'options.replace'],
    ['doctor unknown', () => sessions.doctor({ repair: true }), 'repair'],
    ['doctor type', () => sessions.doctor({ fix: 'yes' }), 'options.fix'],
    ['listHistory unknown', () => sessions.listHistory({ limt: 3 }), 'limt'],
    ['listHistory limit', () => sessions.listHistory({ limit: 1.5 }), 'query.limit'],
    ['listHistory offset', () => sessions.listHistory({ offset: '2' }), 'query.offset'],
    ['listHistory status', () => sessions.listHistory({ status: 'sleeping' }), 'query.status'],
    ['recordNew unknown', () => sessions.recordNew({ goal: 'g', mod: 'x' }, { name: 'p', path: '/p' }), 'mod'],
    ['recordNew type', () => sessions.recordNew({ goal: 'g', mode: 5 }, { name: 'p', path: '/p' }), 'input.mode'],
    ['AgentRegistry unknown', () => new AgentRegistry(store, { jurnal: true }), 'jurnal'],
    ['AgentRegistry journal type', () => new AgentRegistry(store, { journal: 'yes' }), 'options.journal'],
    ['AgentRegistry journal number', () => new AgentRegistry(store, { journal: 1 }), 'options.journal'],
    ['AgentRegistry journal unknown', () => new AgentRegistry(store, { journal: { minCompact: 1 } }), 'minCompact'],
    ['AgentRegistry journal member type', () => new AgentRegistry(store, { journal: { minCompactBytes: 'x' } }), 'options.journal.minCompactBytes'],
    ['decideResume unknown', () => reg.decideResume('a', 'b', 'c', { polcy: 'explained' }), 'polcy'],
    ['decideResume policy', () => reg.decideResume('a', 'b', 'c', { policy: 'strict' }), 'options.policy'],
    ['decideResume cap', () => reg.decideResume('a', 'b', 'c', { cap: 'five' }), 'options.cap'],
    ['decideResume threshold', () => reg.decideResume('a', 'b', 'c', { policy: 'explained', threshold: '0.5' }), 'options.threshold'],
  ]
  for (const [what, call, field] of cases) refuses(call, field, what)
  assert.deepEqual(store.list('.claude'), [], 'nothing written')
  assert.deepEqual(store.list('.moai'), [], 'nothing written')
})

test('the journal option still takes true, false, null and { minCompactBytes }', () => {
  for (const journal of [true, false, null, { minCompactBytes: 10 }]) {
    const reg = new AgentRegistry(new MemoryStore(), { journal })
    reg.register('a', 'id-1', { ok: true })
    assert.deepEqual(reg.agentResult('id-1'), { ok: true }, JSON.stringify(journal))
  }
})
