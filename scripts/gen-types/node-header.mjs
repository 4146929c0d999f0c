// Prints the header of bindings-node/index.d.ts: bindings-node/types-header.d.ts, then the
// shared declarations of bindings-shared/types.d.ts without their `ErrorCode` union (napi
// declares it from the Rust enum behind `ERROR_CODES`, which test/errors.test.mjs checks
// against the core's codes).
import { readFileSync } from 'node:fs'

const read = (path) => readFileSync(new URL(path, import.meta.url), 'utf8')
const shared = read('../../bindings-shared/types.d.ts')
const union = /\/\*\*\n(?: \*[^\n]*\n)* \*\/\nexport type ErrorCode =[^;]*;\n/
if (!union.test(shared)) throw new Error('gen-types: no `ErrorCode` union in bindings-shared/types.d.ts')
process.stdout.write(read('../../bindings-node/types-header.d.ts') + shared.replace(union, ''))
