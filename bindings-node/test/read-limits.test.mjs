// Registry and team files are held to `maxDocumentBytes` as the orchestrator document is: over
// it, `invalid_input` naming the limit, the file untouched; a raised limit reads it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ss, throwsCode } from './helpers.mjs'

const { AgentRegistry, TeamStore, MemoryStore } = ss

test('a registry file over maxDocumentBytes is refused untouched, a raised limit reads it', () => {
  const store = new MemoryStore()
  const doc = { sessions: { a: 'id-1' }, chains: {}, metadata: {}, 'x-pad': 'p'.repeat(4096) }
  const bytes = Buffer.from(JSON.stringify(doc))
  store.write('.moai/memory/agent-sessions.json', bytes)
  const small = new AgentRegistry(store, { maxDocumentBytes: 1024 })
  throwsCode(() => small.resumeId('a'), 'invalid_input')
  assert.throws(() => small.register('b', 'id-2', 1), /more than the limit of 1024 bytes.*pass a larger `\{ maxDocumentBytes: \.\.\. \}` option/)
  assert.deepEqual(store.read('.moai/memory/agent-sessions.json'), bytes)
  assert.equal(new AgentRegistry(store, { maxDocumentBytes: 8192 }).resumeId('a'), 'id-1')
  throwsCode(() => new AgentRegistry(store, { maxDocumentBytes: 'big' }), 'invalid_input')
})

test('a team file over maxDocumentBytes is refused and skipped in listings', () => {
  const store = new MemoryStore()
  const doc = { name: 'a', backendType: 'codex', prompt: 'p'.repeat(4096), createdAt: '2026-03-01T12:34:56Z' }
  store.write('teams/t/sessions/a.json', Buffer.from(JSON.stringify(doc)))
  const small = new TeamStore(store, { maxDocumentBytes: 1024 })
  throwsCode(() => small.load('t', 'a'), 'invalid_input')
  assert.throws(() => small.load('t', 'a'), /more than the limit of 1024 bytes/)
  assert.equal(small.list('t').skipped[0].code, 'invalid_input')
  assert.equal(new TeamStore(store, { maxDocumentBytes: 8192 }).load('t', 'a').prompt, doc.prompt)
  throwsCode(() => new TeamStore(store, { unknown: 1 }), 'invalid_input')
})
