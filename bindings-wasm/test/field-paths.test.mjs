// A document with one bad field names its path (message and context.field), as the native
// builds do.
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
    ["agents[0].progress", (d) => (d.agents[0].progress = "half")],
    ["context_usage.estimated_tokens", (d) => (d.context_usage.estimated_tokens = "many")],
  ];
  for (const [path, spoil] of cases) {
    const doc = seed();
    spoil(doc);
    // A stored file: corrupt_state naming the field.
    const store = new wasm.MemoryStore();
    store.write(".claude/orchestrator-session.json", JSON.stringify(doc));
    const err = thrown(() => new wasm.OrchestratorStore(store).load());
    assert.equal(err.code, "corrupt_state", err.message);
    assert.equal(err.context.field, path, err.message);
    assert.ok(err.message.includes(`field \`${path}\`: `), err.message);
    // An argument: invalid_input naming the argument and the field (the core's
    // `parse_argument`, as the Node package); a missing member is named itself.
    const arg = thrown(() => wasm.resumeSummary(doc, "2025-12-27T12:30:00Z"));
    assert.equal(arg.code, "invalid_input", arg.message);
    assert.ok(arg.message.startsWith("`doc` is not an orchestrator session: "), arg.message);
    if (path === ".") {
      assert.equal(arg.context.field, "goal", arg.message);
      assert.ok(arg.message.endsWith("field `goal` is missing"), arg.message);
    } else {
      assert.equal(arg.context.field, path, arg.message);
      assert.ok(arg.message.includes(`field \`${path}\`: `), arg.message);
    }
  }
});
