/**
 * Structural copies and comparisons of plain JSON data (arrays, plain objects, strings, finite
 * numbers, booleans, null). Strings are immutable, so a copy shares them: it costs the message's
 * structure, not its text, and comparing a resent message with the copy of the one recorded is a
 * pointer check per string when the caller kept its strings (the AI SDK does across steps).
 */

const isPlainObject = (v: object): v is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/** A copy of `v` sharing its strings, or undefined when `v` holds anything but plain JSON data. */
export function plainCopy(v: unknown, depth = 0): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  // Deeper than any message shape: a cycle, or data the comparison would gain nothing from.
  if (typeof v !== 'object' || depth > 64) return undefined;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const c = plainCopy(v[i], depth + 1);
      if (c === undefined) return undefined;
      out[i] = c;
    }
    return out;
  }
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = v[k];
    if (x === undefined) continue;
    const c = plainCopy(x, depth + 1);
    if (c === undefined) return undefined;
    out[k] = c;
  }
  return out;
}

/** Whether `v` equals a `plainCopy` (`copy`): same structure, same strings, numbers and booleans. */
export function samePlain(v: unknown, copy: unknown): boolean {
  if (v === copy) return true;
  if (typeof v !== 'object' || v === null || typeof copy !== 'object' || copy === null) return false;
  if (Array.isArray(copy)) {
    if (!Array.isArray(v) || v.length !== copy.length) return false;
    for (let i = 0; i < copy.length; i++) if (!samePlain(v[i], copy[i])) return false;
    return true;
  }
  if (Array.isArray(v) || !isPlainObject(v)) return false;
  const c = copy as Record<string, unknown>;
  let n = 0;
  for (const k of Object.keys(v)) {
    const x = v[k];
    if (x === undefined) continue;
    if (!Object.hasOwn(c, k) || !samePlain(x, c[k])) return false;
    n++;
  }
  return n === Object.keys(c).length;
}
