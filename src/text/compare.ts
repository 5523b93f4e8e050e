/**
 * Code-unit order of strings: the one tie-break by id everywhere (fusion, packing, explanations),
 * independent of locale so the same ledger orders the same on every runtime. Pure.
 */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
