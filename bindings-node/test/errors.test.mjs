// Errors: every error is an `Error` whose `code` is a core kind code; the TypeScript union
// `ErrorCode` of index.d.ts (from the shared types.d.ts) lists exactly the core's codes
// (ERROR_CODES comes from the core).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const { ERROR_CODES, FileStore, MemoryStore } = require('../index.js')

/** The string literals of `export type ErrorCode = ...` of the generated declarations: the
 * shared `types.d.ts`, which index.d.ts imports and re-exports. */
function unionInDts() {
  const dts = readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8')
  assert.match(dts, /^import type \{[^}]*\bErrorCode\b[^}]*\} from '\.\/types'$/m)
  assert.match(dts, /^export \* from '\.\/types'$/m)
  const types = readFileSync(new URL('../types.d.ts', import.meta.url), 'utf8')
  const match = types.match(/export type ErrorCode =([^;]*);/)
  assert.ok(match, 'types.d.ts declares `export type ErrorCode`')
  return [...match[1].matchAll(/"([^"]*)"/g)].map((m) => m[1])
}

test('the ErrorCode union of index.d.ts is the list of core codes', () => {
  assert.ok(Array.isArray(ERROR_CODES))
  assert.ok(ERROR_CODES.length > 0)
  assert.deepEqual(unionInDts(), ERROR_CODES)
})

test('core codes are unique snake_case strings', () => {
  assert.equal(new Set(ERROR_CODES).size, ERROR_CODES.length)
  for (const code of ERROR_CODES) assert.match(code, /^[a-z]+(_[a-z]+)*$/)
})

test('an unsafe key is an Error with code invalid_key and a lowercase message', () => {
  const store = new MemoryStore()
  for (const key of ['../x', '/abs', 'a//b', 'a/./b', 'x\u0000y', '', 'a\\b']) {
    assert.throws(
      () => store.read(key),
      (err) => {
        assert.ok(err instanceof Error)
        assert.equal(err.code, 'invalid_key')
        assert.ok(ERROR_CODES.includes(err.code))
        assert.match(err.message, /^[a-z`]/)
        assert.doesNotMatch(err.message, /\.$/)
        return true
      },
      `key ${JSON.stringify(key)}`,
    )
  }
})

test('a storage error carries its context as a plain object', () => {
  const dir = mkdtempSync(join(tmpdir(), 'session-state-errors-'))
  const file = join(dir, 'not-a-folder')
  writeFileSync(file, 'x')
  assert.throws(
    () => new FileStore(file),
    (err) => {
      assert.ok(err instanceof Error)
      assert.equal(err.code, 'storage')
      assert.equal(typeof err.context, 'object')
      assert.equal(err.context.path, file)
      assert.ok(err.message.includes(`\`${file}\``), err.message)
      return true
    },
  )
})

test('a wrong argument type is invalid_input, not a napi conversion error', () => {
  const store = new MemoryStore()
  const cases = [
    () => store.read(3),
    () => store.read(undefined),
    () => store.read(),
    () => store.write('k', 'not bytes'),
    () => store.write('k'),
    () => store.list(null),
    () => new FileStore(3),
    () => new FileStore(),
    () => new FileStore(''),
    () => new FileStore('/tmp/a\u0000b'),
  ]
  for (const [i, call] of cases.entries()) {
    assert.throws(call, (err) => err instanceof Error && err.code === 'invalid_input', `case ${i}`)
  }
})
