// Several worker processes registering into one FileStore folder lose nothing: 4 processes x
// 100 `register` each (plain mode, then journal mode) end with all 400 agents, each
// with its result, in registration order per worker.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { ss, tempDir } from './helpers.mjs'

const { AgentRegistry, FileStore } = ss
const WORKERS = 4
const REGISTRATIONS = 100

if (process.env.SESSION_STATE_REGISTRY_WORKER) {
  const { root, id, journal } = JSON.parse(process.env.SESSION_STATE_REGISTRY_WORKER)
  // Without fsyncs: 400 writes in a row, and lost updates do not depend on them.
  const reg = new AgentRegistry(new FileStore(root, { durable: false }), { journal })
  for (let i = 0; i < REGISTRATIONS; i++) {
    reg.register(`agent-${id}-${i}`, `id-${id}-${i}`, { worker: id, i }, `chain-${id}`)
  }
  reg.close()
  process.exit(0)
} else {
  for (const journal of [false, true]) {
    test(`${WORKERS} processes x ${REGISTRATIONS} registrations lose nothing (journal: ${journal})`, async () => {
      const root = tempDir()
      const self = fileURLToPath(import.meta.url)
      const exits = Array.from({ length: WORKERS }, (_, id) => {
        const child = fork(self, [], {
          env: { ...process.env, SESSION_STATE_REGISTRY_WORKER: JSON.stringify({ root, id, journal }), NODE_TEST_CONTEXT: '' },
          stdio: 'inherit',
        })
        return new Promise((resolve) => child.on('exit', (code) => resolve(code)))
      })
      assert.deepEqual(await Promise.all(exits), Array(WORKERS).fill(0))
      const reg = new AgentRegistry(new FileStore(root))
      const all = reg.allSessions()
      assert.equal(Object.keys(all.sessions).length, WORKERS * REGISTRATIONS)
      assert.equal(all.total_results, WORKERS * REGISTRATIONS)
      for (let id = 0; id < WORKERS; id++) {
        const chain = reg.chainResults(`chain-${id}`)
        assert.deepEqual(chain.map((r) => r.result.i), [...Array(REGISTRATIONS).keys()], `worker ${id} in order`)
        assert.deepEqual(reg.agentResult(`id-${id}-7`), { worker: id, i: 7 })
      }
    })
  }
}
