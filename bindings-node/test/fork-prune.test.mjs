// Fork, the history tree and retention over a FileStore folder: a fork keeps the original and
// records forked_from; a prune's dry run changes no file and its applied run removes exactly
// what the plan listed (history, registry, team).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ss, tempDir, throwsCode } from './helpers.mjs'

const { OrchestratorStore, AgentRegistry, TeamStore, FileStore, sessionFromConfig, resumeSummary } = ss
const PROJECT = { name: 'p', path: '/p' }

/**
 * Every file below `root` with its text, by relative path (lock and queue files excluded: the
 * file store keeps one pair per key written under a lock, and a delete removes its key's pair).
 */
function files(root) {
  const out = {}
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.includes('.lock')) continue
    const path = join(entry.parentPath, entry.name)
    out[path.slice(root.length + 1)] = readFileSync(path, 'utf8')
  }
  return out
}

/** Archives sessions `YYYY-MM-DD-{suffix}`, completed, one per suffix; returns their ids. */
function archiveSessions(sessions, suffixes) {
  return suffixes.map((suffix) => {
    sessions.recordNew({ goal: `goal ${suffix}` }, PROJECT, suffix)
    sessions.start()
    return sessions.complete().session_id
  })
}

test('fork keeps the original, archived as it was, and records forked_from', () => {
  const root = tempDir()
  const sessions = new OrchestratorStore(new FileStore(root))
  const original = sessions.recordNew({ goal: 'g' }, PROJECT, 'aaa111')
  const started = sessions.start()
  const forked = sessions.fork({ new_id: '2026-01-01-bbb222' })
  assert.equal(forked.session_id, '2026-01-01-bbb222')
  assert.equal(forked.status, 'created')
  assert.equal(forked.goal, 'g')
  assert.equal(forked.forked_from.session_id, original.session_id)
  assert.deepEqual(sessions.load(), forked)
  const archived = JSON.parse(readFileSync(join(root, `.claude/orchestrator-history/${original.session_id}.json`), 'utf8'))
  assert.deepEqual(archived, started, 'the original is archived as it was')

  const tree = sessions.historyTree()
  assert.deepEqual(tree.entries.map((e) => [e.id, e.depth, e.forked_from ?? null, e.current]), [
    [original.session_id, 0, null, false],
    ['2026-01-01-bbb222', 1, original.session_id, true],
  ])
  // camelCase members are read too; forking an archived one while another is current is refused.
  throwsCode(() => sessions.fork({ sessionId: original.session_id }), 'already_exists', 'another session is current')
  throwsCode(() => sessions.fork({ sessionId: 'nope' }), 'not_found', 'no such session')
  throwsCode(() => sessions.fork({ newid: 'x' }), 'invalid_input', 'an unknown member')
})

test('pruneHistory: the dry run changes no file, apply removes exactly the plan', () => {
  const root = tempDir()
  const sessions = new OrchestratorStore(new FileStore(root))
  const ids = archiveSessions(sessions, ['aaa111', 'bbb222', 'ccc333'])
  const before = files(root)
  const plan = sessions.pruneHistory({ keep: 1 })
  assert.equal(plan.applied, false)
  assert.equal(plan.removed.length, 2)
  assert.ok(plan.removed.every((r) => r.kind === 'session' && ids.includes(r.id) && r.reason))
  assert.deepEqual(files(root), before, 'a dry run changes nothing')

  const applied = sessions.pruneHistory({ keep: 1, apply: true })
  assert.equal(applied.applied, true)
  assert.deepEqual(applied.removed, plan.removed, 'the same plan either way')
  const removedKeys = applied.removed.flatMap((r) => r.removes)
  const after = files(root)
  for (const key of removedKeys) assert.equal(after[key], undefined, `${key} removed`)
  const left = Object.keys(before).filter((k) => !removedKeys.includes(k))
  for (const key of left.filter((k) => !k.endsWith('index.json'))) assert.equal(after[key], before[key], `${key} kept`)
  const kept = ids.filter((id) => !applied.removed.some((r) => r.id === id))
  assert.deepEqual(sessions.listHistory().entries.map((e) => e.id), kept)
  throwsCode(() => sessions.pruneHistory({}), 'invalid_input', 'no criterion')
  throwsCode(() => sessions.pruneHistory({ keep: -1 }), 'invalid_input', 'a negative count')
})

