// Ownership of the current session through two handles over one FileStore folder: claim,
// the fence on every write (refused with `conflict` naming the owner, nothing written),
// takeover after expiry, renew, release, heartbeat and the live sessions with stale ones.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { ss, tempDir, throwsCode } from './helpers.mjs'

const { OrchestratorStore, FileStore } = ss
const PROJECT = { name: 'p', path: '/p' }
const CURRENT = '.claude/orchestrator-session.json'

/** Two handles over one folder, and the folder. */
function twoHandles() {
  const root = tempDir()
  return { root, a: new OrchestratorStore(new FileStore(root)), b: new OrchestratorStore(new FileStore(root)) }
}

/** Asserts `call` throws `conflict` naming `owner` in its context. */
function refusedBy(call, owner, what) {
  throwsCode(call, 'conflict', what)
  try {
    call()
  } catch (err) {
    assert.equal(err.context.owner, owner, what)
    assert.match(err.message, new RegExp(`owned by \`${owner}\``), what)
    return err
  }
}

test('a claimed session refuses another owner and a writer naming none; nothing is written', () => {
  const { root, a, b } = twoHandles()
  assert.equal(a.lease(), null)
  const claimed = a.claim({ owner: 'orch-a' })
  assert.equal(claimed.lease.owner, 'orch-a')
  assert.equal(claimed.lease.epoch, 1)
  // No process given: the owning process (this test's parent, the test runner, as a hook's
  // would be the orchestrator that ran it), with its start time and host.
  assert.equal(claimed.lease.process.pid, process.pid, 'the process is filled when none is given')
  assert.equal(typeof claimed.lease.process.pid_start, 'number')
  assert.equal(typeof claimed.lease.process.host, 'string')
  assert.equal(claimed.live.owner, 'orch-a')
  assert.deepEqual(a.writer, { owner: 'orch-a', epoch: 1 })
  a.recordNew({ goal: 'g' }, PROJECT, 'abc123')
  const before = readFileSync(join(root, CURRENT), 'utf8')

  refusedBy(() => b.start(), 'orch-a', 'a writer naming no owner')
  b.setWriter({ owner: 'orch-b' })
  assert.deepEqual(b.writer, { owner: 'orch-b' })
  const err = refusedBy(() => b.start(), 'orch-a', 'another owner')
  assert.equal(err.context.epoch, '1')
  refusedBy(() => b.claim({ owner: 'orch-b' }), 'orch-a', 'a claim of a live lease')
  refusedBy(() => b.claim({ owner: 'orch-b', takeover: true }), 'orch-a', 'takeover before expiry')
  assert.equal(readFileSync(join(root, CURRENT), 'utf8'), before, 'the refused writes left the file as it was')
  assert.equal(b.lease().owner, 'orch-a')

  assert.equal(a.start().status, 'in_progress', 'the owner writes')
  b.setWriter(null)
  assert.equal(b.writer, null)
  throwsCode(() => b.setWriter({ owner: 'x', color: 1 }), 'invalid_input', 'an unknown member of the writer')
  throwsCode(() => a.claim({ owner: '' }), 'invalid_input', 'a blank owner')
  throwsCode(() => a.claim('orch-a'), 'invalid_input', 'a claim that is not an object')
})

test('an expired lease is taken over (hint takeover), and the former owner is fenced off', async () => {
  const { root, a, b } = twoHandles()
  a.claim({ owner: 'orch-a', lease_seconds: 1 })
  a.recordNew({ goal: 'g' }, PROJECT, 'abc123')
  await sleep(2100)
  const err = refusedBy(() => b.claim({ owner: 'orch-b', skew_seconds: 0 }), 'orch-a', 'expired, no takeover asked')
  assert.equal(err.hint, 'takeover')
  assert.match(err.message, /claim\(\{ owner, takeover: true \}\)/)

  const taken = b.claim({ owner: 'orch-b', takeover: true, skew_seconds: 0 })
  assert.equal(taken.lease.owner, 'orch-b')
  assert.equal(taken.lease.epoch, 2)
  assert.equal(taken.lease.took_over_from, 'orch-a')
  const before = readFileSync(join(root, CURRENT), 'utf8')
  refusedBy(() => a.start(), 'orch-b', 'the former owner after a takeover')
  assert.equal(readFileSync(join(root, CURRENT), 'utf8'), before)
  assert.equal(b.start().status, 'in_progress')
})

