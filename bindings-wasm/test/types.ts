// Checked by `tsc --noEmit -p tsconfig.json` (npm run test:types): the generated declarations
// name real types, and misuse is a type error (each `@ts-expect-error` must catch one).
import init, {
  AgentRegistry,
  ERROR_CODES,
  OrchestratorStore,
  TeamStore,
  renderResume,
  resumeSummary,
  salvage,
  jsonSchema,
  parseBackendType,
  runStoreConformance,
  sessionFromConfig,
  storeConformanceCases,
  toSpawnConfig,
  type AgentEntry,
  type BackendType,
  type ChainDefinition,
  type ConformanceReport,
  type SessionsDocument,
  type SpawnConfig,
  type TranscriptLine,
  type RegistryRepair,
  type DoctorReport,
  type HistoryPage,
  type OrchestratorSession,
  type ResumeDecision,
  type ResumePlan,
  type ResumeSummary,
  type Salvaged,
  type ClaimOutcome,
  type HeartbeatOutcome,
  type HistoryTree,
  type Lease,
  type LiveStatus,
  type PrunePlan,
  type ReleaseOutcome,
  type SessionState,
  LocalStorageStore,
  MemoryStore,
  copyStore,
  errorCodes,
  type ErrorCode,
  type HostStore,
  type SessionStateError,
  type Store,
  type WebStorage,
} from "../pkg-web/session_state_wasm.js";
import type * as NodeBuild from "../pkg-node/session_state_wasm.js";

export async function usage(): Promise<void> {
  await init();
  const mem = new MemoryStore();
  mem.write(".claude/orchestrator-session.json", "{}");
  mem.write("blob", new Uint8Array([1]));
  const bytes: Uint8Array | null = mem.read("blob");
  const text: string | null = mem.readText(".claude/orchestrator-session.json");
  const keys: string[] = mem.list(".claude");
  const existed: boolean = mem.delete("blob");
  const size: number = mem.size;

  const local = new LocalStorageStore("app/");
  const session = new LocalStorageStore("app/", window.sessionStorage);
  const prefix: string = local.prefix;

  const host: HostStore = {
    read: (key) => (key === "a" ? "{}" : null),
    write: (_key, data) => void data.byteLength,
    delete: () => true,
    list: () => [],
  };
  const stores: Store[] = [mem, local, session, host];
  const copied: number = copyStore(stores[0], stores[3], ".claude");

  const codes: readonly ErrorCode[] = ERROR_CODES;
  const listed: ErrorCode[] = errorCodes();
  try {
    mem.read("../x");
  } catch (e) {
    const err = e as SessionStateError;
    const code: ErrorCode = err.code;
    const key: string | undefined = err.context.key;
    if (code === "corrupt_state") void err.salvaged;
    void key;
  }
  void [bytes, text, keys, existed, size, prefix, copied, codes, listed];

  // @ts-expect-error: an unknown error code is not an ErrorCode
  const wrong: ErrorCode = "disk_full";
  // @ts-expect-error: keys are strings
  mem.read(42);
  // @ts-expect-error: data is a string or a Uint8Array
  mem.write("k", 42);
  // @ts-expect-error: ERROR_CODES is read-only
  ERROR_CODES.push("storage");
  // @ts-expect-error: size is read-only
  mem.size = 3;
  // @ts-expect-error: a host store needs all four methods
  const partial: HostStore = { read: () => null, write: () => {}, delete: () => true };
  // @ts-expect-error: a number is not a store
  copyStore(1, mem, "a");
  // @ts-expect-error: read must return bytes, a string or nothing
  const badHost: HostStore = { read: () => 1, write: () => {}, delete: () => true, list: () => [] };
  // @ts-expect-error: the storage must be a Web Storage
  new LocalStorageStore("p/", {});
  const storage: WebStorage = window.localStorage;
  void [wrong, partial, badHost, storage];
}

// The Node build declares the same classes.
export function nodeUsage(node: typeof NodeBuild): ErrorCode[] {
  const store: NodeBuild.MemoryStore = new node.MemoryStore();
  store.write("k", "v");
  return node.errorCodes();
}

