// AgentRegistry against tests/vectors/registry/ (made with the seed's oracle, see its README):
// the seed's demo run through JS gives the oracle's outputs and files, and the compat policy
// matches every should_resume case of the oracle through the JS API.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { ss, vector, tempDir, throwsCode } from './helpers.mjs'

const { AgentRegistry, FileStore, MemoryStore } = ss
const TIME_FIELDS = new Set(['created_at', 'last_updated', 'last_resumed_at', 'timestamp', 'started_at', 'completed_at'])

/** `value` with every timestamp field replaced by a marker (they differ run to run). */
function mask(value) {
  if (Array.isArray(value)) return value.map(mask)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, TIME_FIELDS.has(k) && v !== null ? '<time>' : mask(v)]))
  }
  return value
}

test('the seed demo gives the oracle outputs and files', () => {
  const demo = vector('registry/demo.json')
  const out = demo.outputs
  const root = tempDir()
  const reg = new AgentRegistry(new FileStore(root))
  reg.createChain('SPEC-AUTH-001-planning', ['spec-builder', 'implementation-planner'], { spec_id: 'SPEC-AUTH-001', feature: 'User Authentication' })
  reg.register('spec-builder', 'spec-abc123', { spec_id: 'SPEC-AUTH-001', files_created: ['.moai/specs/SPEC-AUTH-001/spec.md'], status: 'success' }, 'SPEC-AUTH-001-planning')
  reg.register('implementation-planner', 'plan-def456', { dependencies: { fastapi: '>=0.118.3' }, status: 'success' }, 'SPEC-AUTH-001-planning')
  assert.deepEqual(mask(reg.chainSummary('SPEC-AUTH-001-planning')), mask(out.planning_summary))
  reg.createChain('SPEC-AUTH-001-implementation', ['tdd-implementer'])
  reg.register('tdd-implementer', 'tdd-ghi789', { phase: 'phase_1', tests_created: ['tests/test_registration.py'], code_created: ['src/auth/registration.py'], status: 'success' }, 'SPEC-AUTH-001-implementation')
  const resumeId = reg.resumeId('tdd-implementer', 'SPEC-AUTH-001-implementation')
  assert.equal(resumeId, out.resume_id)
  const decision = reg.shouldResume('tdd-implementer', 'Implement user login endpoint', 'Implement user registration endpoint')
  assert.equal(decision, out.should_resume)
  if (decision && resumeId) assert.equal(reg.incrementResumeCount(resumeId), true)
  reg.createChain('SPEC-AUTH-001-review', ['backend-expert', 'security-expert', 'frontend-expert'], { review_type: 'expert_consultation' })
  reg.register('backend-expert', 'backend-jkl012', { recommendations: ['Use JWT for auth'] }, 'SPEC-AUTH-001-review')
  reg.register('security-expert', 'security-mno345', { vulnerabilities: ['Rate limiting needed'] }, 'SPEC-AUTH-001-review')
  reg.register('frontend-expert', 'frontend-pqr678', { ui_concerns: ['Token refresh flow'] }, 'SPEC-AUTH-001-review')
  assert.deepEqual(mask(reg.chainResults('SPEC-AUTH-001-review')), mask(out.review_results))
  assert.deepEqual(reg.allSessions(), out.all_sessions)
  assert.deepEqual(mask(reg.load().results), mask(out.results))
  for (const [id, result] of Object.entries(out.results)) assert.deepEqual(reg.agentResult(id), result.result)
  assert.equal(reg.agentResult('nobody'), null)

  // The files as the oracle wrote them, once timestamps are masked and our `results` dropped.
  const sessions = JSON.parse(readFileSync(join(root, '.moai/memory/agent-sessions.json'), 'utf8'))
  delete sessions.results
  assert.deepEqual(mask(sessions), mask(JSON.parse(demo.sessions_text)))
  const chains = JSON.parse(readFileSync(join(root, '.moai/memory/workflow-chains.json'), 'utf8'))
  assert.deepEqual(mask(chains), mask(JSON.parse(demo.chains_text)))
  assert.deepEqual(mask(reg.loadChains()), mask(JSON.parse(demo.chains_text)))
})

test('files written by the oracle load unchanged', () => {
  const demo = vector('registry/demo.json')
  const store = new MemoryStore()
  store.write('.moai/memory/agent-sessions.json', Buffer.from(demo.sessions_text))
  store.write('.moai/memory/workflow-chains.json', Buffer.from(demo.chains_text))
  const reg = new AgentRegistry(store)
  assert.deepEqual(reg.load(), JSON.parse(demo.sessions_text))
  assert.deepEqual(reg.allSessions().sessions, out(demo).all_sessions.sessions)
  // The seed keeps results in memory only: its file defines the chain but holds no result.
  const status = reg.chainStatus('SPEC-AUTH-001-review')
  assert.equal(status.defined, true)
  assert.deepEqual(status.missing, ['backend-expert', 'security-expert', 'frontend-expert'])
})

