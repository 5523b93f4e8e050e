/**
 * Plain BM25 (k1 = 1.2, b = 0.75, Lucene's IDF) in memory, over the ledger's term analysis: the
 * reference a user would write in twenty lines. Unlike Orama (which counts each term once per
 * text), term frequencies count. Ties break by document order.
 */
import { textTerms } from '../../src/text/text-terms.js';

export function plainBm25(docs: ReadonlyArray<{ id: string; body: string }>): (text: string, k: number) => string[] {
  const tfs = docs.map((d) => {
    const m = new Map<string, number>();
    for (const t of textTerms(d.body)) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  });
  const lens = docs.map((d) => textTerms(d.body).length);
  const avg = lens.reduce((a, b) => a + b, 0) / (lens.length || 1);
  const df = new Map<string, number>();
  for (const m of tfs) for (const t of m.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  return (text, k) => {
    const terms = [...new Set(textTerms(text))];
    const scored: Array<[number, number]> = [];
    tfs.forEach((m, i) => {
      let s = 0;
      for (const t of terms) {
        const tf = m.get(t);
        if (!tf) continue;
        const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
        s += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * lens[i]!) / avg));
      }
      if (s > 0) scored.push([i, s]);
    });
    return scored
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, k)
      .map(([i]) => docs[i]!.id);
  };
}
