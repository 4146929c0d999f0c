// Shared by the tests: the package, the repository's vector folders, temporary folders, and
// an assertion that a call throws a typed error of the package.
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
export const ss = require('../index.js')

/** The repository root. */
export const REPO = fileURLToPath(new URL('../../', import.meta.url))
/** `tests/vectors/` of the repository. */
export const VECTORS = join(REPO, 'tests', 'vectors')

/** A JSON file below `tests/vectors/`. */
export function vector(path) {
  return JSON.parse(readFileSync(join(VECTORS, path), 'utf8'))
}

/** The text of a file below `tests/vectors/`. */
export function vectorText(path) {
  return readFileSync(join(VECTORS, path), 'utf8')
}

/** A new empty temporary folder. */
export function tempDir(name = 'session-state-node-') {
  return mkdtempSync(join(tmpdir(), name))
}

/** Asserts `call` throws an `Error` whose `code` is `code` (and is one of ERROR_CODES). */
export function throwsCode(call, code, what = '') {
  assert.throws(
    call,
    (err) => {
      assert.ok(err instanceof Error, `${what}: not an Error: ${err}`)
      assert.ok(ss.ERROR_CODES.includes(err.code), `${what}: unknown code ${err.code}: ${err.message}`)
      assert.equal(err.code, code, `${what}: ${err.message}`)
      return true
    },
    what,
  )
}
