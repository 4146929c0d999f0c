// TeamStore against tests/vectors/teams/ (see its README): files written by the agent-teams
// crate (fixtures/, crate-written/) and by the core (ours/) load and re-save to identical
// bytes through JS; files the crate rejects (bad/) are corrupt_state; read/ loads.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ss, tempDir, throwsCode, VECTORS } from './helpers.mjs'

const { TeamStore, FileStore, MemoryStore, sessionFromConfig, toSpawnConfig, parseBackendType } = ss

function files(folder) {
  const dir = join(VECTORS, 'teams', folder)
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => ({ stem: n.slice(0, -5), bytes: readFileSync(join(dir, n)) }))
}

for (const folder of ['fixtures', 'crate-written', 'ours']) {
  test(`${folder}/ files load and re-save to identical bytes`, () => {
    const list = files(folder)
    assert.ok(list.length > 0)
    const store = new FileStore(tempDir())
    const teams = new TeamStore(store)
    for (const { stem, bytes } of list) {
      const name = JSON.parse(bytes.toString('utf8')).name
      const key = `teams/${stem}/sessions/${name}.json`
      store.write(key, bytes)
      const state = teams.load(stem, name)
      assert.equal(state.name, name)
      store.delete(key)
      if (/[:\[,]\s*-?\d{16,}/.test(bytes.toString('utf8'))) {
        // Integers beyond 2^53 (u64 limits of memoryConfig) are not exact as JS numbers: such a
        // state cannot be saved back from JS, and says so instead of writing another number.
        throwsCode(() => teams.save(stem, state), 'invalid_input', `${folder}/${stem}.json`)
        continue
      }
      assert.equal(teams.save(stem, state), key)
      assert.equal(store.read(key).toString('utf8'), bytes.toString('utf8'), `${folder}/${stem}.json`)
    }
  })
}

test('read/ files load', () => {
  for (const { stem, bytes } of files('read')) {
    const name = JSON.parse(bytes.toString('utf8')).name
    const store = new MemoryStore()
    store.write(`teams/t/sessions/${name}.json`, bytes)
    const state = new TeamStore(store).load('t', name)
    assert.equal(state.name, name, stem)
    assert.match(state.createdAt, /Z$/, stem)
  }
})

test('bad/ files are corrupt_state on load and skipped by list and resumePlan', () => {
  for (const { stem, bytes } of files('bad')) {
    const store = new MemoryStore()
    store.write('teams/t/sessions/agent.json', bytes)
    const teams = new TeamStore(store)
    throwsCode(() => teams.load('t', 'agent'), 'corrupt_state', stem)
    const listing = teams.list('t')
    assert.deepEqual(listing.members, [], stem)
    assert.equal(listing.skipped[0].code, 'corrupt_state', stem)
    const plan = teams.resumePlan('t')
    assert.equal(plan.members[0].action, 'skip', stem)
    assert.equal(plan.members[0].reason, 'unparsable', stem)
  }
})

test('recordSpawn, update, list, listTeams, resumePlan, delete', () => {
  const teams = new TeamStore(new FileStore(tempDir()))
  const config = { name: 'coder', prompt: 'You write Rust code.', model: 'gpt-5-codex', allowedTools: ['Bash'], memoryConfig: { max_turns: 3, budget_chars: 100 } }
  const spawned = teams.recordSpawn('my-team', config, 'codex')
  assert.equal(spawned.backendType, 'codex')
  assert.deepEqual(spawned.memoryConfig, { max_turns: 3, budget_chars: 100 })
  const updated = teams.update('my-team', 'coder', { metadata: { codex_thread_id: 't-1' }, model: null })
  assert.deepEqual(updated.metadata, { codex_thread_id: 't-1' })
  assert.equal(updated.model, undefined)
  const again = teams.recordSpawn('my-team', config, 'codex')
  assert.equal(again.createdAt, spawned.createdAt, 'a re-spawn keeps createdAt')
  assert.deepEqual(again.metadata, { codex_thread_id: 't-1' }, 'and metadata')
  throwsCode(() => teams.update('my-team', 'coder', { name: 'other' }), 'invalid_input')
  throwsCode(() => teams.update('my-team', 'coder', { allowedTools: null }), 'invalid_input')
  // A document key in snake_case would be kept as an unknown member: refused, naming the key.
  assert.throws(() => teams.update('my-team', 'coder', { max_turns: 7 }),
    (err) => err.code === 'invalid_input' && err.context.field === 'changes.max_turns' && /`maxTurns`/.test(err.message))
  throwsCode(() => teams.update('my-team', 'nobody', {}), 'not_found')
  const replaced = teams.replace('my-team', 'coder', { ...again, prompt: 'New prompt.', metadata: {} })
  assert.equal(replaced.prompt, 'New prompt.')
  assert.equal(replaced.metadata, undefined)
  assert.deepEqual(teams.load('my-team', 'coder'), replaced)
  throwsCode(() => teams.replace('my-team', 'coder', { ...again, name: 'other' }), 'invalid_input')
  throwsCode(() => teams.replace('my-team', 'ghost', { ...again, name: 'ghost' }), 'not_found')
  teams.recordSpawn('my-team', { name: 'reviewer', prompt: 'Review.' }, 'claude-code')
  assert.deepEqual(teams.list('my-team').members.map((m) => m.agent), ['coder', 'reviewer'])
  assert.deepEqual(teams.listTeams(), [{ name: 'my-team', sessions: 2 }])
  const plan = teams.resumePlan('my-team')
  assert.deepEqual(plan.members.map((m) => [m.agent, m.action, m.backend]), [['coder', 'respawn', 'codex'], ['reviewer', 'respawn', 'claude-code']])
  assert.equal(plan.members[0].config.model, 'gpt-5-codex')
  assert.equal(teams.delete('my-team', 'coder'), true)
  assert.equal(teams.delete('my-team', 'coder'), false)
  throwsCode(() => teams.load('my-team', 'coder'), 'not_found')
  throwsCode(() => teams.load('../x', 'coder'), 'invalid_key')
  throwsCode(() => teams.recordSpawn('t', config, 'gpt'), 'invalid_input')
})

test('free functions: sessionFromConfig, toSpawnConfig, parseBackendType', () => {
  const state = sessionFromConfig({ name: 'a', prompt: 'p', env: { K: 'v' } }, 'gemini-cli', '2026-03-01T12:34:56Z')
  assert.deepEqual(state, { name: 'a', backendType: 'gemini-cli', prompt: 'p', env: { K: 'v' }, createdAt: '2026-03-01T12:34:56Z' })
  assert.deepEqual(toSpawnConfig(state), { name: 'a', prompt: 'p', env: { K: 'v' } })
  assert.equal(parseBackendType('codex'), 'codex')
  throwsCode(() => parseBackendType('Codex'), 'invalid_input')
  throwsCode(() => sessionFromConfig({ prompt: 'no name' }, 'codex'), 'invalid_input')
})

/** Asserts `call` throws `invalid_input` whose message and `context.field` name `field`. */
function refusesField(call, field, what) {
  assert.throws(call, (err) => {
    assert.equal(err.code, 'invalid_input', `${what}: ${err.message}`)
    assert.equal(err.context?.field, field, `${what}: ${err.message}`)
    assert.ok(err.message.includes(`\`${field}\``), `${what}: ${err.message}`)
    return true
  }, what)
}

test('update refuses an unknown backendType, naming it, and writes nothing', () => {
  const store = new MemoryStore()
  const teams = new TeamStore(store)
  teams.recordSpawn('t', { name: 'a', prompt: 'p' }, 'codex')
  const key = 'teams/t/sessions/a.json'
  const before = store.read(key)
  for (const backendType of ['bogus', 'Codex', '', 5, null, ['codex']]) {
    refusesField(() => teams.update('t', 'a', { backendType }), 'changes.backendType', JSON.stringify(backendType))
  }
  // A name the crate refuses is refused by the update, not only by a later save.
  for (const name of ['../x', '']) {
    refusesField(() => teams.update('t', 'a', { name }), 'changes.name', name)
  }
  assert.deepEqual(store.read(key), before, 'file unchanged')
  assert.equal(teams.update('t', 'a', { backendType: 'gemini-cli' }).backendType, 'gemini-cli')
})

test('update and replace name the badly typed member, through the core rules', () => {
  const store = new MemoryStore()
  const teams = new TeamStore(store)
  const state = teams.recordSpawn('t', { name: 'a', prompt: 'p' }, 'codex')
  const key = 'teams/t/sessions/a.json'
  const before = store.read(key)
  for (const [changes, field] of [
    [{ maxTurns: 'ten' }, 'maxTurns'],
    [{ maxTurns: 2 ** 31 }, 'maxTurns'],
    [{ model: 5 }, 'model'],
    [{ prompt: null }, 'prompt'],
    [{ allowedTools: ['Bash', 1] }, 'allowedTools[1]'],
    [{ env: { HOME: 1 } }, 'env.HOME'],
    [{ metadata: { thread: true } }, 'metadata.thread'],
    [{ memoryConfig: { max_turns: 'x', budget_chars: 1 } }, 'memoryConfig.max_turns'],
    [{ memoryConfig: { max_turns: 1 } }, 'memoryConfig'],
    [{ createdAt: '2026-01-01T00:00:00' }, 'createdAt'],
  ]) {
    refusesField(() => teams.update('t', 'a', changes), `changes.${field}`, JSON.stringify(changes))
    refusesField(() => teams.replace('t', 'a', { ...state, ...changes }), `state.${field}`, JSON.stringify(changes))
  }
  refusesField(() => teams.replace('t', 'a', { ...state, backendType: 'bogus' }), 'state.backendType', 'replace backendType')
  assert.deepEqual(store.read(key), before, 'file unchanged')
})

test('a stored unknown backendType is kept by update and replace', () => {
  const store = new MemoryStore()
  const key = 'teams/t/sessions/a.json'
  store.write(key, Buffer.from(JSON.stringify({ name: 'a', backendType: 'cursor', prompt: 'p', createdAt: '2026-01-01T00:00:00Z' })))
  const teams = new TeamStore(store)
  const state = teams.update('t', 'a', { model: 'm' })
  assert.equal(state.backendType, 'cursor')
  assert.equal(teams.update('t', 'a', { ...state, prompt: 'q' }).backendType, 'cursor')
  assert.equal(teams.replace('t', 'a', { ...state, prompt: 'r' }).prompt, 'r')
})

test('recordSpawn and sessionFromConfig refuse a misspelt or badly typed config member', () => {
  const store = new MemoryStore()
  const teams = new TeamStore(store)
  refusesField(() => teams.recordSpawn('t', { name: 'a', prompt: 'p', modl: 'x' }, 'codex'), 'config.modl', 'modl')
  refusesField(() => teams.recordSpawn('t', { name: 'a', prompt: 'p', maxTurns: 'ten' }, 'codex'), 'config.maxTurns', 'maxTurns')
  refusesField(() => sessionFromConfig({ name: 'a', prompt: 'p', backendType: 'codex' }, 'codex'), 'config.backendType', 'backendType')
  refusesField(() => sessionFromConfig({ name: 'a', prompt: 'p', memoryConfig: { max_turns: -1, budget_chars: 1 } }, 'codex'), 'config.memoryConfig.max_turns', 'negative')
  assert.deepEqual(store.list('teams'), [], 'nothing written')
})

test('mergeMetadata sets and removes the entries given and keeps the others, across processes', async () => {
  const root = tempDir()
  const teams = new TeamStore(new FileStore(root))
  teams.recordSpawn('t', { name: 'a', prompt: 'p' }, 'codex')
  teams.mergeMetadata('t', 'a', { thread: 'x', run: '1' })
  assert.deepEqual(teams.mergeMetadata('t', 'a', { run: null, pr: '7' }).metadata, { thread: 'x', pr: '7' })
  throwsCode(() => teams.mergeMetadata('t', 'a', { run: 1 }), 'invalid_input', 'a number')
  throwsCode(() => teams.mergeMetadata('t', 'a', 'run'), 'invalid_input', 'not an object')
  throwsCode(() => teams.mergeMetadata('t', 'nobody', { x: '1' }), 'not_found')
  assert.deepEqual(teams.load('t', 'a').metadata, { thread: 'x', pr: '7' })
  // Four processes writing their own entries at once: none lost.
  const { spawn } = await import('node:child_process')
  const script = `
    const { TeamStore, FileStore } = require(${JSON.stringify(join(import.meta.dirname, '..', 'index.js'))})
    const teams = new TeamStore(new FileStore(process.argv[1]))
    for (let i = 0; i < 20; i++) teams.mergeMetadata('t', 'a', { [process.argv[2] + '-' + i]: '1' })`
  const codes = await Promise.all(
    [0, 1, 2, 3].map(
      (n) =>
        new Promise((done) =>
          spawn(process.execPath, ['-e', script, root, `w${n}`], { stdio: 'inherit' }).on('exit', done),
        ),
    ),
  )
  assert.deepEqual(codes, [0, 0, 0, 0])
  assert.equal(Object.keys(teams.load('t', 'a').metadata).length, 2 + 80)
})
