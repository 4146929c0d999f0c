// The TypeScript declarations of the package's own argument types, its store interfaces and
// its error, added to the generated .d.ts (lib.rs); the document and result types come from
// the core (bindings-shared/types.d.ts).

/**
 * What every method throws: a JS `Error` with a stable `code`, the error's context pairs
 * (e.g. `{ key: ".claude/orchestrator-session.json" }`) and, for `corrupt_state`, what could be
 * salvaged from the document. An exception thrown by a host store is not wrapped: it reaches
 * the caller unchanged.
 */
export interface SessionStateError extends Error {
  code: ErrorCode;
  /**
   * What the caller may do (`replace`: pass `{ replace: true }`; `takeover`: claim with
   * `{ takeover: true }`), when the core knows.
   */
  hint?: "replace" | "archive_current" | "repair" | "raise_limit" | "takeover";
  context: Record<string, string>;
  salvaged?: unknown;
  cause?: unknown;
}

/** `listHistory` options. */
export interface HistoryQuery { limit?: number; offset?: number; status?: SessionStatus | null }

/** The options of `new OrchestratorStore(store, options)` (the Node package's name). */
export type OrchestratorOptions = OrchestratorStoreOptions;

/** `new OrchestratorStore(store, options)`. */
export interface OrchestratorStoreOptions {
  /** Largest document accepted, in bytes (default 16 MiB). */
  maxDocumentBytes?: number;
  /** Read naive timestamps as local time at this offset from UTC, in minutes (default: UTC). */
  naiveOffsetMinutes?: number;
}

/** `new AgentRegistry(store, options)`. */
export interface AgentRegistryOptions {
  /** Append registrations to a journal (`true`, or the compaction trigger); default `false`. */
  journal?: boolean | { minCompactBytes: number };
  /** Largest file read, in bytes (default 16 MiB). */
  maxDocumentBytes?: number;
}

/** `new TeamStore(store, options)`. */
export interface TeamStoreOptions {
  /** Largest session file read, in bytes (default 16 MiB). */
  maxDocumentBytes?: number;
}

/** `decideResume` options: the seed's rule (`compat`, default) or the word-based `explained` one. */
export interface ResumePolicyOptions {
  policy?: "compat" | "explained";
  /** Resume cap (default 5). */
  cap?: number;
  /** Minimum score to resume, `explained` only (default 0.3). */
  threshold?: number;
}

/**
 * Any object with these synchronous methods can be a store. Keys are `/`-separated relative
 * keys such as `.claude/orchestrator-session.json`. Exceptions thrown by these methods reach
 * the caller of the session-state method unchanged.
 */
export interface HostStore {
  /** The bytes under `key` (a string is taken as UTF-8), or null/undefined when absent. */
  read(key: string): Uint8Array | string | null | undefined;
  /** Replaces the bytes under `key` atomically. */
  write(key: string, data: Uint8Array): void;
  /** Removes `key`; true if it existed. */
  delete(key: string): boolean;
  /** Every key strictly below the folder `prefix`, at any depth (any order). */
  list(prefix: string): string[];
}

/** What every class accepts as its store. */
export type Store = MemoryStore | LocalStorageStore | HostStore;

/** The part of the Web Storage API (`localStorage`, `sessionStorage`) a LocalStorageStore uses. */
export interface WebStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
