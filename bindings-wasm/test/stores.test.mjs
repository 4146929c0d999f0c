import assert from "node:assert/strict";
import { test } from "node:test";

import { fakeWebStorage, mapStore, thrown, wasm } from "./helpers.mjs";

const { AgentRegistry, MemoryStore, LocalStorageStore, copyStore } = wasm;
const text = (bytes) => new TextDecoder().decode(bytes);

test("MemoryStore reads, writes, lists and deletes", () => {
  const s = new MemoryStore();
  assert.equal(s.read("a/b.json"), null);
  assert.equal(s.readText("a/b.json"), null);
  s.write("a/b.json", '{"n":1}');
  s.write("a/c/d.json", new Uint8Array([0xff, 0x00]));
  s.write("ab", "x");
  assert.equal(s.size, 3);
  assert.ok(s.read("a/b.json") instanceof Uint8Array);
  assert.equal(text(s.read("a/b.json")), '{"n":1}');
  assert.equal(s.readText("a/b.json"), '{"n":1}');
  assert.deepEqual([...s.read("a/c/d.json")], [0xff, 0x00]);
  assert.deepEqual(s.list("a"), ["a/b.json", "a/c/d.json"]);
  assert.equal(s.delete("a/b.json"), true);
  assert.equal(s.delete("a/b.json"), false);
  assert.deepEqual(s.list("a"), ["a/c/d.json"]);
  assert.equal(thrown(() => s.readText("a/c/d.json")).code, "corrupt_state");
});

test("wrong argument types are invalid_input errors, unsafe keys invalid_key", () => {
  const s = new MemoryStore();
  for (const [call, code, pattern] of [
    [() => s.write(42, "x"), "invalid_input", /`key` must be a string, not number/],
    [() => s.write("k", 42), "invalid_input", /`data` must be a string or a Uint8Array, not number/],
    [() => s.write("k", [1, 2]), "invalid_input", /not array/],
    [() => s.list(null), "invalid_input", /not null/],
    [() => s.read(""), "invalid_key", /not safe/],
    [() => s.write("a/../b", "x"), "invalid_key", /relative path component/],
    [() => copyStore(42, s, "a"), "invalid_input", /`store` must be a MemoryStore/],
    [() => copyStore({ read() {}, write() {}, delete() {} }, s, "a"), "invalid_input", /no `list` method/],
    [() => new LocalStorageStore(7, fakeWebStorage()), "invalid_input", /`prefix` must be a string/],
    [() => new LocalStorageStore("p/", { getItem() {} }), "invalid_input", /no `setItem` method/],
  ]) {
    const err = thrown(call);
    assert.ok(err instanceof Error, String(err));
    assert.equal(err.code, code, err.message);
    assert.match(err.message, pattern);
  }
  assert.equal(s.size, 0, "nothing was written");
  const freed = new MemoryStore();
  freed.free();
  const err = thrown(() => copyStore(freed, s, "a"));
  assert.equal(err.code, "invalid_input", String(err));
  assert.match(err.message, /^`store` cannot be used/);
});

test("copyStore moves keys between our stores without going through JS", () => {
  const a = new MemoryStore();
  a.write("s/one.json", "1");
  a.write("s/deep/two.json", "2");
  a.write("other.json", "3");
  const b = new MemoryStore();
  assert.equal(copyStore(a, b, "s"), 2);
  assert.deepEqual(b.list("s"), ["s/deep/two.json", "s/one.json"]);
  assert.equal(b.readText("s/one.json"), "1");
});

test("a host store is read and written through its methods", () => {
  const host = mapStore([
    ["s/a.json", '{"a":1}'],
    ["s/b.bin", new Uint8Array([1, 2, 3])],
    ["s/../evil", "x"],
    ["t/c.json", "no"],
  ]);
  const mem = new MemoryStore();
  assert.equal(copyStore(host, mem, "s"), 2, "invalid keys from list are skipped");
  assert.deepEqual(mem.list("s"), ["s/a.json", "s/b.bin"]);
  assert.deepEqual([...mem.read("s/b.bin")], [1, 2, 3]);

  const back = mapStore();
  assert.equal(copyStore(mem, back, "s"), 2);
  const written = back.calls.filter((c) => c[0] === "write");
  assert.deepEqual(
    written.map((c) => c[1]),
    ["s/a.json", "s/b.bin"],
  );
  assert.ok(written.every((c) => c[2] instanceof Uint8Array));
  assert.equal(text(back.map.get("s/a.json")), '{"a":1}');
});

test("an exception thrown by a host store reaches the caller unchanged", () => {
  class HostFailure extends Error {}
  const failure = new HostFailure("disk on fire");
  failure.extra = { retry: false };
  for (const exception of [failure, "a plain string", { not: "an Error" }, 42]) {
    const host = mapStore([["s/a.json", "{}"]]);
    host.read = () => {
      throw exception;
    };
    assert.equal(thrown(() => copyStore(host, new MemoryStore(), "s")), exception);
  }
  const host = mapStore();
  host.write = () => {
    throw failure;
  };
  const mem = new MemoryStore();
  mem.write("s/a.json", "{}");
  assert.equal(thrown(() => copyStore(mem, host, "s")), failure);
  // The exception is not kept around: the next failure is a fresh one.
  const other = new Error("second");
  host.write = () => {
    throw other;
  };
  assert.equal(thrown(() => copyStore(mem, host, "s")), other);
});

