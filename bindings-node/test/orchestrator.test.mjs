// OrchestratorStore and the free functions against tests/vectors/orchestrator/ (see its
// README): the resume summary and markdown goldens at the fixed clock 2025-12-27T12:30:00Z,
// the history listing of project/, the salvage of the torn copy, the JSON Schema; and the
// lifecycle through a FileStore.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, readFileSync, writeFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { ss, vector, vectorText, tempDir, throwsCode, VECTORS } from './helpers.mjs'

const { OrchestratorStore, FileStore, MemoryStore, resumeSummary, renderResume, salvage, jsonSchema } = ss
const CLOCK = '2025-12-27T12:30:00Z'

test('resume summary of the seed example matches the golden at the fixed clock', () => {
  const doc = vector('orchestrator/seed-example.json')
  assert.deepEqual(resumeSummary(doc, CLOCK), vector('orchestrator/seed-example.resume.json'))
  assert.deepEqual(resumeSummary(doc, new Date(CLOCK)), vector('orchestrator/seed-example.resume.json'))
})

test('resume markdown matches the golden, from the summary', () => {
  const summary = resumeSummary(vector('orchestrator/seed-example.json'), CLOCK)
  assert.equal(renderResume(summary), vectorText('orchestrator/seed-example.resume.md'))
})

test('renderResume also takes a document (summarised now)', () => {
  const md = renderResume(vector('orchestrator/seed-example.json'))
  assert.match(md, /^## 🔄 RESUMING SESSION/)
  assert.match(md, /2025-12-27-abc123/)
})

test('listHistory of the project vector is the golden, newest first by instant', () => {
  const root = tempDir()
  cpSync(join(VECTORS, 'orchestrator/project'), root, { recursive: true })
  const sessions = new OrchestratorStore(new FileStore(root))
  const page = sessions.listHistory()
  assert.deepEqual(page.entries, vector('orchestrator/project.history.json'))
  assert.equal(page.total, 3)
  assert.deepEqual(page.skipped, [])
  assert.deepEqual(sessions.listHistory({ limit: 1, offset: 1 }).entries, [vector('orchestrator/project.history.json')[1]])
  assert.deepEqual(sessions.listHistory({ status: 'aborted' }).entries.map((e) => e.id), ['2025-12-22-0be7c2'])
  // The current file's naive `updated` loads.
  assert.equal(sessions.load().schema_version, '1.0')
})

test('salvage of the torn copy is the golden; any bytes give a result', () => {
  const torn = readFileSync(join(VECTORS, 'orchestrator/seed-example.torn.json'))
  const golden = vector('orchestrator/seed-example.torn.salvaged.json')
  const got = salvage(torn)
  for (const field of Object.keys(golden)) assert.deepEqual(got[field], golden[field], field)
  assert.deepEqual(salvage(torn.toString('utf8')).document, golden.document)
  for (const bytes of ['', 'null', '[1,2', '\u0000\u0001', '{"agents": [{"id": 3']) {
    assert.equal(typeof salvage(bytes).document, 'object')
    // Only the last holds a content field (`agents`, cut short).
    assert.equal(salvage(bytes).recovered_anything, bytes.startsWith('{"agents"'), bytes)
  }
})

test('jsonSchema is the committed schema', () => {
  assert.deepEqual(jsonSchema(), vector('orchestrator/schema.json'))
})

test('lifecycle and recording verbs through a FileStore', () => {
  const root = tempDir()
  const sessions = new OrchestratorStore(new FileStore(root))
  assert.equal(sessions.load(), null)
  const created = sessions.recordNew({ goal: 'Add sensitivity analysis' }, { name: 'p', path: '/p', git_branch: 'dev' }, 'abc123')
  assert.match(created.session_id, /^\d{4}-\d{2}-\d{2}-abc123$/)
  assert.equal(created.status, 'created')
  assert.equal(created.mode, 'default')
  throwsCode(() => sessions.recordNew({ goal: 'x' }, { name: 'p', path: '/p' }), 'already_exists')
  throwsCode(() => sessions.pause(), 'invalid_transition')
  assert.equal(sessions.start().status, 'in_progress')
  sessions.recordAgentStart({ id: 'code-1', type: 'code', task: 'Implement' })
  assert.equal(sessions.recordAgentProgress({ id: 'code-1', percent: 60 }).agents[0].progress, 60)
  // Any number from 0 to 100, as a document's progress.
  assert.equal(sessions.recordAgentProgress({ id: 'code-1', percent: 62.5 }).agents[0].progress, 62.5)
  assert.equal(sessions.load().agents[0].progress, 62.5)
  // Read back to the last bit, as written.
  assert.equal(sessions.recordAgentProgress({ id: 'code-1', percent: 99.99999999999999 }).agents[0].progress, 99.99999999999999)
  assert.equal(sessions.load().agents[0].progress, 99.99999999999999)
  throwsCode(() => sessions.recordAgentProgress({ id: 'nobody', percent: 10 }), 'not_found')
  sessions.recordDecision({ decision: 'use bootstrap', why: 'robust' })
  assert.notEqual(sessions.beforeCompression().context_usage.last_compression, null)
  const failed = sessions.recordAgentFail({ id: 'code-1', error: 'boom' })
  assert.equal(failed.agents[0].status, 'failed')
  assert.equal(failed.errors[0].error, 'boom')
  const started = sessions.recordAgentStart({ id: 'code-2', type: 'code', task: 'Again' }).agents[1]
  assert.equal(started.status, 'in_progress')
  assert.equal(sessions.recordAgentDone({ id: 'code-2', summary: 'done', files: ['a.js'] }).agents[1].result_summary, 'done')
  sessions.recordTaskAdd({ task: 'Write docs' })
  const [afterTask, task] = sessions.recordTaskDone({ task: 1, outcome: 'written' })
  assert.equal(task, 'Write docs')
  assert.deepEqual(afterTask.pending_tasks, [])
  const context = sessions.recordContext({ tokens: 25000, percent: 20, compressed: true }).context_usage
  assert.equal(context.estimated_tokens, 25000)
  assert.notEqual(context.last_compression, null)
  assert.equal(sessions.recordSave().session_id, created.session_id)
  assert.equal(sessions.pause().status, 'paused')
  assert.equal(sessions.resume().status, 'in_progress')
  const done = sessions.complete()
  assert.equal(done.status, 'complete')
  assert.equal(sessions.load(), null, 'complete archives the session')
  const file = join(root, '.claude/orchestrator-history', `${done.session_id}.json`)
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).status, 'complete')
  assert.equal(sessions.listHistory().entries[0].id, done.session_id)
  throwsCode(() => sessions.archive(done), 'already_exists')
  assert.equal(sessions.archive(done, { replace: true }), `.claude/orchestrator-history/${done.session_id}.json`)
  const next = sessions.recordNew({ goal: 'next' }, { name: 'p', path: '/p' }, 'def456')
  throwsCode(() => sessions.recordNew({ goal: 'third' }, { name: 'p', path: '/p' }, 'ghi789'), 'already_exists')
  assert.match(sessions.recordNew({ goal: 'third', archiveCurrent: true }, { name: 'p', path: '/p' }, 'ghi789').session_id, /-ghi789$/)
  assert.ok(sessions.listHistory().entries.some((e) => e.id === next.session_id), 'archiveCurrent archived it')
})

