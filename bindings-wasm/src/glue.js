// The JavaScript side of the package's Rust code, in one module (one file for the browser to
// fetch): the host-store busy marks and the strict JSON check of arguments.

// host.rs
const busy = new WeakSet();
export function hostBusy(object, enter) {
  if (!enter) return busy.delete(object);
  if (busy.has(object)) return false;
  busy.add(object);
  return true;
}

// convert.rs
export function strictJson(value, what, maxDepth) {
  const fail = (message, context = {}) => Object.assign(new Error(message), { code: 'invalid_input', context });
  const depths = new WeakMap();
  const tooDeep = {};
  let text;
  try {
    text = JSON.stringify(value, function (key, v) {
      const at = key === '' ? 'the value' : `member \`${key}\``;
      const t = typeof v;
      if (t === 'number' && !Number.isFinite(v)) throw `${at} is ${v}, which JSON cannot hold`;
      if (t === 'number' && Math.abs(v) > Number.MAX_SAFE_INTEGER && Math.abs(v) < 1e21) throw `${at} is ${v}, beyond 2^53 - 1 (Number.MAX_SAFE_INTEGER), where a JS number no longer holds the integer meant exactly`;
      if (t === 'function' || t === 'symbol' || t === 'bigint') throw `${at} is a ${t}, which JSON cannot hold`;
      if (v instanceof Map || v instanceof Set) throw `${at} is a ${v.constructor.name}, which JSON cannot hold (use a plain object or array)`;
      if (t === 'object' && v !== null) {
        const depth = (depths.get(this) ?? 0) + 1;
        if (depth > maxDepth) throw tooDeep;
        depths.set(v, depth);
      }
      return v;
    });
  } catch (e) {
    if (e === tooDeep) {
      throw fail(`\`${what}\` is nested deeper than the limit of ${maxDepth} levels of objects and arrays`, { max_depth: String(maxDepth) });
    }
    const reason = e instanceof Error ? `${e.name}: ${e.message}` : typeof e === 'string' ? e : `a thrown ${e === null ? 'null' : typeof e}`;
    throw fail(`\`${what}\` is not JSON: ${reason}`);
  }
  if (text === undefined) throw fail(`\`${what}\` is not JSON: got ${typeof value}`);
  return text;
}
