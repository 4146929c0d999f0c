// Type check of index.d.ts (`npx tsc -p .`): the lines below must compile, and every line
// after `@ts-expect-error` must stay a type error (tsc fails if one stops being an error).
import {
  ERROR_CODES,
  FileStore,
  MemoryStore,
  testingDocumentRoundTrip,
  testingStoreCall,
  type ErrorCode,
  type HostStore,
  type SessionStateError,
  type Store,
} from '../index.js'

// The union lists exactly these codes: adding or removing a code in the core without
// updating this list fails here (and test/errors.test.mjs compares the union with
// ERROR_CODES at run time).
const codes = [
  'not_found',
  'invalid_key',
  'corrupt_state',
  'incompatible_schema',
  'invalid_transition',
  'conflict',
  'already_exists',
  'invalid_input',
  'storage',
] as const
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameCodes: Same<(typeof codes)[number], ErrorCode> = true
const exported: ErrorCode[] = ERROR_CODES

const file = new FileStore('/tmp/session-state-types', { durable: true })
const memory = new MemoryStore()
const root: string = file.root
const durable: boolean = file.durable
const size: number = memory.size
const bytes: Buffer | null = file.read('a/b.json')
file.write('a/b.json', Buffer.from('{}'))
memory.write('a/b.json', new Uint8Array([1]))
const existed: boolean = memory.delete('a/b.json')
const keys: string[] = memory.list('a')

const host: HostStore = {
  read: (key) => (key === 'x' ? 'text' : null),
  write: (_key, _data) => {},
  delete: () => false,
  list: () => [],
}
const stores: Store[] = [file, memory, host]
testingStoreCall(host, 'read', 'x')
const doc: Record<string, unknown> = testingDocumentRoundTrip({ schema_version: '1.0' })

function codeOf(err: unknown): ErrorCode | undefined {
  return err instanceof Error ? (err as SessionStateError).code : undefined
}

// @ts-expect-error the root is a string
new FileStore(3)
// @ts-expect-error the root is required
new FileStore()
// @ts-expect-error unknown option
new FileStore('/tmp/x', { durability: 'sync' })
// @ts-expect-error keys are strings
memory.read(1)
// @ts-expect-error data is bytes, not a string
memory.write('k', 'text')
// @ts-expect-error read gives a Buffer or null, never a string
const text: string = memory.read('k')
// @ts-expect-error not a code of the core
const badCode: ErrorCode = 'not_a_code'
// @ts-expect-error a host store needs all four methods
const partial: HostStore = { read: () => null, write: () => {}, delete: () => true }
// @ts-expect-error a number is not a store
testingStoreCall(3, 'read', 'k')
// @ts-expect-error a document is an object
testingDocumentRoundTrip('{}')
// @ts-expect-error unknown operation
testingStoreCall(memory, 'explode', 'k')

export { sameCodes, exported, root, durable, size, bytes, existed, keys, stores, doc, codeOf, text, badCode, partial }
