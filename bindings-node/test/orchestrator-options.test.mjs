// OrchestratorStore options as docs/node.md states them: `maxDocumentBytes` (default 16 MiB;
// a larger document is `invalid_input`, never written, never copied aside), and `{ replace:
// true }`, the option an `already_exists` message tells a Node user to pass (not the CLI's
// `--replace`).
import test from 'node:test'
import assert from 'node:assert/strict'
import { ss } from './helpers.mjs'

const { MemoryStore, OrchestratorStore } = ss

const PROJECT = { name: 'p', path: '/p' }
const CURRENT = '.claude/orchestrator-session.json'

/** Asserts the `already_exists` error of an existing archive, in the Node API's words. */
function throwsArchiveExists(call, what) {
  assert.throws(call, (err) => {
    assert.ok(err instanceof Error, what)
    assert.equal(err.code, 'already_exists', `${what}: ${err.message}`)
    assert.equal(err.hint, 'replace', `${what}: the core's hint, as data`)
    assert.match(err.message, /^an archive of session `[^`]+` already exists at `\.claude\/orchestrator-history\/[^`]+\.json`/, what)
    assert.ok(!err.message.includes('--replace'), `${what}: names the CLI flag: ${err.message}`)
    assert.ok(err.message.includes('`{ replace: true }`'), `${what}: ${err.message}`)
    assert.ok(err.message.includes('archive(doc, { replace: true })'), `${what}: ${err.message}`)
    assert.match(err.context.key, /^\.claude\/orchestrator-history\//, what)
    return true
  }, what)
}

test('already_exists names the { replace: true } option, and that option works', () => {
  const store = new MemoryStore()
  const sessions = new OrchestratorStore(store)
  const doc = sessions.recordNew({ goal: 'g' }, PROJECT)
  sessions.archive(doc)
  throwsArchiveExists(() => sessions.archive(doc), 'archive')
  assert.match(sessions.archive(doc, { replace: true }), /\.json$/)

  // The final moves archive too: same id, archive present (each made current again from the
  // archive the last move left, a later save of it archived: not one the current file
  // supersedes).
  const archiveLater = (doc) => {
    const later = { ...doc, status: 'paused', goal: 'a later goal', updated: '2099-01-01T00:00:00Z' }
    const key = `.claude/orchestrator-history/${doc.session_id}.json`
    store.write(key, Buffer.from(JSON.stringify(later)))
  }
  let archived = doc
  for (const [name, move] of [
    ['complete', (s, o) => s.complete(o)],
    ['abort', (s, o) => s.abort(o)],
  ]) {
    sessions.save({ ...archived, status: 'created' })
    if (name === 'complete') sessions.start()
    archiveLater(archived)
    throwsArchiveExists(() => move(sessions, undefined), name)
    assert.notEqual(sessions.load(), null, `${name} changed nothing`)
    archived = move(sessions, { replace: true })
    assert.equal(sessions.load(), null, `${name} with replace archived`)
  }
  sessions.save({ ...archived, status: 'created' })
  archiveLater(archived)
  throwsArchiveExists(() => sessions.sessionEnd(), 'sessionEnd')
})

test('maxDocumentBytes: a larger document is invalid_input, not written, not copied aside; doctor fix moves it aside', () => {
  const store = new MemoryStore()
  const sessions = new OrchestratorStore(store, { maxDocumentBytes: 4000 })
  const doc = sessions.recordNew({ goal: 'g' }, PROJECT)
  const before = store.read(CURRENT)
  assert.throws(
    () => sessions.save({ ...doc, goal: 'x'.repeat(5000) }),
    (err) => err.code === 'invalid_input' && /more than the limit of 4000 bytes/.test(err.message),
  )
  assert.deepEqual(store.read(CURRENT), before, 'nothing written')

  // A file above the limit (written by a handle with a larger limit) is refused on load.
  new OrchestratorStore(store).save({ ...doc, goal: 'y'.repeat(5000) })
  const big = store.read(CURRENT)
  assert.throws(
    () => sessions.load(),
    (err) => err.code === 'invalid_input' && err.context.key === CURRENT && /more than the limit of 4000 bytes/.test(err.message),
  )
  assert.deepEqual(store.read(CURRENT), big, 'the file is left as it is')
  assert.deepEqual(store.list('.claude'), [CURRENT], 'no corrupt copy kept')
  assert.equal(new OrchestratorStore(store).load().goal.length, 5000, 'the default limit reads it')
  const found = sessions.doctor()
  assert.deepEqual(found.problems.map((p) => [p.key, p.code, p.fixable]), [[CURRENT, 'invalid_input', true]])
  assert.deepEqual(store.read(CURRENT), big, 'doctor without fix leaves it as it is')
  const report = sessions.doctor({ fix: true })
  assert.deepEqual(report.repaired.map((r) => [r.key, r.action, r.limit]), [[CURRENT, 'moved_aside', 4000]])
  assert.ok(store.read(CURRENT) == null, 'doctor --fix moves it aside')
  assert.deepEqual(store.read(report.repaired[0].kept_copy), big, 'its bytes kept')
})

test('maxDocumentBytes defaults to 16 MiB', () => {
  const sessions = new OrchestratorStore(new MemoryStore())
  const doc = sessions.recordNew({ goal: 'g' }, PROJECT)
  sessions.save({ ...doc, goal: 'z'.repeat(16 * 1024 * 1024 - 4096) })
  assert.throws(
    () => sessions.save({ ...doc, goal: 'z'.repeat(16 * 1024 * 1024) }),
    (err) => err.code === 'invalid_input' && err.message.includes(`more than the limit of ${16 * 1024 * 1024} bytes`),
  )
})
