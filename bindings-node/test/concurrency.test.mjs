// Concurrent read-modify-writes from several processes on one FileStore: FsStore's lock
// (taken by `update`, through the same AnyStore plumbing the classes use) loses no update.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fork } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const { FileStore, testingStoreCall: call } = require('../index.js')

const WORKERS = 4
const UPDATES = 25

if (process.env.SESSION_STATE_WORKER) {
  // Child: append this worker's tokens one read-modify-write at a time.
  const [root, id] = process.env.SESSION_STATE_WORKER.split('\n')
  const store = new FileStore(root)
  for (let i = 0; i < UPDATES; i++) call(store, 'update', 'shared/log', Buffer.from(`${id}:${i};`))
  process.exit(0)
} else {
  test('updates from several processes are all kept', async () => {
    const root = mkdtempSync(join(tmpdir(), 'session-state-concurrency-'))
    const self = fileURLToPath(import.meta.url)
    const exits = Array.from({ length: WORKERS }, (_, id) => {
      const child = fork(self, [], {
        env: { ...process.env, SESSION_STATE_WORKER: `${root}\n${id}`, NODE_TEST_CONTEXT: '' },
        stdio: 'inherit',
      })
      return new Promise((resolve) => child.on('exit', (code) => resolve(code)))
    })
    assert.deepEqual(await Promise.all(exits), Array(WORKERS).fill(0))
    const tokens = readFileSync(join(root, 'shared/log'), 'utf8').split(';').filter(Boolean)
    assert.equal(tokens.length, WORKERS * UPDATES)
    for (let id = 0; id < WORKERS; id++) {
      const mine = tokens.filter((t) => t.startsWith(`${id}:`)).map((t) => Number(t.split(':')[1]))
      assert.deepEqual(mine, [...Array(UPDATES).keys()], `worker ${id} in order`)
    }
  })
}
