import { fnv1aHex } from '../text/fnv1a.js';

/**
 * Provider-safe tool-call ids. Anthropic requires `^[a-zA-Z0-9_-]+$` and OpenAI caps ids at 40
 * characters; ledger ids (`call:12`) fit neither. The mapping is deterministic: clean ids stay,
 * others get a readable prefix plus an FNV-1a digest of the original, and collisions within one
 * rendering get a counter.
 */
export function toolIdMapper(): (id: string) => string {
  const used = new Map<string, string>();
  const taken = new Set<string>();
  return (id) => {
    const known = used.get(id);
    if (known) return known;
    let out = /^[A-Za-z0-9_-]{1,40}$/.test(id)
      ? id
      : `${id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 31)}_${fnv1aHex(id)}`;
    for (let n = 2; taken.has(out); n++) out = `${out.slice(0, 36)}_${n}`;
    used.set(id, out);
    taken.add(out);
    return out;
  };
}
