// resumeSummary's third argument, the core's ResumeOptions (issue #21): `stale` says how long
// ago the session was saved past `stale_after_hours` and whether the project's HEAD moved
// since the HEAD recorded in the document (`project.git_head`; the browser never reads one).
import assert from "node:assert/strict";
import { test } from "node:test";

import { thrown, wasm } from "./helpers.mjs";

const { resumeSummary } = wasm;
const doc = {
  schema_version: "1.0",
  session_id: "2025-12-20-aaaaaa",
  created: "2025-12-20T10:00:00Z",
  updated: "2025-12-20T11:00:00Z",
  project: { name: "p", path: "/p", git_head: { commit: "1111111aaaa", branch: "main" } },
  goal: "g",
  mode: "default",
  status: "in_progress",
  agents: [],
  completed_work: [],
  pending_tasks: [],
  decisions_made: [],
  context_usage: { estimated_tokens: 0, percentage: 0, last_compression: null },
  errors: [],
};
const NOW = "2025-12-20T14:00:00Z";

test("resumeSummary says nothing is stale within the default 24 hours and no HEAD given", () => {
  assert.deepEqual(resumeSummary(doc, NOW).stale ?? {}, {});
  assert.deepEqual(resumeSummary(doc, NOW, {}).stale ?? {}, {});
});

test("stale_after_hours and git_head: idle past the limit, the HEAD moved", () => {
  const summary = resumeSummary(doc, NOW, { stale_after_hours: 2, git_head: { commit: "2222222bbbb", branch: "main" } });
  assert.equal(summary.stale.idle.limit_hours, 2);
  assert.equal(summary.stale.idle.updated, doc.updated);
  assert.equal(summary.stale.head_moved.commit_changed, true);
  assert.equal(summary.stale.head_moved.branch_changed, false);
  const camel = resumeSummary(doc, NOW, { staleAfterHours: 2 });
  assert.equal(camel.stale.idle.limit_hours, 2);
  assert.equal(thrown(() => resumeSummary(doc, NOW, { stale: 2 })).code, "invalid_input");
});