test('save returns the saved document and sets only `updated` on the argument; unknown fields round-trip', () => {
  const sessions = new OrchestratorStore(new MemoryStore())
  const doc = vector('orchestrator/seed-example.json')
  doc.custom = { nested: [1, 2, { deep: true }] }
  doc.agents[0].extra_field = 'kept'
  const before = structuredClone(doc)
  const saved = sessions.save(doc)
  assert.notEqual(saved.updated, before.updated)
  assert.deepEqual(doc, { ...before, updated: saved.updated }, 'the argument changes only `updated`')
  const loaded = sessions.load()
  assert.deepEqual(loaded, saved)
  assert.deepEqual(loaded.custom, doc.custom)
  assert.equal(loaded.agents[0].extra_field, 'kept')
  assert.equal(sessions.sessionEnd().session_id, doc.session_id)
  assert.equal(sessions.load(), null)
})

test('doctor finds and repairs a torn current file, keeping a copy', () => {
  const root = tempDir()
  const store = new FileStore(root)
  const sessions = new OrchestratorStore(store)
  store.write('.claude/orchestrator-session.json', readFileSync(join(VECTORS, 'orchestrator/seed-example.torn.json')))
  throwsCode(() => sessions.load(), 'corrupt_state')
  try {
    sessions.load()
  } catch (err) {
    assert.equal(err.salvaged.session_id, '2025-12-27-abc123')
  }
  const report = sessions.doctor()
  assert.equal(report.problems[0].code, 'corrupt_state')
  assert.equal(report.problems[0].fixable, true)
  const fixed = sessions.doctor({ fix: true })
  assert.equal(fixed.repaired.length, 1)
  assert.match(fixed.repaired[0].kept_copy, /orchestrator-session\.json\.corrupt-\d{8}T\d{6}Z/)
  assert.equal(sessions.load().session_id, '2025-12-27-abc123')
  assert.equal(sessions.recover(), null, 'nothing left to recover')
  assert.ok(readdirSync(join(root, '.claude')).some((n) => n.includes('.corrupt-')))
  sessions.rebuildIndex()
})