test('AgentRegistry.prune removes old agents with every entry naming them', () => {
  const root = tempDir()
  const reg = new AgentRegistry(new FileStore(root))
  reg.register('old-agent', 'old-1', { ok: 1 }, 'chain-old')
  reg.register('new-agent', 'new-1', { ok: 2 }, 'chain-new')
  const path = join(root, '.moai/memory/agent-sessions.json')
  const doc = JSON.parse(readFileSync(path, 'utf8'))
  doc.metadata['old-1'].created_at = '2020-01-01T00:00:00'
  writeFileSync(path, JSON.stringify(doc, null, 2))
  const before = files(root)
  const plan = reg.prune({ older_than_days: 30 })
  assert.equal(plan.applied, false)
  assert.deepEqual(plan.removed.map((r) => [r.kind, r.id]), [['agent', 'old-1'], ['chain', 'chain-old']])
  assert.deepEqual(files(root), before, 'a dry run changes nothing')
  assert.deepEqual(reg.prune({ olderThanDays: 30, keepAgentIds: ['old-1'] }).removed, [], 'kept ids stay')

  const applied = reg.prune({ older_than_days: 30, apply: true })
  assert.deepEqual(applied.removed, plan.removed)
  assert.equal(reg.agentResult('old-1'), null)
  assert.deepEqual(reg.agentResult('new-1'), { ok: 2 })
  const after = reg.load()
  assert.equal(after.metadata['old-1'], undefined)
  assert.equal(after.chains['chain-old'], undefined)
  assert.deepEqual(after.chains['chain-new'], ['new-1'])
  throwsCode(() => reg.prune({}), 'invalid_input', 'no older_than_days')
})

test('TeamStore.prune removes the old member files only', () => {
  const root = tempDir()
  const teams = new TeamStore(new FileStore(root))
  teams.save('t', sessionFromConfig({ name: 'old', prompt: 'p' }, 'codex', '2020-01-01T00:00:00Z'))
  teams.save('t', sessionFromConfig({ name: 'new', prompt: 'p' }, 'codex'))
  const before = files(root)
  const plan = teams.prune('t', { older_than_days: 30 })
  assert.deepEqual(plan.removed.map((r) => [r.kind, r.id]), [['team_member', 'old']])
  assert.deepEqual(files(root), before, 'a dry run changes nothing')
  const applied = teams.prune('t', { olderThanDays: 30, apply: true })
  assert.deepEqual(applied.removed, plan.removed)
  const after = files(root)
  for (const key of applied.removed[0].removes) assert.equal(after[key], undefined)
  assert.deepEqual(Object.keys(after), Object.keys(before).filter((k) => !applied.removed[0].removes.includes(k)))
  assert.equal(teams.load('t', 'new').name, 'new')
  throwsCode(() => teams.prune('../x', { older_than_days: 1 }), 'invalid_key')
})

test('resumeSummary options: stale_after_hours and git_head say what moved', () => {
  const sessions = new OrchestratorStore(new FileStore(tempDir()))
  const doc = sessions.recordNew({ goal: 'g' }, PROJECT, 'aaa111')
  const later = new Date(Date.parse(doc.updated) + 3 * 3600_000)
  assert.equal(resumeSummary(doc, later).stale, undefined, 'within the default 24 hours')
  const stale = resumeSummary(doc, later, { stale_after_hours: 1 }).stale
  assert.equal(stale.idle.limit_hours, 1)
  assert.deepEqual(resumeSummary(doc, later, { staleAfterHours: 1 }).stale, stale)
  throwsCode(() => resumeSummary(doc, later, { stale: 1 }), 'invalid_input', 'an unknown option')
})

test('a handle over a FileStore in a repository records its HEAD at each save', () => {
  const root = tempDir()
  const commit = '0123456789abcdef0123456789abcdef01234567'
  mkdirSync(join(root, '.git'))
  writeFileSync(join(root, '.git/HEAD'), `${commit}\n`)
  const saved = new OrchestratorStore(new FileStore(root)).recordNew({ goal: 'g' }, PROJECT, 'aaa111')
  assert.equal(saved.project.git_head.commit, commit)
  const summary = resumeSummary(saved, new Date(), { git_head: { commit: 'fedcba9876543210fedcba9876543210fedcba98' } })
  assert.ok(summary.stale.head_moved, 'a moved HEAD is noted')
  const memory = new OrchestratorStore(new ss.MemoryStore()).recordNew({ goal: 'g' }, PROJECT, 'aaa111')
  assert.equal(memory.project.git_head, undefined, 'no HEAD recorded off a FileStore')
})
