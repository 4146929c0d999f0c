// Cross-language: files written through the Node package are read by the CLI and by the
// Python package, and files they write are read by Node.
//
// - CLI: `target/debug/session-state` of this repository, built here with
//   `cargo build -p session-state-cli` when missing; skipped (with the reason) when cargo is
//   not installed.
// - Python: `<repo>/.venv/bin/python` (or $SESSION_STATE_PYTHON) when it can import
//   `session_state` (CI's script 40 installs it before this script 50 runs); else skipped with
//   the reason.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ss, vector, tempDir, REPO, VECTORS } from './helpers.mjs'

const { AgentRegistry, OrchestratorStore, TeamStore, FileStore } = ss

/** The CLI binary, built if needed; or a reason to skip. */
function cli() {
  const bin = join(REPO, 'target', 'debug', 'session-state')
  if (existsSync(bin)) return { bin }
  const cargo = spawnSync('cargo', ['--version'])
  if (cargo.error || cargo.status !== 0) return { skip: 'cargo is not installed: cannot build the session-state CLI' }
  const build = spawnSync('cargo', ['build', '-p', 'session-state-cli'], { cwd: REPO, stdio: 'inherit' })
  if (build.status !== 0) throw new Error('`cargo build -p session-state-cli` failed')
  return { bin }
}

/** A Python that imports `session_state`; or a reason to skip. */
function python() {
  const exe = process.env.SESSION_STATE_PYTHON || join(REPO, '.venv', 'bin', 'python')
  if (!existsSync(exe)) return { skip: `${exe} not found: run scripts/ci/40-python.sh first to install the Python package` }
  const probe = spawnSync(exe, ['-c', 'import session_state'])
  if (probe.status !== 0) return { skip: `${exe} cannot import session_state: ${probe.stderr}` }
  return { exe }
}

const CLI = cli()
const PY = python()

/** Writes a registry (2 agents, one chain) and an orchestrator session into `root` from Node. */
function writeFromNode(root) {
  const store = new FileStore(root)
  const reg = new AgentRegistry(store)
  reg.createChain('SPEC-1', ['spec-builder', 'planner'])
  reg.register('spec-builder', 'spec-abc123', { status: 'success', files: ['spec.md'] }, 'SPEC-1')
  reg.register('planner', 'plan-def456', { steps: 3 }, 'SPEC-1')
  reg.incrementResumeCount('spec-abc123')
  const doc = vector('orchestrator/seed-example.json')
  doc.goal = 'Written by Node ✓'
  new OrchestratorStore(store).save(doc)
  new TeamStore(store).recordSpawn('my-team', { name: 'coder', prompt: 'Write code.', model: 'm' }, 'codex')
}

test('the CLI reads what Node wrote', { skip: CLI.skip }, () => {
  const root = tempDir()
  writeFromNode(root)
  const run = (...args) => JSON.parse(execFileSync(CLI.bin, ['--root', root, ...args], { encoding: 'utf8' }))
  const agents = run('agents', '--json')
  assert.deepEqual(agents, new AgentRegistry(new FileStore(root)).agents())
  assert.deepEqual(agents.map((a) => [a.agent_name, a.agent_id, a.chain_id, a.resume_count]), [
    ['spec-builder', 'spec-abc123', 'SPEC-1', 1],
    ['planner', 'plan-def456', 'SPEC-1', 0],
  ])
  const summary = run('resume', '--json')
  assert.equal(summary.goal, 'Written by Node ✓')
  assert.equal(summary.session_id, '2025-12-27-abc123')
  assert.deepEqual(summary.completed_work, vector('orchestrator/seed-example.resume.json').completed_work)
})

