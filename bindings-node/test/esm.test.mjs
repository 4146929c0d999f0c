// The package works from ES modules: the README's own `import { ... } from 'session-state'`
// statement runs (Node's ESM loader sees only the names `index.js` assigns explicitly), and
// every name the CommonJS module has is a named ESM export too.
import test from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ss, tempDir } from './helpers.mjs'

const PACKAGE = fileURLToPath(new URL('../', import.meta.url))
const README = readFileSync(join(PACKAGE, 'README.md'), 'utf8')

/** A folder where `import ... from 'session-state'` resolves to this package. */
function project() {
  const root = tempDir('session-state-esm-')
  mkdirSync(join(root, 'node_modules'))
  symlinkSync(PACKAGE, join(root, 'node_modules', 'session-state'), 'dir')
  return root
}

/** Runs `source` as an ES module inside `root`; its stdout parsed as JSON. */
function runModule(root, source) {
  const file = join(root, 'main.mjs')
  writeFileSync(file, source)
  return JSON.parse(execFileSync(process.execPath, [file], { cwd: root, encoding: 'utf8' }))
}

/** The names inside `{ ... }` of a destructuring or import statement. */
function names(list) {
  return list.split(',').map((name) => name.trim()).filter(Boolean)
}

test("the README's ESM import statement works, and imports what its require does", () => {
  const statement = README.match(/^import \{[^}]*\} from 'session-state'$/m)
  assert.ok(statement, "README.md has an `import { ... } from 'session-state'` line")
  const imported = names(statement[0].match(/\{([^}]*)\}/)[1])
  const required = names(README.match(/const \{([^}]*)\} = require\('session-state'\)/)[1])
  assert.deepEqual(imported, required, 'the README imports the same names both ways')
  assert.ok(imported.includes('ERROR_CODES'))
  const types = runModule(
    project(),
    `${statement[0]}\nconsole.log(JSON.stringify({ ${imported.map((n) => `${n}: typeof ${n}`).join(', ')} }))\n`,
  )
  for (const name of imported) {
    assert.equal(types[name], typeof ss[name], `${name} imported from ESM`)
    assert.notEqual(types[name], 'undefined', name)
  }
})

test('every export of the CommonJS module is a named ESM export', () => {
  const exported = Object.keys(ss).filter((name) => !name.startsWith('__'))
  assert.ok(exported.includes('ERROR_CODES'))
  const seen = runModule(
    project(),
    "import * as ss from 'session-state'\n" +
      'console.log(JSON.stringify(Object.fromEntries(Object.keys(ss).map((n) => [n, typeof ss[n]]))))\n',
  )
  for (const name of exported) {
    assert.equal(seen[name], typeof ss[name], `named ESM export ${name}`)
  }
  const codes = runModule(project(), "import { ERROR_CODES } from 'session-state'\nconsole.log(JSON.stringify(ERROR_CODES))\n")
  assert.deepEqual(codes, ss.ERROR_CODES)
})
