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

// convert.rs: `JSON.stringify` that stops at what JSON cannot hold exactly and at values
// nested deeper than `maxDepth`, before descending further; returns the text (or `undefined`)
// or `[key, kind, shown]`, which the core's `json_text::refuse_js_value` words. The same rules
// as the Node package's `STRICT_STRINGIFY`.
export function strictJson(value, maxDepth) {
  const depths = new WeakMap();
  try {
    return JSON.stringify(value, function (key, v) {
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
    });
  } catch (e) {
    if (e !== null && typeof e === 'object' && Array.isArray(e.refused)) return e.refused;
    throw e;
  }
}
