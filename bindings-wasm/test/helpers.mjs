// Loads the Node build (pkg-node, CommonJS) for the .test.mjs files.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** The exports of pkg-node/session_state_wasm.js (run `npm run build` first). */
export const wasm = require("../pkg-node/session_state_wasm.js");

/** A host store over a Map, recording the calls it gets. */
export function mapStore(entries = []) {
  const map = new Map(entries);
  const calls = [];
  return {
    map,
    calls,
    read(key) {
      calls.push(["read", key]);
      return map.has(key) ? map.get(key) : null;
    },
    write(key, data) {
      calls.push(["write", key, data]);
      map.set(key, data);
    },
    delete(key) {
      calls.push(["delete", key]);
      return map.delete(key);
    },
    list(prefix) {
      calls.push(["list", prefix]);
      return [...map.keys()].filter((k) => k.startsWith(`${prefix}/`));
    },
  };
}

/** A Web Storage look-alike over a Map; `quota` bounds the total stored characters. */
export function fakeWebStorage(quota = Infinity) {
  const items = new Map();
  const used = () => [...items].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    items,
    get length() {
      return items.size;
    },
    key(i) {
      return [...items.keys()][i] ?? null;
    },
    getItem(k) {
      return items.has(k) ? items.get(k) : null;
    },
    setItem(k, v) {
      const after = used() - (items.has(k) ? k.length + items.get(k).length : 0) + k.length + v.length;
      if (after > quota) {
        throw new DOMException("the quota has been exceeded", "QuotaExceededError");
      }
      items.set(k, String(v));
    },
    removeItem(k) {
      items.delete(k);
    },
  };
}

/** Runs `fn`, which must throw, and returns what it threw. */
export function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected an exception");
}
