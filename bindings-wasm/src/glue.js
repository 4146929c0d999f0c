// The JavaScript side of the package's Rust code, in one module (one file for the browser to
// fetch): the host-store busy marks (stores/host.rs) and the strict JSON check of arguments
// (convert.rs), which is the core's `js_json::STRICT_JSON_JS` (a test checks the copy).

const busy = new WeakSet();
export function hostBusy(object, enter) {
  if (!enter) return busy.delete(object);
  if (busy.has(object)) return false;
  busy.add(object);
  return true;
}

export const strictJson = (function (value, maxDepth) {
  const depths = new WeakMap();
  try {
    return { text: JSON.stringify(value, function (key, v) {
      const t = typeof v;
      const kind = v instanceof Map || v instanceof Set ? v.constructor.name : t;
      if (t === 'number' ? !Number.isFinite(v) || (Math.abs(v) > Number.MAX_SAFE_INTEGER && Math.abs(v) < 1e21)
        : t === 'function' || t === 'symbol' || t === 'bigint' || kind !== t) throw { refused: [key, kind, t === 'number' ? String(v) : ''] };
      if (t === 'object' && v !== null) {
        const depth = (depths.get(this) ?? 0) + 1;
        if (depth > maxDepth) throw { refused: [key, 'deep', ''] };
        depths.set(v, depth);
      }
      return v;
    }) };
  } catch (e) {
    if (e !== null && typeof e === 'object' && Array.isArray(e.refused)) return e;
    throw e;
  }
});
