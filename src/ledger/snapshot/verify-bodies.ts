import { tableFromIPC } from 'apache-arrow';
import type { HashTexts } from '../content-hash.js';

/** Bodies hashed per call: bounds the strings alive at once on a large snapshot. */
const BATCH = 4096;

/**
 * Checks every body of a snapshot's `bodies` section against its stored hash. The snapshot's own
 * checksum only proves the bytes are as written; a snapshot edited and re-checksummed would
 * otherwise serve text its content address does not name. Throws naming the first mismatch; the
 * caller reports it as SNAPSHOT_CORRUPT.
 */
export async function verifyBodyHashes(section: Uint8Array | undefined, hashTexts: HashTexts): Promise<void> {
  if (section === undefined) return;
  const table = tableFromIPC(section);
  const text = table.getChild('text');
  const hash = table.getChild('hash');
  const bkey = table.getChild('bkey');
  if (text === null || hash === null || bkey === null) throw new Error('bodies: missing columns');
  for (let from = 0; from < table.numRows; from += BATCH) {
    const to = Math.min(table.numRows, from + BATCH);
    const texts: string[] = [];
    for (let i = from; i < to; i++) texts.push(String(text.get(i)));
    const actual = await hashTexts(texts);
    for (let i = from; i < to; i++) {
      if (actual[i - from] !== hash.get(i))
        throw new Error(`bodies: body ${bkey.get(i)} does not match its bodyHash ${String(hash.get(i))}`);
    }
  }
}