// The orchestrator, registry and team classes name their shapes.
export function classes(store: Store): void {
  const sessions = new OrchestratorStore(store);
  const tuned = new OrchestratorStore(store, { maxDocumentBytes: 1 << 20, naiveOffsetMinutes: 60 });
  const doc: OrchestratorSession | null = sessions.load();
  const made: OrchestratorSession = sessions.recordNew({ goal: "goal", mode: "default" }, { name: "p", path: "/p" });
  const saved: OrchestratorSession = sessions.save(made);
  const progress: number | undefined = saved.agents[0]?.progress;
  const key: string = sessions.archive(saved, { replace: true });
  const page: HistoryPage = sessions.listHistory({ limit: 5, status: "complete" });
  const report: DoctorReport = tuned.doctor({ fix: true });
  const summary: ResumeSummary = resumeSummary(saved, new Date());
  const percent: number = resumeSummary(saved).progress_percent;
  const stale: ResumeSummary = resumeSummary(saved, undefined, { stale_after_hours: 2, git_head: { commit: "c", branch: null } });
  const markdown: string = renderResume(summary);
  const rescued: Salvaged = salvage("{");
  sessions.recover();
  void [doc, progress, key, page, report, percent, stale, markdown, rescued];

  const registry = new AgentRegistry(store);
  registry.register("spec", "id-1", { ok: true });
  const resume: boolean = registry.shouldResume("spec", "task");
  const decision: ResumeDecision = registry.decideResume("spec", "a", "b", { policy: "explained", threshold: 0.5 });
  const id: string | null = registry.resumeId("spec");
  const rows: AgentEntry[] = registry.agents();
  void [resume, decision, id, rows];

  const teams = new TeamStore(store);
  const state: SessionState = teams.recordSpawn("t", { name: "coder", prompt: "p" }, "codex");
  const plan: ResumePlan = teams.resumePlan("t");
  const first = plan.members[0];
  if (first?.action === "respawn") void first.config.name;
  void [state, teams.save("t", state)];

  // The Node package's methods and free functions.
  const current: string = sessions.currentKey;
  const started: OrchestratorSession = sessions.recordAgentStart({ id: "a", type: "code", task: "t" });
  const [afterTask, taskText]: [OrchestratorSession, string] = sessions.recordTaskDone({ task: "t", outcome: "ok" });
  void [afterTask, taskText, sessions.recordContext({ tokens: 1 }), sessions.recordSave()];
  const fromDoc: string = renderResume(started);
  const schema: Record<string, unknown> = jsonSchema();
  const journaled = new AgentRegistry(store, { journal: { minCompactBytes: 1024 } });
  const chains: string[] = journaled.chainIds();
  const transcriptKey: string | null = journaled.exportTranscript("id-1");
  const transcript: TranscriptLine[] | null = journaled.readTranscript("id-1");
  const registryDoc: SessionsDocument = journaled.load();
  const definitions: Record<string, ChainDefinition> = journaled.loadChains();
  journaled.compact();
  journaled.close();
  const kept: RegistryRepair[] = journaled.repair();
  const changed: SessionState = teams.update("t", "coder", { model: "m", metadata: { k: "v" } });
  const replaced: SessionState = teams.replace("t", "coder", changed);
  const fresh: SessionState = sessionFromConfig({ name: "a", prompt: "p" }, "codex", new Date());
  const config: SpawnConfig = toSpawnConfig(fresh);
  const backend: BackendType = parseBackendType("codex");
  const conformance: ConformanceReport = runStoreConformance(store, "scratch");
  const caseNames: string[] = storeConformanceCases();
  void [current, fromDoc, schema, chains, transcriptKey, transcript, registryDoc, definitions, kept];
  void [replaced, config, backend, conformance, caseNames];

  // Ownership, fork and retention (issues #20, #21).
  const claimed: ClaimOutcome = sessions.claim({ owner: "a", lease_seconds: 60 });
  const renewed: Lease = sessions.renew("a", 120);
  const beat: HeartbeatOutcome = sessions.heartbeat({ owner: "a" });
  const lease: Lease | null = sessions.lease();
  const live: LiveStatus[] = sessions.liveSessions();
  const released: ReleaseOutcome = sessions.release({ owner: "a" });
  sessions.setWriter({ owner: "a", epoch: 1 });
  sessions.setWriter(null);
  const forked: OrchestratorSession = sessions.fork({ new_id: "2025-12-27-abcdef" });
  const tree: HistoryTree = sessions.historyTree();
  const pruned: PrunePlan = sessions.pruneHistory({ keep: 5, status: "complete" });
  const prunedAgents: PrunePlan = registry.prune({ older_than_days: 30, apply: true });
  const prunedMembers: PrunePlan = teams.prune("t", { older_than_days: 30 });
  void [claimed, renewed, beat, lease, live, released, forked, tree, pruned, prunedAgents, prunedMembers];
  // @ts-expect-error: a claim names its owner
  sessions.claim({ lease_seconds: 60 });

  // @ts-expect-error: recordNew takes a NewSession object, not positional arguments
  sessions.recordNew("goal", "default", { name: "p", path: "/p" });
  // @ts-expect-error: recordNew needs a project
  sessions.recordNew({ goal: "g" });
  // @ts-expect-error: the journal option is a boolean or { minCompactBytes }
  new AgentRegistry(store, { journal: "yes" });
  // @ts-expect-error: currentKey is read-only
  sessions.currentKey = "x";
  // @ts-expect-error: an unknown status is not a SessionStatus
  sessions.listHistory({ status: "sleeping" });
  // @ts-expect-error: unknown options are refused
  new OrchestratorStore(store, { maxBytes: 1 });
  // @ts-expect-error: the policy is compat or explained
  registry.decideResume("a", "b", "c", { policy: "magic" });
  // @ts-expect-error: an unknown backend is not a BackendType
  teams.recordSpawn("t", { name: "x", prompt: "p" }, "cobol");
  // @ts-expect-error: a summary needs a document
  resumeSummary(42);
}