function out(demo) {
  return demo.outputs
}

test('shouldResume matches every oracle case through JS (compat policy)', () => {
  const reg = new AgentRegistry(new MemoryStore())
  for (let count = 0; count < 7; count++) {
    reg.register(`agent-${count}`, `id-${count}`, { n: count })
    for (let i = 0; i < count; i++) assert.equal(reg.incrementResumeCount(`id-${count}`), true)
  }
  const cases = vector('registry/should_resume.json')
  assert.ok(cases.length >= 2600)
  let checked = 0
  for (const c of cases) {
    if (c.known) assert.equal(c.agent_name, `agent-${c.resume_count}`, 'the setup matches the case')
    const got = reg.shouldResume(c.agent_name, c.current_task, c.previous_task ?? undefined)
    assert.equal(got, c.resume, JSON.stringify(c))
    const decision = reg.decideResume(c.agent_name, c.current_task, c.previous_task)
    assert.equal(decision.resume, c.resume, JSON.stringify(c))
    checked++
  }
  assert.equal(checked, cases.length)
})

test('decideResume explains, with the explained policy and its options', () => {
  const reg = new AgentRegistry(new MemoryStore())
  reg.register('spec-builder', 'spec-abc123', { status: 'success' })
  assert.equal(reg.shouldResume('spec-builder', 'update profiles', 'rename files'), true)
  const d = reg.decideResume('spec-builder', 'update profiles', 'rename files', { policy: 'explained' })
  assert.deepEqual(d, { resume: false, score: 0, matched: [], reason: 'unrelated' })
  const same = reg.decideResume('spec-builder', 'Implement login tests', 'implement login test', { policy: 'explained', threshold: 0.5 })
  assert.equal(same.resume, true)
  assert.equal(same.reason, 'related')
  assert.ok(same.score > 0.5 && same.score <= 1)
  assert.deepEqual(reg.decideResume('ghost', 'a', 'b'), { resume: false, score: 0, matched: [], reason: 'unknown_agent' })
  assert.equal(reg.decideResume('spec-builder', 'profiles', 'files', { cap: 0 }).reason, 'resume_cap_reached')
  throwsCode(() => reg.decideResume('spec-builder', 'a', 'b', { policy: 'psychic' }), 'invalid_input')
  throwsCode(() => reg.decideResume('spec-builder', 'a', 'b', { policy: 'explained', threshold: 2 }), 'invalid_input')
  throwsCode(() => reg.decideResume('spec-builder', 'a', 'b', { threshold: 0.5 }), 'invalid_input')
})

test('chains, clearing, agents, transcripts, journal mode', () => {
  const root = tempDir()
  const reg = new AgentRegistry(new FileStore(root), { journal: true })
  reg.createChain('C', ['a', 'b', 'c'])
  reg.register('b', 'b-1', null, 'C')
  reg.register('a', 'a-1', [1, 2], 'C')
  const status = reg.chainStatus('C')
  assert.deepEqual(status.done, ['a', 'b'])
  assert.deepEqual(status.missing, ['c'])
  assert.deepEqual(status.out_of_order, ['a'])
  assert.deepEqual(reg.chainIds(), ['C'])
  assert.deepEqual(reg.agents('C').map((a) => a.agent_name), ['b', 'a'])
  assert.deepEqual(reg.agents('other'), [])
  reg.close()
  const onDisk = JSON.parse(readFileSync(join(root, '.moai/memory/agent-sessions.json'), 'utf8'))
  assert.deepEqual(Object.keys(onDisk.sessions), ['b', 'a'], 'close folds the journal into the seed file')
  assert.equal(reg.exportTranscript('a-1'), null)
  assert.equal(reg.readTranscript('a-1'), null)
  mkdirSync(join(root, '.moai/logs/agent-transcripts'), { recursive: true })
  writeFileSync(join(root, '.moai/logs/agent-transcripts/agent-a-1.jsonl'), '{"role":"user"}\nnot json\n{"cut')
  assert.equal(reg.exportTranscript('a-1'), '.moai/logs/agent-transcripts/agent-a-1.jsonl')
  assert.deepEqual(reg.readTranscript('a-1').map((l) => l.kind), ['record', 'invalid', 'torn'])
  throwsCode(() => reg.exportTranscript('../x'), 'invalid_key')
  assert.equal(reg.clearAgent('b'), true)
  assert.equal(reg.clearAgent('b'), false)
  assert.equal(reg.clearChain('C'), true)
  assert.equal(reg.clearChain('C'), false)
  assert.deepEqual(reg.allSessions().sessions, {})
  assert.deepEqual(reg.repair(), [])
  new AgentRegistry(new MemoryStore(), { journal: { minCompactBytes: 1 } }).register('x', 'x-1', 1)
  throwsCode(() => new AgentRegistry(new MemoryStore(), { journal: 'yes' }), 'invalid_input')
})

