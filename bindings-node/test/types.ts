// Type check of index.d.ts (`npx tsc -p .`): the lines below must compile, and every line
// after `@ts-expect-error` must stay a type error (tsc fails if one stops being an error).
import {
  AgentRegistry,
  ERROR_CODES,
  FileStore,
  MemoryStore,
  OrchestratorStore,
  RedisStore,
  TeamStore,
  jsonSchema,
  parseBackendType,
  renderResume,
  resumeSummary,
  runStoreConformance,
  salvage,
  sessionFromConfig,
  toSpawnConfig,
  type AgentEntry,
  type BackendType,
  type ClaimOutcome,
  type ConformanceReport,
  type ErrorCode,
  type HistoryPage,
  type HistoryTree,
  type Lease,
  type LiveStatus,
  type HostStore,
  type OrchestratorSession,
  type PrunePlan,
  type RegistryRepair,
  type ResumeDecision,
  type ResumePlan,
  type ResumeSummary,
  type SessionState,
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
const redis = new RedisStore('redis://127.0.0.1:6379/0?prefix=types')
const server: string = redis.server
const prefix: string = redis.prefix
const pinged: void = redis.ping()
const redisBytes: Buffer | null = redis.read('a/b.json')
const stores: Store[] = [file, memory, redis, host]
const doc: Record<string, unknown> = new AgentRegistry(host).load()

function codeOf(err: unknown): ErrorCode | undefined {
  return err instanceof Error ? (err as SessionStateError).code : undefined
}

// @ts-expect-error the URL is a string
new RedisStore(6379)
// @ts-expect-error the URL is required
new RedisStore()
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
// @ts-expect-error host store methods are synchronous: an async delete is not a store
new TeamStore({ read: () => null, write: () => {}, delete: async () => true, list: () => [] })
// @ts-expect-error host store methods are synchronous: an async list is not a store
new TeamStore({ read: () => null, write: () => {}, delete: () => true, list: async () => [] })
// @ts-expect-error a number is not a store
new TeamStore(3)
// @ts-expect-error a team state is an object
new TeamStore(memory).save('team', '{}')
// @ts-expect-error an object missing `list` is not a store
new AgentRegistry({ read: () => null, write: () => {}, delete: () => true })

// ---------------------------------------------------------------- the classes
const sessions = new OrchestratorStore(file, { naiveOffsetMinutes: 60, maxDocumentBytes: 1 << 20 })
const current: OrchestratorSession | null = sessions.load()
const created: OrchestratorSession = sessions.recordNew({ goal: 'g' }, { name: 'p', path: '/p' }, 'abc')
const saved: OrchestratorSession = sessions.save(created)
const archivedKey: string = sessions.archive(saved, { replace: true })
const page: HistoryPage = sessions.listHistory({ limit: 5, offset: 0, status: 'complete' })
const moved: OrchestratorSession[] = [sessions.start(), sessions.pause(), sessions.resume(), sessions.complete(), sessions.abort()]
sessions.recordAgentStart({ id: 'a', type: 'code', task: 't' })
sessions.recordAgentProgress({ id: 'a', percent: 50 })
sessions.recordAgentDone({ id: 'a', summary: 'done' })
sessions.recordAgentFail({ id: 'a', error: 'boom' })
sessions.recordDecision({ decision: 'd', why: 'r' })
sessions.recordTaskAdd({ task: 't' })
const [afterTask, taskText]: [OrchestratorSession, string] = sessions.recordTaskDone({ task: 1, outcome: 'ok' })
const context: OrchestratorSession = sessions.recordContext({ tokens: 10, percent: 1.5, compressed: true })
sessions.recordNew({ goal: 'g', archive_current: true }, { name: 'p', path: '/p' })
void [afterTask, taskText, context, sessions.recordSave()]
sessions.beforeCompression()
sessions.sessionEnd()
const problems: number = sessions.doctor({ fix: true }).problems.length
const repaired: string | undefined = sessions.recover()?.kept_copy
sessions.rebuildIndex()
const summary: ResumeSummary = resumeSummary(saved, new Date())
const staleSummary: ResumeSummary = resumeSummary(saved, null, { stale_after_hours: 1, git_head: { commit: 'c', branch: null } })
const claimed: ClaimOutcome = sessions.claim({ owner: 'a', lease_seconds: 60, takeover: true })
const claimEpoch: number | undefined = claimed.lease?.epoch
const renewedLease: Lease = sessions.renew('a', 120)
const releasedLease: Lease | null | undefined = sessions.release({ owner: 'a' }).lease
const beatRenewed: boolean = sessions.heartbeat({ owner: 'a', ttl_seconds: 60 }).renewed
const leaseNow: Lease | null = sessions.lease()
const live: LiveStatus[] = sessions.liveSessions()
sessions.setWriter({ owner: 'a', epoch: 1 })
sessions.setWriter(null)
const writerOwner: string | undefined = sessions.writer?.owner
const forkedDoc: OrchestratorSession = sessions.fork({ new_id: 'x', archive_current: true })
const tree: HistoryTree = sessions.historyTree()
const historyPlan: PrunePlan = sessions.pruneHistory({ keep: 3, status: 'complete', apply: true })
const markdown: string = renderResume(summary) + renderResume(saved)
const salvagedDoc: Record<string, unknown> = salvage(Buffer.from('{')).document
const schema: Record<string, unknown> = jsonSchema()

const registry = new AgentRegistry(memory, { journal: { minCompactBytes: 1024 } })
registry.register('spec-builder', 'spec-1', { status: 'success' }, 'SPEC-1')
const resumeId: string | null = registry.resumeId('spec-builder', 'SPEC-1')
const resume: boolean = registry.shouldResume('spec-builder', 'task', 'previous')
const decision: ResumeDecision = registry.decideResume('spec-builder', 'task', undefined, { policy: 'explained', threshold: 0.4 })
const reason: 'related' | 'unrelated' | 'unknown_agent' | 'no_previous_task' | 'resume_cap_reached' = decision.reason
const rows: AgentEntry[] = registry.agents()
const transcriptKey: string | null = registry.exportTranscript('spec-1')
const chainDone: string[] = registry.chainStatus('SPEC-1').done
registry.createChain('SPEC-2', ['a', 'b'], { any: 'metadata' })
const incremented: boolean = registry.incrementResumeCount('spec-1')
registry.close()
const keptCopies: string[] = registry.repair().map((r: RegistryRepair) => r.kept_copy)
const registryPlan: PrunePlan = registry.prune({ older_than_days: 30, keep_agent_ids: ['a'] })

const teams = new TeamStore(host)
const spawned: SessionState = teams.recordSpawn('team', { name: 'coder', prompt: 'p', memoryConfig: { max_turns: 5, budget_chars: 4000 } }, 'codex')
const teamKey: string = teams.save('team', spawned)
const updated: SessionState = teams.update('team', 'coder', { metadata: { thread: 't' } })
const replacedState: SessionState = teams.replace('team', 'coder', updated)
const plan: ResumePlan = teams.resumePlan('team')
const firstAction: 'respawn' | 'skip' | undefined = plan.members[0]?.action
const backend: BackendType = parseBackendType('codex')
const fresh: SessionState = sessionFromConfig({ name: 'a', prompt: 'p' }, 'gemini-cli', '2026-01-01T00:00:00Z')
const model: string | undefined = toSpawnConfig(fresh).model
const report: ConformanceReport = runStoreConformance(host, 'scratch')
const teamPlan: PrunePlan = teams.prune('team', { older_than_days: 30, apply: false })

// @ts-expect-error a store is required
new OrchestratorStore()
// @ts-expect-error a string is not a store
new AgentRegistry('/tmp/project')
// @ts-expect-error unknown option
new OrchestratorStore(memory, { naiveOffset: 60 })
// @ts-expect-error documents are objects, not JSON strings
sessions.save('{"schema_version": "1.0"}')
// @ts-expect-error save gives the document, not a key
const savedKey: string = sessions.save(created)
// @ts-expect-error not a session status
sessions.listHistory({ status: 'sleeping' })
// @ts-expect-error a project is required
sessions.recordNew({ goal: 'g' })
// @ts-expect-error progress is a number
sessions.recordAgentProgress({ id: 'a', percent: '50' })
// @ts-expect-error replace is a boolean option, not a positional flag
sessions.archive(saved, true)
// @ts-expect-error the agent id is a string
registry.register('name', 42, {})
// @ts-expect-error shouldResume answers a boolean
const notADecision: ResumeDecision = registry.shouldResume('a', 'b')
// @ts-expect-error not a policy
registry.decideResume('a', 'b', 'c', { policy: 'psychic' })
// @ts-expect-error journal is a boolean or settings
new AgentRegistry(memory, { journal: 'on' })
// @ts-expect-error misspelt option
new AgentRegistry(memory, { jurnal: true })
// @ts-expect-error misspelt journal setting
new AgentRegistry(memory, { journal: { minCompact: 1 } })
// @ts-expect-error misspelt query member
sessions.listHistory({ limt: 1 })
// @ts-expect-error misspelt option
sessions.doctor({ fixx: true })
// @ts-expect-error a claim names its owner
sessions.claim({ lease_seconds: 60 })
// @ts-expect-error a lease length is a number
sessions.renew('a', '60')
// @ts-expect-error a registry prune needs older_than_days
registry.prune({ apply: true })
// @ts-expect-error not a session status
sessions.pruneHistory({ status: 'sleeping' })
// @ts-expect-error misspelt option
sessions.complete({ replce: true })
// @ts-expect-error durable is a boolean
new FileStore('/tmp/x', { durable: 'yes' })
// @ts-expect-error repair gives one report per file repaired, not one key
const oneCopy: string | null = registry.repair()
// @ts-expect-error createChain takes an array of names
registry.createChain('c', 'a,b')
// @ts-expect-error not a backend
teams.recordSpawn('team', { name: 'a', prompt: 'p' }, 'gpt')
// @ts-expect-error maxTurns is a number
teams.update('team', 'coder', { maxTurns: 'ten' })
// @ts-expect-error misspelt spawn config member
teams.recordSpawn('team', { name: 'a', prompt: 'p', modl: 'm' }, 'codex')
// @ts-expect-error a spawn config needs a prompt
teams.recordSpawn('team', { name: 'a' }, 'codex')
// @ts-expect-error team state keys are camelCase
const snake: SessionState = { name: 'a', backend_type: 'codex', prompt: 'p', created_at: '' }
// @ts-expect-error the conformance suite runs on a store
runStoreConformance('memory')

export { sameCodes, exported, root, durable, size, bytes, existed, keys, server, prefix, pinged, redisBytes,
  stores, doc, codeOf, text, badCode, partial,
  current, archivedKey, page, moved, problems, repaired, markdown, salvagedDoc, schema,
  resumeId, resume, reason, rows, transcriptKey, chainDone, incremented, teamKey, updated,
  firstAction, replacedState, backend, model, report, savedKey, notADecision, snake, keptCopies, oneCopy,
  staleSummary, claimEpoch, renewedLease, releasedLease, beatRenewed, leaseNow, live, writerOwner, forkedDoc, tree,
  historyPlan, registryPlan, teamPlan }
