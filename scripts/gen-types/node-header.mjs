// Prints the header of bindings-node/index.d.ts: bindings-node/types-header.d.ts, then the
// import and re-export of the shared declarations (bindings-shared/types.d.ts, which
// `npm run build` copies to bindings-node/types.d.ts), so they are written once.
import { readFileSync } from 'node:fs'

const read = (path) => readFileSync(new URL(path, import.meta.url), 'utf8')
const shared = read('../../bindings-shared/types.d.ts')
const names = [...shared.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1])
if (!names.includes('ErrorCode')) throw new Error('gen-types: no `ErrorCode` in bindings-shared/types.d.ts')
const lines = ['']
for (const name of names) {
  const last = lines.length - 1
  if (`${lines[last]} ${name},`.length > 98) lines.push('')
  lines[lines.length - 1] += ` ${name},`
}
process.stdout.write(
  read('../../bindings-node/types-header.d.ts') +
    '\n// The documents and results, generated from the core (bindings-shared/types.d.ts).\n' +
    `import type {\n${lines.map((l) => ` ${l}`).join('\n')}\n} from './types'\nexport * from './types'\n`,
)