test('a corrupt registry file is kept aside and reported; repair starts fresh', () => {
  const root = tempDir()
  const store = new FileStore(root)
  store.write('.moai/memory/agent-sessions.json', Buffer.from('{"sessions": {"a": '))
  const reg = new AgentRegistry(store)
  throwsCode(() => reg.allSessions(), 'corrupt_state')
  throwsCode(() => reg.register('a', 'a-1', 1), 'corrupt_state')
  const [repaired, ...more] = reg.repair()
  assert.deepEqual(more, [])
  assert.equal(repaired.key, '.moai/memory/agent-sessions.json')
  assert.match(repaired.kept_copy, /agent-sessions\.json\.corrupt-/)
  assert.equal(typeof repaired.action, 'string')
  assert.equal(store.read(repaired.kept_copy).toString(), '{"sessions": {"a": ')
  reg.register('a', 'a-1', 1)
  assert.equal(reg.resumeId('a'), 'a-1')
})

test('a corrupt workflow-chains.json: repair keeps it aside and createChain works again', () => {
  const root = tempDir()
  const store = new FileStore(root)
  const chainsKey = '.moai/memory/workflow-chains.json'
  const garbage = '{"SPEC-1": {"expected_sequence": ['
  store.write(chainsKey, Buffer.from(garbage))
  const reg = new AgentRegistry(store)
  throwsCode(() => reg.createChain('SPEC-2', ['a', 'b']), 'corrupt_state')
  throwsCode(() => reg.loadChains(), 'corrupt_state')
  const kept = reg.repair().map((r) => r.kept_copy)
  assert.equal(kept.length, 1, `one copy: ${kept}`)
  assert.match(kept[0], /^\.moai\/memory\/workflow-chains\.json\.corrupt-\d{8}T\d{6}Z/)
  assert.equal(store.read(kept[0]).toString(), garbage, 'the corrupt bytes are kept')
  assert.equal(store.list('.moai/memory').filter((k) => k.includes('.corrupt-')).length, 1, 'no second copy')
  reg.createChain('SPEC-2', ['a', 'b'])
  assert.deepEqual(reg.loadChains()['SPEC-2'].expected_sequence, ['a', 'b'])
  assert.deepEqual(reg.repair(), [], 'nothing left to repair')
})

test('repair repairs a corrupt sessions file and a corrupt chains file together', () => {
  const store = new MemoryStore()
  store.write('.moai/memory/agent-sessions.json', Buffer.from('nope'))
  store.write('.moai/memory/workflow-chains.json', Buffer.from('[1,'))
  const reg = new AgentRegistry(store)
  const repaired = reg.repair()
  assert.deepEqual(repaired.map((r) => r.key), ['.moai/memory/agent-sessions.json', '.moai/memory/workflow-chains.json'])
  const kept = repaired.map((r) => r.kept_copy)
  assert.equal(kept.length, 2)
  assert.match(kept[0], /agent-sessions\.json\.corrupt-/)
  assert.match(kept[1], /workflow-chains\.json\.corrupt-/)
  assert.deepEqual([store.read(kept[0]).toString(), store.read(kept[1]).toString()], ['nope', '[1,'])
  reg.createChain('C', ['x'])
  reg.register('x', 'x-1', { ok: true }, 'C')
  assert.deepEqual(reg.chainResults('C').map((r) => r.result), [{ ok: true }])
})

test('repair writes back the complete entries of a torn sessions file', () => {
  const store = new MemoryStore()
  const reg = new AgentRegistry(store)
  for (const i of [0, 1, 2]) reg.register(`agent-${i}`, `id-${i}`, { i }, 'C')
  const whole = store.read('.moai/memory/agent-sessions.json').toString()
  // Cut inside the metadata of id-2: names, the chain and two metadata entries are whole.
  const torn = whole.slice(0, whole.indexOf('"id-2": {') + 20)
  store.write('.moai/memory/agent-sessions.json', Buffer.from(torn))
  throwsCode(() => reg.resumeId('agent-0'), 'corrupt_state')
  const [{ kept_copy: aside }] = reg.repair()
  assert.equal(store.read(aside).toString(), torn, 'the torn bytes are kept')
  assert.deepEqual(['agent-0', 'agent-1', 'agent-2'].map((n) => reg.resumeId(n)), ['id-0', 'id-1', 'id-2'])
  assert.equal(reg.agents().length, 3)
})
