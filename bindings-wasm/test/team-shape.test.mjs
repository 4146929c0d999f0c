// TeamStore.update / replace and the team free functions (`sessionFromConfig`,
// `toSpawnConfig`, `parseBackendType`) with the Node package's arguments and behaviour.
// Mirrors bindings-node/test/team.test.mjs where it tests the same behaviour: a badly typed
// member or an unknown `backendType` is `invalid_input` naming its path in `context.field`
// (`changes.maxTurns`, `changes.backendType`, `state.backendType`).
import assert from "node:assert/strict";
import { test } from "node:test";

import { thrown, wasm } from "./helpers.mjs";

const { MemoryStore, TeamStore, sessionFromConfig, toSpawnConfig, parseBackendType } = wasm;
const KEY = "teams/my-team/sessions/coder.json";

function refuses(call, says, what = says) {
  const err = thrown(call);
  assert.ok(err instanceof Error, `${what}: not an Error: ${err}`);
  assert.equal(err.code, "invalid_input", `${what}: ${err.message}`);
  assert.ok(err.message.includes(says), `${what}: ${JSON.stringify(err.message)} lacks ${JSON.stringify(says)}`);
  return err;
}

test("recordSpawn, update, replace, as in the Node package", () => {
  const teams = new TeamStore(new MemoryStore());
  const config = { name: "coder", prompt: "You write Rust code.", model: "gpt-5-codex", allowedTools: ["Bash"], memoryConfig: { max_turns: 3, budget_chars: 100 } };
  const spawned = teams.recordSpawn("my-team", config, "codex");
  const updated = teams.update("my-team", "coder", { metadata: { codex_thread_id: "t-1" }, model: null, extra: { kept: true } });
  assert.deepEqual(updated.metadata, { codex_thread_id: "t-1" });
  assert.equal(updated.model, undefined, "null clears an optional field");
  assert.deepEqual(updated.extra, { kept: true }, "unknown keys are kept");
  assert.equal(updated.createdAt, spawned.createdAt);
  assert.deepEqual(teams.load("my-team", "coder"), updated);
  const again = teams.recordSpawn("my-team", config, "codex");
  assert.equal(again.createdAt, spawned.createdAt, "a re-spawn keeps createdAt");
  assert.deepEqual(again.metadata, { codex_thread_id: "t-1" }, "and metadata");
  assert.equal(thrown(() => teams.update("my-team", "coder", { name: "other" })).code, "invalid_input");
  assert.equal(thrown(() => teams.update("my-team", "coder", { allowedTools: null })).code, "invalid_input");
  assert.equal(thrown(() => teams.update("my-team", "nobody", {})).code, "not_found");
  const replaced = teams.replace("my-team", "coder", { ...again, prompt: "New prompt.", metadata: {} });
  assert.equal(replaced.prompt, "New prompt.");
  assert.equal(replaced.metadata, undefined);
  assert.deepEqual(teams.load("my-team", "coder"), replaced);
  assert.equal(thrown(() => teams.replace("my-team", "coder", { ...again, name: "other" })).code, "invalid_input");
  assert.equal(thrown(() => teams.replace("my-team", "ghost", { ...again, name: "ghost" })).code, "not_found");
  assert.equal(thrown(() => teams.update("../x", "coder", {})).code, "invalid_key");
  assert.equal(thrown(() => teams.replace("my-team", "../x", again)).code, "invalid_key");
});

test("update refuses an unknown backendType and wrong types, and writes nothing", () => {
  const store = new MemoryStore();
  const teams = new TeamStore(store);
  teams.recordSpawn("my-team", { name: "coder", prompt: "p" }, "codex");
  const before = store.readText(KEY);
  for (const backendType of ["bogus", "Codex", "", 5, null, ["codex"]]) {
    const err = refuses(() => teams.update("my-team", "coder", { backendType }), "`changes.backendType` is invalid: ", JSON.stringify(backendType));
    assert.equal(err.context.field, "changes.backendType", err.message);
  }
  const err = refuses(() => teams.update("my-team", "coder", { backendType: "bogus" }), "`changes.backendType` is invalid: unknown backend type `bogus`");
  assert.equal(err.context.backend_type, "bogus", "the other context pairs are kept");
  for (const changes of [
    { maxTurns: "ten" },
    { maxTurns: 2 ** 31 },
    { model: 5 },
    { prompt: null },
    { allowedTools: ["Bash", 1] },
    { env: { HOME: 1 } },
    { metadata: { thread: true } },
    { memoryConfig: { max_turns: "x", budget_chars: 1 } },
    { memoryConfig: { max_turns: 1 } },
    { createdAt: "2026-01-01T00:00:00" },
  ]) {
    // The change at fault is named below the argument, down to the member serde names.
    const [member] = Object.keys(changes);
    const err = refuses(() => teams.update("my-team", "coder", changes), `\`changes.${member}`, JSON.stringify(changes));
    assert.ok(err.context.field.startsWith(`changes.${member}`), err.context.field);
  }
  for (const name of ["../x", ""]) {
    const err = refuses(() => teams.update("my-team", "coder", { name }), "`changes.name` is invalid: ", name);
    assert.equal(err.context.field, "changes.name");
  }
  refuses(() => teams.update("my-team", "coder", { maxTurns: "ten" }), 'invalid type: string "ten", expected i32');
  refuses(() => teams.update("my-team", "coder", "changes"), "`changes` must be an object");
  refuses(() => teams.update("my-team", "coder", [1]), "`changes` must be an object");
  refuses(() => teams.update("my-team", 3, {}), "`agent` must be a string");
  assert.equal(store.readText(KEY), before, "file unchanged");
  assert.equal(teams.update("my-team", "coder", { backendType: "gemini-cli" }).backendType, "gemini-cli");
});