test('renew, release, and a released session takes every write', () => {
  const { a, b } = twoHandles()
  a.claim({ owner: 'orch-a', lease_seconds: 60 })
  a.recordNew({ goal: 'g' }, PROJECT, 'abc123')
  const renewed = a.renew('orch-a', 600)
  assert.equal(renewed.lease_seconds, 600)
  assert.ok(Date.parse(renewed.expires) - Date.parse(renewed.renewed) === 600_000)
  refusedBy(() => a.renew('orch-b'), 'orch-a', 'renewal by another owner')
  throwsCode(() => a.renew('orch-a', -1), 'invalid_input', 'a negative lease')

  const released = a.release({ owner: 'orch-a' })
  assert.equal(released.lease.owner, null)
  assert.equal(released.lease.released_by, 'orch-a')
  assert.equal(released.lease.epoch, 1, 'the epoch is kept')
  throwsCode(() => a.renew('orch-a'), 'not_found', 'nobody holds it')
  assert.equal(b.start().status, 'in_progress', 'a handle naming nobody writes a released session')
  assert.equal(b.claim({ owner: 'orch-b' }).lease.epoch, 2, 'the next claim goes on counting')
})

test('heartbeat renews the owner, live sessions list stale ones with the reason', async () => {
  const { a, b } = twoHandles()
  a.claim({ owner: 'orch-a', lease_seconds: 60 })
  const beat = a.heartbeat({ owner: 'orch-a' })
  assert.equal(beat.renewed, true)
  assert.equal(beat.live.process.pid, process.pid)
  const other = b.heartbeat({ owner: 'orch-b', ttl_seconds: 1, process: { pid: 1, host: 'elsewhere' } })
  assert.equal(other.renewed, false, 'a lease held by someone else is not renewed')
  assert.equal(other.lease.owner, 'orch-a')
  assert.deepEqual(other.live.process, { pid: 1, host: 'elsewhere' }, 'a given process is kept')
  await sleep(2100)
  const live = a.liveSessions()
  assert.deepEqual(live.map((s) => s.key), ['.claude/live/orch-a.json', '.claude/live/orch-b.json'])
  const [mine, stale] = live
  assert.equal(mine.stale, false)
  assert.equal(mine.entry.owner, 'orch-a')
  assert.equal(stale.stale, true, 'listed, never dropped')
  assert.equal(stale.entry.owner, 'orch-b')
  assert.match(stale.reason, /no heartbeat for \d+ s, more than its TTL of 1 s/)
  throwsCode(() => a.heartbeat({ owner: 'orch-a', color: 'x' }), 'invalid_input', 'an unknown member')
})

test('scopes: a scope held by a live session cannot be claimed by another', () => {
  const { a, b } = twoHandles()
  const claimed = a.claim({ owner: 'orch-a', scopes: ['SPEC-1'] })
  assert.equal(claimed.lease, null)
  assert.deepEqual(claimed.live.scopes, ['SPEC-1'])
  throwsCode(() => b.claim({ owner: 'orch-b', scopes: ['SPEC-1'] }), 'conflict', 'a held scope')
  assert.deepEqual(a.release({ owner: 'orch-a', scopes: ['SPEC-1'] }).live.scopes ?? [], [])
  assert.deepEqual(b.claim({ owner: 'orch-b', scopes: ['SPEC-1'] }).live.scopes, ['SPEC-1'])
})

test('SESSION_STATE_PID that names no process is invalid_input; a process given is kept', () => {
  const { a } = twoHandles()
  const before = process.env.SESSION_STATE_PID
  try {
    for (const pid of ['abc', '0', '-5']) {
      process.env.SESSION_STATE_PID = pid
      throwsCode(() => a.claim({ owner: 'orch-a' }), 'invalid_input', pid)
      throwsCode(() => a.heartbeat({ owner: 'orch-a' }), 'invalid_input', pid)
      assert.equal(a.lease(), null, 'nothing claimed')
    }
    assert.equal(a.heartbeat({ owner: 'orch-a', process: { pid: 7 } }).live.process.pid, 7)
    process.env.SESSION_STATE_PID = '4242'
    assert.equal(a.heartbeat({ owner: 'orch-a' }).live.process.pid, 4242)
  } finally {
    if (before === undefined) delete process.env.SESSION_STATE_PID
    else process.env.SESSION_STATE_PID = before
  }
})