test('save through a FileStore over a torn current file keeps a copy, returns what it wrote', () => {
  const root = tempDir()
  const store = new FileStore(root)
  const sessions = new OrchestratorStore(store)
  const torn = readFileSync(join(VECTORS, 'orchestrator/seed-example.torn.json'))
  store.write('.claude/orchestrator-session.json', torn)
  const doc = JSON.parse(readFileSync(join(VECTORS, 'orchestrator/seed-example.json'), 'utf8'))
  const read = doc.updated
  const saved = sessions.save(doc)
  assert.notEqual(saved.updated, read)
  assert.deepEqual(saved, JSON.parse(readFileSync(join(root, '.claude/orchestrator-session.json'), 'utf8')))
  assert.deepEqual(sessions.load(), saved)
  const copies = readdirSync(join(root, '.claude')).filter((n) => n.includes('.corrupt-'))
  assert.equal(copies.length, 1)
  assert.deepEqual(readFileSync(join(root, '.claude', copies[0])), torn)
})

// flock(1) is util-linux's.
test('save through a FileStore waits for a lock another process holds, then writes', { skip: process.platform !== 'linux' }, async () => {
  // The commit runs on the helper thread, which waits for the lock as the JS thread would.
  const root = tempDir()
  const sessions = new OrchestratorStore(new FileStore(root))
  const doc = sessions.recordNew({ goal: 'g' }, { name: 'p', path: '/p' }, 's')
  const lock = join(root, '.claude', '.orchestrator-session.json.lock')
  const holder = spawn('flock', ['-x', lock, '-c', 'echo held; sleep 1.5'])
  await new Promise((resolve, reject) => {
    holder.stdout.once('data', resolve)
    holder.once('error', reject)
    holder.once('exit', (code) => reject(new Error(`flock exited with ${code} before holding the lock`)))
  })
  const started = Date.now()
  const saved = sessions.save({ ...doc, goal: 'new' })
  assert.ok(Date.now() - started >= 300, `returned after ${Date.now() - started} ms`)
  assert.equal(saved.goal, 'new')
  assert.equal(JSON.parse(readFileSync(join(root, '.claude/orchestrator-session.json'), 'utf8')).goal, 'new')
  await new Promise((resolve) => (holder.exitCode === null ? holder.once('exit', resolve) : resolve()))
})

test('load of a file another handle wrote: its values when a save wrote it, else the document', () => {
  const store = new MemoryStore()
  const key = '.claude/orchestrator-session.json'
  const saved = new OrchestratorStore(store).save(vector('orchestrator/seed-example.json'))
  const written = store.read(key)
  const other = () => new OrchestratorStore(store).load()
  assert.deepEqual(other(), saved)
  // The same values in other text (a BOM first, compact): the same document.
  store.write(key, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), written]))
  assert.deepEqual(other(), saved)
  store.write(key, Buffer.from(JSON.stringify(saved)))
  assert.deepEqual(other(), saved)
  // Text JSON.parse reads but the document's checks refuse, or that is not UTF-8: the error.
  store.write(key, Buffer.from(JSON.stringify({ ...saved, agents: [{ ...saved.agents[0], progress: 101 }] })))
  throwsCode(other, 'corrupt_state')
  store.write(key, Buffer.from(JSON.stringify(saved).replace('"goal":"', '"goal":"\xff'), 'latin1'))
  throwsCode(other, 'corrupt_state')
  store.write(key, Buffer.from(JSON.stringify({ ...saved, schema_version: '2.0' })))
  throwsCode(other, 'incompatible_schema')
})

test('naive timestamps follow naiveOffsetMinutes', () => {
  const store = new MemoryStore()
  const doc = vector('orchestrator/seed-example.json')
  doc.created = '2025-12-27T10:30:00'
  store.write('.claude/orchestrator-session.json', Buffer.from(JSON.stringify(doc)))
  assert.equal(new OrchestratorStore(store).load().created, '2025-12-27T10:30:00Z')
  assert.equal(new OrchestratorStore(store, { naiveOffsetMinutes: 60 }).load().created, '2025-12-27T09:30:00Z')
  throwsCode(() => new OrchestratorStore(store, { maxDocumentBytes: 10 }).load(), 'invalid_input')
})

test('complete and abort are all or nothing; { replace: true } overwrites the archive', () => {
  const store = new MemoryStore()
  const sessions = new OrchestratorStore(store)
  const created = sessions.recordNew({ goal: 'g' }, { name: 'p', path: '/p' }, 'abc123')
  sessions.start()
  const archiveKey = `.claude/orchestrator-history/${created.session_id}.json`
  store.write(archiveKey, Buffer.from('{"an": "older archive"}'))
  throwsCode(() => sessions.complete(), 'already_exists')
  throwsCode(() => sessions.abort(), 'already_exists')
  assert.equal(sessions.load().status, 'in_progress')
  assert.equal(sessions.complete({ replace: true }).status, 'complete')
  assert.equal(sessions.load(), null)
  assert.equal(JSON.parse(store.read(archiveKey).toString()).status, 'complete')
})
