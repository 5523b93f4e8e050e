/**
 * 32-bit FNV-1a over UTF-16 code units of `s[from, to)`: a fast, deterministic, dependency-free
 * hash for bucketing (the hashed embedder's trigrams) and for short suffixes that keep shortened
 * names distinct (tool-call ids, adapter names). Not for security. Pure.
 */
export function fnv1a(s: string, from = 0, to = s.length): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** `fnv1a(s)` as eight hex digits. */
export const fnv1aHex = (s: string): string => fnv1a(s).toString(16).padStart(8, '0');