test('Node reads what the CLI wrote', { skip: CLI.skip }, () => {
  const root = tempDir()
  execFileSync(CLI.bin, ['--root', root, 'register', 'tdd-implementer', 'tdd-ghi789', '--chain', 'SPEC-2', '--result', '{"phase": "phase_1", "n": 1}'])
  execFileSync(CLI.bin, ['--root', root, 'register', 'reviewer', 'rev-1', '--result', '[1, "two"]'])
  const reg = new AgentRegistry(new FileStore(root))
  assert.equal(reg.resumeId('tdd-implementer', 'SPEC-2'), 'tdd-ghi789')
  assert.deepEqual(reg.agentResult('tdd-ghi789'), { phase: 'phase_1', n: 1 })
  assert.deepEqual(reg.agentResult('rev-1'), [1, 'two'])
  assert.deepEqual(reg.allSessions().chains, ['SPEC-2'])
  // Node writes next to it, and the CLI sees both.
  reg.register('planner', 'plan-1', null, 'SPEC-2')
  const agents = JSON.parse(execFileSync(CLI.bin, ['--root', root, 'agents', '--json', '--chain', 'SPEC-2'], { encoding: 'utf8' }))
  assert.deepEqual(agents.map((a) => a.agent_id), ['tdd-ghi789', 'plan-1'])
})

const PY_READ = `
import json, sys
from pathlib import Path
from session_state.moai import SessionManager
from session_state.orchestrator import OrchestratorStore
root = Path(sys.argv[1])
mgr = SessionManager(session_file=root / ".moai/memory/agent-sessions.json", transcript_dir=root / ".moai/logs/agent-transcripts")
doc = OrchestratorStore(root).load()
print(json.dumps({
    "all": mgr.get_all_sessions(),
    "resume_id": mgr.get_resume_id("spec-builder", "SPEC-1"),
    "result": mgr.get_agent_result("spec-abc123"),
    "chain_results": mgr.get_chain_results("SPEC-1"),
    "session": doc,
}))
`

test('Python reads what Node wrote', { skip: PY.skip }, () => {
  const root = tempDir()
  writeFromNode(root)
  const got = JSON.parse(execFileSync(PY.exe, ['-c', PY_READ, root], { encoding: 'utf8' }))
  const reg = new AgentRegistry(new FileStore(root))
  assert.deepEqual(got.all, reg.allSessions())
  assert.equal(got.resume_id, 'spec-abc123')
  assert.deepEqual(got.result, { status: 'success', files: ['spec.md'] })
  assert.deepEqual(got.chain_results, reg.chainResults('SPEC-1'))
  assert.deepEqual(got.session, new OrchestratorStore(new FileStore(root)).load())
  assert.equal(got.session.goal, 'Written by Node ✓')
})

const PY_WRITE = `
import json, sys
from pathlib import Path
from session_state.moai import SessionManager
from session_state.orchestrator import OrchestratorStore
root = Path(sys.argv[1])
mgr = SessionManager(session_file=root / ".moai/memory/agent-sessions.json", transcript_dir=root / ".moai/logs/agent-transcripts")
mgr.create_chain("SPEC-PY", ["backend-expert"])
mgr.register_agent_result("backend-expert", "backend-jkl012", {"recommendations": ["Use JWT"]}, "SPEC-PY")
mgr.close()
doc = json.loads(Path(sys.argv[2]).read_text())
doc["goal"] = "Written by Python"
OrchestratorStore(root).save(doc)
`

test('Node reads what Python wrote', { skip: PY.skip }, () => {
  const root = tempDir()
  execFileSync(PY.exe, ['-c', PY_WRITE, root, join(VECTORS, 'orchestrator/seed-example.json')])
  const store = new FileStore(root)
  const reg = new AgentRegistry(store)
  assert.equal(reg.resumeId('backend-expert', 'SPEC-PY'), 'backend-jkl012')
  assert.deepEqual(reg.agentResult('backend-jkl012'), { recommendations: ['Use JWT'] })
  assert.deepEqual(reg.chainStatus('SPEC-PY').done, ['backend-expert'])
  const doc = new OrchestratorStore(store).load()
  assert.equal(doc.goal, 'Written by Python')
  assert.equal(doc.schema_version, '1.0')
  assert.ok(readFileSync(join(root, '.claude/orchestrator-session.json'), 'utf8').includes('Written by Python'))
})
