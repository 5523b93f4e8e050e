import { LIMITS } from '../schema/limits.js';
import { fnv1aHex } from '../text/fnv1a.js';

/**
 * A name field (verifier, tool) the ledger accepts: no control characters, at most
 * LIMITS.maxIdChars; a longer name keeps its start plus a hash of the whole, so distinct long
 * commands stay distinct verifiers.
 */
export function ledgerName(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
  const clean = raw.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim() || 'unnamed';
  if (clean.length <= LIMITS.maxIdChars) return clean;
  return `${clean.slice(0, LIMITS.maxIdChars - 11)} #${fnv1aHex(clean)}`;
}
