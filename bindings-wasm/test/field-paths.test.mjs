// The wasm build reads documents without serde_path_to_error (core feature `path-errors` off):
// a document with one bad field must still name it, as the native builds do.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { thrown, wasm } from "./helpers.mjs";

const seed = () =>
  JSON.parse(readFileSync(new URL("../../tests/vectors/orchestrator/seed-example.json", import.meta.url), "utf8"));

test("a document with one bad field names it (message and context.field)", () => {
  const cases = [
    ["goal", (d) => (d.goal = 5)],
    [".", (d) => delete d.goal],
    ["project.name", (d) => (d.project.name = [1])],
    ["agents[0]", (d) => delete d.agents[0].started],
    ["agents[0].progress", (d) => (d.agents[0].progress = 300)],
    ["context_usage.estimated_tokens", (d) => (d.context_usage.estimated_tokens = "many")],
  ];
  for (const [path, spoil] of cases) {
    const doc = seed();
    spoil(doc);
    const err = thrown(() => wasm.resumeSummary(doc, "2025-12-27T12:30:00Z"));
    assert.equal(err.code, "corrupt_state", err.message);
    assert.equal(err.context.field, path, err.message);
    assert.ok(err.message.includes(`field \`${path}\`: `), err.message);
  }
});
