// Numbers a JS value cannot carry into a document unchanged: integers beyond 2^53 - 1
// (`Number.MAX_SAFE_INTEGER`: `2 ** 60` would be written 1152921504606847000, another
// integer) and NaN / ±Infinity (which JSON.stringify would write as null). Every entry point
// that takes a document or a JSON value refuses them with `invalid_input` naming the member,
// and writes nothing.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ss, vector } from './helpers.mjs'

const {
  MemoryStore, OrchestratorStore, AgentRegistry, TeamStore,
  resumeSummary, renderResume, sessionFromConfig, toSpawnConfig,
} = ss

const BAD = [
  ['2^53', 2 ** 53],
  ['2^60', 2 ** 60],
  ['-2^60', -(2 ** 60)],
  ['u64::MAX as a number', 18446744073709551615],
  // 1e300: JSON.stringify writes '1e+300', read as the float it is: taken (documents.test.mjs).
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['-Infinity', -Infinity],
]

const seed = () => vector('orchestrator/seed-example.json')
const teamState = { name: 'a', backendType: 'codex', prompt: 'p', createdAt: '2026-01-01T00:00:00Z' }

/** Every entry point that takes a document or JSON value, given `n` deep inside it. */
function entryPoints(store, n) {
  const sessions = new OrchestratorStore(store)
  const reg = new AgentRegistry(store)
  const teams = new TeamStore(store)
  return {
    'OrchestratorStore.save': () => sessions.save({ ...seed(), extra: { n } }),
    'OrchestratorStore.save (known field)': () => sessions.save({ ...seed(), context_usage: { ...seed().context_usage, estimated_tokens: n } }),
    'OrchestratorStore.archive': () => sessions.archive({ ...seed(), extra: { n } }),
    'OrchestratorStore.recordNew': () => sessions.recordNew({ goal: 'g' }, { name: 'p', path: '/p', extra: { n } }),
    'OrchestratorStore.recordAgentStart': () => sessions.recordAgentStart({ id: 'a', type: 'code', task: 't', extra: { n } }),
    'OrchestratorStore options': () => new OrchestratorStore(store, { maxDocumentBytes: n }),
    'OrchestratorStore.listHistory': () => sessions.listHistory({ limit: n }),
    resumeSummary: () => resumeSummary({ ...seed(), extra: { n } }, '2025-12-27T12:30:00Z'),
    renderResume: () => renderResume({ ...seed(), extra: { n } }),
    'AgentRegistry.register': () => reg.register('a', 'a-1', { extra: { n } }),
    'AgentRegistry.createChain metadata': () => reg.createChain('c', ['a'], { extra: { n } }),
    'AgentRegistry.createChain sequence': () => reg.createChain('c', ['a', n]),
    'AgentRegistry options': () => new AgentRegistry(store, { journal: { minCompactBytes: n } }),
    'AgentRegistry.decideResume': () => reg.decideResume('a', 'b', 'c', { cap: n }),
    'TeamStore.save': () => teams.save('t', { ...teamState, extra: { n } }),
    'TeamStore.save (maxTurns)': () => teams.save('t', { ...teamState, maxTurns: n }),
    'TeamStore.recordSpawn': () => teams.recordSpawn('t', { name: 'a', prompt: 'p', memoryConfig: { max_turns: 1, budget_chars: n } }, 'codex'),
    'TeamStore.update': () => teams.update('t', 'a', { extra: { n } }),
    'TeamStore.replace': () => teams.replace('t', 'a', { ...teamState, extra: { n } }),
    sessionFromConfig: () => sessionFromConfig({ name: 'a', prompt: 'p', maxTurns: n }, 'codex'),
    toSpawnConfig: () => toSpawnConfig({ ...teamState, memoryConfig: { max_turns: n, budget_chars: 1 } }),
  }
}

test('every entry point taking a document refuses numbers beyond 2^53 - 1 and non-finite numbers', () => {
  for (const [label, n] of BAD) {
    const store = new MemoryStore()
    new TeamStore(store).save('t', teamState)
    const before = new Map(['teams', '.claude', '.moai'].flatMap((p) => store.list(p)).map((k) => [k, store.read(k)]))
    for (const [name, call] of Object.entries(entryPoints(store, n))) {
      assert.throws(call, (err) => {
        assert.ok(err instanceof Error, `${name} ${label}`)
        assert.equal(err.code, 'invalid_input', `${name} ${label}: ${err.message}`)
        assert.match(err.message, /member `(n|estimated_tokens|limit|maxDocumentBytes|minCompactBytes|cap|maxTurns|budget_chars|max_turns|1)` is /, `${name} ${label}: ${err.message}`)
        return true
      }, `${name} ${label}`)
    }
    const after = new Map(['teams', '.claude', '.moai'].flatMap((p) => store.list(p)).map((k) => [k, store.read(k)]))
    assert.deepEqual(after, before, `${label}: nothing written`)
  }
})

test('the largest safe integers still go through', () => {
  const store = new MemoryStore()
  const reg = new AgentRegistry(store)
  reg.register('a', 'a-1', { max: Number.MAX_SAFE_INTEGER, min: Number.MIN_SAFE_INTEGER })
  assert.deepEqual(reg.agentResult('a-1'), { max: Number.MAX_SAFE_INTEGER, min: Number.MIN_SAFE_INTEGER })
  const sessions = new OrchestratorStore(store)
  const saved = sessions.save({ ...seed(), extra: { n: Number.MAX_SAFE_INTEGER } })
  assert.equal(saved.extra.n, Number.MAX_SAFE_INTEGER)
  assert.equal(sessions.load().extra.n, Number.MAX_SAFE_INTEGER)
})
