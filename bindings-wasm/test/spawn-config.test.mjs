// A spawn config member the core's SpawnConfig does not have (a misspelt `modl`) is refused
// with `invalid_input` naming it, as in the Node package, instead of being dropped silently.
import assert from "node:assert/strict";
import { test } from "node:test";

import { thrown, wasm } from "./helpers.mjs";

const { MemoryStore, TeamStore } = wasm;

test("recordSpawn refuses an unknown config member and writes nothing", () => {
  const store = new MemoryStore();
  const teams = new TeamStore(store);
  const err = thrown(() => teams.recordSpawn("t", { name: "c2", prompt: "x", modl: "y" }, "codex"));
  assert.ok(err instanceof Error);
  assert.equal(err.code, "invalid_input", err.message);
  assert.match(err.message, /^`config\.modl` is invalid: unknown field `modl`, expected one of `name`, `prompt`, `model`/);
  assert.equal(err.context.field, "config.modl");
  assert.deepEqual(store.list(".claude"), []);
  assert.deepEqual(teams.list("t").members, []);
});

test("every known member is accepted, and undefined members are dropped as JSON does", () => {
  const teams = new TeamStore(new MemoryStore());
  const config = {
    name: "c2",
    prompt: "x",
    model: "m",
    cwd: "/w",
    maxTurns: 3,
    allowedTools: ["Bash"],
    permissionMode: "plan",
    reasoningEffort: "low",
    env: { K: "v" },
    memoryConfig: { max_turns: 2, budget_chars: 100 },
    delegations: [{ tool: "codex", description: "d" }],
    notSet: undefined,
  };
  const state = teams.recordSpawn("t", config, "codex");
  assert.equal(state.model, "m");
  const plan = teams.resumePlan("t");
  assert.equal(plan.members[0].config.model, "m");
  assert.equal(plan.members[0].config.maxTurns, 3);
});
