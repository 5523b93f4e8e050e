/** Tolerant readers for untrusted transcript JSON. */

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Text of a message `content`: a string, or the text parts of a content-part array
 * (`[{type:'text', text}]`); anything else is ''.
 */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (typeof p === 'string' ? p : isRecord(p) && typeof p.text === 'string' ? p.text : ''))
    .filter((s) => s.length > 0)
    .join('\n');
}

/** Canonical JSON (sorted keys) so the same input always gives the same call body. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (isRecord(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/**
 * `stableJson(a) === stableJson(b)` without building either string: strings are compared as they
 * are (the same string resent is one pointer check), so checking a resent message is cheap.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isRecord(a) || isRecord(b)) {
    if (!isRecord(a) || !isRecord(b)) return false;
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.prototype.propertyIsEnumerable.call(b, k) && sameJson(a[k], b[k]))
    );
  }
  return (JSON.stringify(a) ?? 'null') === (JSON.stringify(b) ?? 'null');
}
