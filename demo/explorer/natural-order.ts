/**
 * Ids compare by their digit runs as numbers (`act:2` before `act:10`), then as plain strings so
 * the order is total and the same in every browser (a locale collator alone ties `a01`/`a1`).
 */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