test("replace refuses a state of the wrong shape or an unknown backend, and writes nothing", () => {
  const store = new MemoryStore();
  const teams = new TeamStore(store);
  const state = teams.recordSpawn("my-team", { name: "coder", prompt: "p" }, "codex");
  const before = store.readText(KEY);
  for (const changes of [{ maxTurns: "ten" }, { model: 5 }, { prompt: null }, { createdAt: "2026-01-01T00:00:00" }, { env: { HOME: 1 } }]) {
    refuses(() => teams.replace("my-team", "coder", { ...state, ...changes }), "not a team session state", JSON.stringify(changes));
  }
  const err = refuses(() => teams.replace("my-team", "coder", { ...state, backendType: "bogus" }), "`state.backendType` is invalid: unknown backend type `bogus`");
  assert.equal(err.context.field, "state.backendType");
  refuses(() => teams.replace("my-team", "coder", null), "`state` must be an object");
  assert.equal(store.readText(KEY), before, "file unchanged");
});

test("a stored unknown backendType is kept by update and replace", () => {
  const store = new MemoryStore();
  store.write(KEY, JSON.stringify({ name: "coder", backendType: "cursor", prompt: "p", createdAt: "2026-01-01T00:00:00Z" }));
  const teams = new TeamStore(store);
  const state = teams.update("my-team", "coder", { model: "m" });
  assert.equal(state.backendType, "cursor");
  assert.equal(teams.update("my-team", "coder", { ...state, prompt: "q" }).backendType, "cursor");
  assert.equal(teams.replace("my-team", "coder", { ...state, prompt: "r" }).prompt, "r");
});

test("a corrupt member file: update and replace are corrupt_state and write nothing", () => {
  const store = new MemoryStore();
  store.write(KEY, '{"name": "coder", "backendType": ');
  const teams = new TeamStore(store);
  assert.equal(thrown(() => teams.update("my-team", "coder", { model: "m" })).code, "corrupt_state");
  assert.equal(thrown(() => teams.replace("my-team", "coder", { name: "coder", backendType: "codex", prompt: "p", createdAt: "2026-01-01T00:00:00Z" })).code, "corrupt_state");
  assert.equal(store.readText(KEY), '{"name": "coder", "backendType": ');
});

test("free functions: sessionFromConfig, toSpawnConfig, parseBackendType", () => {
  const state = sessionFromConfig({ name: "a", prompt: "p", env: { K: "v" } }, "gemini-cli", "2026-03-01T12:34:56Z");
  assert.deepEqual(state, { name: "a", backendType: "gemini-cli", prompt: "p", env: { K: "v" }, createdAt: "2026-03-01T12:34:56Z" });
  assert.deepEqual(sessionFromConfig({ name: "a", prompt: "p" }, "codex", new Date("2026-03-01T12:34:56Z")).createdAt, "2026-03-01T12:34:56Z");
  const before = Date.now();
  const now = Date.parse(sessionFromConfig({ name: "a", prompt: "p" }, "codex").createdAt);
  assert.ok(now >= before - 1000 && now <= Date.now() + 1000);
  assert.deepEqual(toSpawnConfig(state), { name: "a", prompt: "p", env: { K: "v" } });
  assert.deepEqual(toSpawnConfig({ ...state, metadata: { m: "x" }, custom: 1 }), { name: "a", prompt: "p", env: { K: "v" } });
  for (const backend of ["claude-code", "codex", "gemini-cli"]) assert.equal(parseBackendType(backend), backend);
  refuses(() => parseBackendType("Codex"), "unknown backend type `Codex`");
  refuses(() => parseBackendType(5), "`backendType` must be a string");
  refuses(() => sessionFromConfig({ prompt: "no name" }, "codex"), "`config`");
  refuses(() => sessionFromConfig({ name: "a", prompt: "p", modl: "x" }, "codex"), "unknown field `modl`");
  refuses(() => sessionFromConfig({ name: "a", prompt: "p", backendType: "codex" }, "codex"), "unknown field `backendType`");
  refuses(() => sessionFromConfig({ name: "a", prompt: "p" }, "gpt"), "unknown backend type `gpt`");
  refuses(() => sessionFromConfig({ name: "a", prompt: "p" }, "codex", "yesterday"), "yesterday");
  refuses(() => sessionFromConfig({ name: "a", prompt: "p" }, "codex", 12), "`now`");
  refuses(() => toSpawnConfig({ name: "a" }), "not a team session state");
  refuses(() => toSpawnConfig("a"), "`state` must be an object");
});
