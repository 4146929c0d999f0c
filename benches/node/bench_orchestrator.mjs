#!/usr/bin/env node
// `OrchestratorStore.save` / `load` of a 200-agent session through a `FileStore`, against the
// floor of plain Node file calls on the same bytes, in one run, each side in its own temporary
// folder of the same filesystem:
//
//   - no fsync: ours with `durable: false` (temporary file + rename) against
//     `writeFileSync(tmp, JSON.stringify(doc, null, 2))` + `renameSync(tmp, file)`, and
//     `JSON.parse(readFileSync(file, 'utf8'))`;
//   - durable: ours with `durable: true` against the same write with `fsyncSync` of the
//     temporary file before the rename and of the folder after it;
//   - for reference, ours through a `MemoryStore` (what save and load cost besides the file
//     calls) against plain Node's save followed by `JSON.parse` of the text it wrote (the new
//     object `save` returns) and plain Node's load again; and ours through the `FileStore`
//     against that plain save followed by `JSON.parse`.
//
//     node benches/node/bench_orchestrator.mjs [repeats]   # default 400 calls per side and row
//
// Needs the addon built (`cd bindings-node && npm run build`). The calls of each row run in
// rounds, ours and the floor taking turns, so that a change of load hits both sides; the
// figure is the median of the rounds' mean time per call. Prints a markdown table.

import assert from 'node:assert/strict'
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

const require = createRequire(import.meta.url)
const { FileStore, MemoryStore, OrchestratorStore } = require('../../bindings-node/index.js')

const ROUNDS = 20

/** The session of benches/python/bench_orchestrator.py: 200 agents, 50 completed tasks. */
function session(agents = 200) {
  const range = (n, f) => Array.from({ length: n }, (_, i) => f(i))
  return {
    schema_version: '1.0',
    session_id: '2025-12-27-abc123',
    created: '2025-12-27T10:30:00Z',
    updated: '2025-12-27T12:30:00Z',
    project: { name: 'my-project', path: '/path/to/my-project', git_branch: 'dev' },
    goal: 'Add sensitivity analysis to RMediation::medci()',
    mode: 'default',
    status: 'in_progress',
    agents: range(agents, (i) => ({
      id: `code-${i}`,
      type: 'code',
      task: `Implement part ${i} of the method`,
      status: i % 3 ? 'complete' : 'in_progress',
      started: '2025-12-27T10:35:00Z',
      completed: '2025-12-27T11:35:00Z',
      result_summary: `part ${i} done, tests green`,
      progress: 60,
      context_tokens: 1200 + i,
    })),
    completed_work: range(50, (i) => ({ task: `task ${i}`, outcome: 'ok', files: [`R/f${i}.R`] })),
    pending_tasks: range(20, (i) => `pending ${i}`),
    decisions_made: range(20, (i) => ({
      decision: `d${i}`,
      rationale: 'because',
      timestamp: '2025-12-27T10:40:00Z',
    })),
    context_usage: { estimated_tokens: 25000, percentage: 20, last_compression: null },
    errors: [],
  }
}

/** Writes `text` to `file` through a temporary file and a rename, fsynced when `durable`. */
function plainWrite(dir, file, text, durable) {
  const tmp = `${file}.tmp`
  if (!durable) {
    writeFileSync(tmp, text)
  } else {
    const fd = openSync(tmp, 'w')
    try {
      writeSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  }
  renameSync(tmp, file)
  if (durable) {
    const folder = openSync(dir, 'r')
    try {
      fsyncSync(folder)
    } finally {
      closeSync(folder)
    }
  }
}

/** Median over the rounds of the mean milliseconds per call of `a` and `b`, taking turns. */
function race(repeats, a, b) {
  const per = Math.max(1, Math.round(repeats / ROUNDS))
  const times = [[], []]
  a()
  b() // warm up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [side, fn] of [a, b].entries()) {
      const start = process.hrtime.bigint()
      for (let i = 0; i < per; i++) fn()
      times[side].push(Number(process.hrtime.bigint() - start) / 1e6 / per)
    }
  }
  const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1]
  return times.map(median)
}

function main() {
  const repeats = Number(process.argv[2] ?? 400)
  const doc = session()
  const root = mkdtempSync(join(tmpdir(), 'session-state-bench-'))
  const rows = []
  const load = [loadavg()[0]]
  try {
    for (const durable of [false, true]) {
      const mode = durable ? 'durable' : 'no fsync'
      const oursDir = join(root, `ours-${mode}`)
      const plainDir = join(root, `plain-${mode}`, '.claude')
      mkdirSync(plainDir, { recursive: true })
      const ours = new OrchestratorStore(new FileStore(oursDir, { durable }))
      const file = join(plainDir, 'orchestrator-session.json')
      const save = race(
        repeats,
        () => ours.save(doc),
        () => plainWrite(plainDir, file, JSON.stringify(doc, null, 2), durable),
      )
      rows.push([`save, ${mode}`, ...save])
      if (!durable) {
        // Reference: ours without the file calls; plain Node making, as save does, a new object
        // of what it wrote.
        const plainReturning = () => {
          const text = JSON.stringify(doc, null, 2)
          plainWrite(plainDir, file, text, durable)
          return JSON.parse(text)
        }
        const memory = new OrchestratorStore(new MemoryStore())
        const copy = race(repeats, () => memory.save(doc), plainReturning)
        rows.push(['save: ours into a MemoryStore (no file calls) / plain + `JSON.parse` of its text', ...copy])
        // The floor of a save that returns the saved document as a new object, as ours does.
        const returned = race(repeats, () => ours.save(doc), plainReturning)
        rows.push(['save, no fsync / plain + `JSON.parse` of its text (a new object, as ours returns)', ...returned])
      }
      // The floor reads the very bytes ours wrote.
      writeFileSync(file, readFileSync(join(oursDir, ours.currentKey)))
      if (!durable) {
        const read = race(
          repeats,
          () => ours.load(),
          () => JSON.parse(readFileSync(file, 'utf8')),
        )
        rows.push(['load (the file this handle saved last: read as it is)', ...read])
        // Another handle over the same folder: it parses and checks the file first.
        const other = new OrchestratorStore(new FileStore(oursDir, { durable }))
        const cold = race(
          repeats,
          () => other.load(),
          () => JSON.parse(readFileSync(file, 'utf8')),
        )
        rows.push(['load of a file another handle wrote', ...cold])
        const memory = new OrchestratorStore(new MemoryStore())
        memory.save(doc)
        const parse = race(
          repeats,
          () => memory.load(),
          () => JSON.parse(readFileSync(file, 'utf8')),
        )
        rows.push(['load: ours from a MemoryStore / plain again', ...parse])
      }
      assert.equal(ours.load().agents.length, 200)
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), ours.load())
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
  load.push(loadavg()[0])
  const bytes = JSON.stringify(doc, null, 2).length
  console.log(
    `Node ${process.version}, 200 agents (${bytes} bytes written), ${repeats} calls per side and row, ` +
      `load average ${load.map((l) => l.toFixed(1)).join(' to ')}`,
  )
  console.log('| call | ours | plain Node | ours / plain |')
  console.log('|---|---:|---:|---:|')
  for (const [name, ours, plain] of rows) {
    console.log(`| ${name} | ${ours.toFixed(3)} ms | ${plain.toFixed(3)} ms | ${(ours / plain).toFixed(2)}x |`)
  }
}

main()