test("host store methods that return the wrong type give storage errors", () => {
  for (const [value, pattern] of [
    [42, /`read` of `s\/a.json` returned number/],
    [Promise.resolve("{}"), /returned a promise \(or another thenable\): host store methods must be synchronous/],
    [{ length: 1 }, /returned object/],
  ]) {
    const host = mapStore([["s/a.json", "{}"]]);
    host.read = () => value;
    const err = thrown(() => copyStore(host, new MemoryStore(), "s"));
    assert.equal(err.code, "storage", String(err));
    assert.match(err.message, pattern);
    assert.deepEqual({ ...err.context }, { key: "s/a.json", method: "read" });
  }
  const host = mapStore();
  host.list = () => "s/a.json";
  assert.equal(thrown(() => copyStore(host, new MemoryStore(), "s")).code, "storage");
});

test("LocalStorageStore keeps items under its prefix, text as text", () => {
  const storage = fakeWebStorage();
  storage.setItem("unrelated", "keep");
  const s = new LocalStorageStore("app/", storage);
  assert.equal(s.prefix, "app/");
  s.write(".claude/orchestrator-session.json", '{"session_id":"é"}');
  s.write(".claude/blob", new Uint8Array([0xff, 0xfe]));
  s.write(".claude/nul", "\u0000x");
  assert.equal(storage.getItem("app/.claude/orchestrator-session.json"), '{"session_id":"é"}');
  assert.equal(storage.getItem("app/.claude/blob"), "\u0000base64://4=");
  assert.ok(storage.getItem("app/.claude/nul").startsWith("\u0000base64:"));
  assert.equal(s.readText(".claude/nul"), "\u0000x");
  assert.deepEqual([...s.read(".claude/blob")], [0xff, 0xfe]);
  assert.deepEqual(s.list(".claude"), [".claude/blob", ".claude/nul", ".claude/orchestrator-session.json"]);
  assert.equal(s.delete(".claude/blob"), true);
  assert.equal(s.delete(".claude/blob"), false);
  assert.equal(storage.getItem("unrelated"), "keep");
  // A NUL-led value someone else wrote reads as its own text (a document reader finds it corrupt).
  storage.setItem("app/.claude/foreign", "\u0000garbage");
  assert.equal(s.readText(".claude/foreign"), "\u0000garbage");
  storage.setItem("app/.claude/foreign", "\u0000base64:***");
  assert.equal(s.readText(".claude/foreign"), "\u0000base64:***");
});

test("LocalStorageStore: a foreign NUL-led item is a corrupt file, listed as skipped and repaired", () => {
  const { OrchestratorStore } = wasm;
  const storage = fakeWebStorage();
  const s = new LocalStorageStore("p:", storage);
  const sessions = new OrchestratorStore(s);
  const doc = sessions.recordNew({ goal: "g" }, { name: "p", path: "/p" }, "a");
  sessions.archive(doc);
  storage.setItem("p:.claude/orchestrator-history/evil.json", "\u0000garbage");
  const page = sessions.listHistory();
  assert.equal(page.total, 1);
  assert.deepEqual(page.skipped.map((k) => k.key), [".claude/orchestrator-history/evil.json"]);
  sessions.rebuildIndex();
  assert.equal(sessions.listHistory().total, 1);
  storage.setItem("p:.claude/orchestrator-session.json", "\u0000garbage");
  assert.equal(thrown(() => sessions.load()).code, "corrupt_state");
  const repaired = sessions.recover();
  assert.equal(repaired.action, "moved_aside");
  assert.equal(storage.getItem("p:.claude/orchestrator-session.json"), null);
  const kept = s.list(".claude").filter((k) => k.includes("corrupt-"));
  assert.equal(kept.length, 1);
  assert.equal(s.readText(kept[0]), "\u0000garbage");
});

test("LocalStorageStore: a quota error is a storage error and the old value stays", () => {
  const storage = fakeWebStorage(200);
  const s = new LocalStorageStore("p/", storage);
  s.write("k/doc.json", '{"v":1}');
  const err = thrown(() => s.write("k/doc.json", "x".repeat(500)));
  assert.equal(err.code, "storage");
  assert.match(err.message, /^cannot write `k\/doc.json`: QuotaExceededError/);
  assert.ok(err.cause instanceof DOMException);
  assert.equal(err.cause.name, "QuotaExceededError");
  assert.equal(s.readText("k/doc.json"), '{"v":1}');
  // Through copyStore too (the class path the wrappers use).
  const big = new MemoryStore();
  big.write("k/doc.json", "y".repeat(500));
  assert.equal(thrown(() => copyStore(big, s, "k")).code, "storage");
  assert.equal(s.readText("k/doc.json"), '{"v":1}');
});

test("LocalStorageStore without localStorage is a storage error", { skip: "localStorage" in globalThis }, () => {
  const err = thrown(() => new LocalStorageStore("p/"));
  assert.equal(err.code, "storage");
  assert.match(err.message, /^localStorage is not available/);
});

test("a host write returning anything but undefined or null is a storage error", () => {
  for (const [value, got] of [
    [1, "number, expected undefined or null"],
    ["ok", "string, expected undefined or null"],
    [true, "boolean, expected undefined or null"],
    [{}, "object, expected undefined or null"],
    [Promise.resolve(), "a promise (or another thenable): host store methods must be synchronous"],
  ]) {
    const host = mapStore();
    host.write = () => value;
    const err = thrown(() => new AgentRegistry(host).register("a", "a5", {}));
    assert.equal(err.code, "storage", `${got}: ${err.message}`);
    assert.equal(
      err.message,
      `host store \`write\` of \`.moai/memory/agent-sessions.json\` returned ${got}`,
    );
    assert.deepEqual({ ...err.context }, { key: ".moai/memory/agent-sessions.json", method: "write" });
  }
  for (const value of [undefined, null]) {
    const host = mapStore();
    const write = host.write;
    host.write = (key, data) => {
      write(key, data);
      return value;
    };
    const registry = new AgentRegistry(host);
    registry.register("a", "a5", {});
    assert.equal(registry.resumeId("a"), "a5");
  }
});
