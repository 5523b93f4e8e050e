import { intList, intLiteral } from './literals.js';

/**
 * Closes older node versions: `closes` pairs a version's vkey with the epoch that superseded it.
 * The commits written together (see src/ledger/commit/write-behind.ts) close at different epochs,
 * and one statement costs one bind and plan where a statement per epoch would cost one each.
 */
export function closeVersionsSql(closes: ReadonlyArray<readonly [vkey: number, epoch: number]>): string {
  const epochs = new Set(closes.map(([, epoch]) => epoch));
  const vkeys = intList(closes.map(([vkey]) => vkey));
  if (epochs.size <= 1) {
    const epoch = closes.length === 0 ? 'NULL' : intLiteral(closes[0]![1]);
    return `UPDATE nodes SET valid_to = ${epoch} WHERE vkey IN ${vkeys}`;
  }
  const cases = closes.map(([vkey, epoch]) => `WHEN ${intLiteral(vkey)} THEN ${intLiteral(epoch)}`).join(' ');
  return `UPDATE nodes SET valid_to = CASE vkey ${cases} END WHERE vkey IN ${vkeys}`;
}
