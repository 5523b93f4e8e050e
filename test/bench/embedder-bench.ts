/**
 * The `embedder` suite: what a real embedder costs next to the built-in hashed trigrams — the
 * Universal Sentence Encoder lite subpath (optional peers; rows say so when they are absent):
 * model load on the first `embed`, per-text time at a conversation turn's and a passage's length,
 * and the process RSS it adds. Texts are synthetic (synthetic.ts), so figures repeat run to run.
 */
import { USE_LITE_PACKAGES, universalSentenceEncoder } from '../../src/embedders/universal-sentence-encoder.js';
import { hashedTrigramEmbedder } from '../../src/text/hashed-embedder.js';
import { installed as resolves } from '../helpers/peers.js';
import { type BenchRow, percentile, rssMiB, syntheticBody, timed } from './bench-util.js';

const installed = resolves(USE_LITE_PACKAGES);

/** Per-text milliseconds, one text per call (as body catch-up and a query do). */
async function perText(embed: (texts: string[]) => Promise<unknown>, texts: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (const t of texts) out.push((await timed(() => embed([t])))[1]);
  return out;
}

export async function embedderBench(): Promise<BenchRow[]> {
  const turns = Array.from({ length: 40 }, (_, i) => syntheticBody(i, 130));
  const passages = Array.from({ length: 20 }, (_, i) => syntheticBody(1000 + i, 480));
  const rows: BenchRow[] = [];
  const hashed = hashedTrigramEmbedder();
  const h = await perText((t) => hashed.embed(t), turns);
  rows.push({ metric: 'hashed trigrams: per 130-char text, p50', value: percentile(h, 50), unit: 'ms' });
  if (!installed) {
    rows.push({
      metric: `universal-sentence-encoder: not installed (${USE_LITE_PACKAGES.join(' ')})`,
      value: 0,
      unit: '',
    });
    return rows;
  }
  const use = universalSentenceEncoder();
  const rss0 = rssMiB();
  const [, loadMs] = await timed(() => use.embed(['load the model']));
  rows.push({ metric: 'universal-sentence-encoder: first embed (model load)', value: loadMs, unit: 'ms' });
  rows.push({ metric: '  process RSS added by the model', value: rssMiB() - rss0, unit: 'MiB' });
  for (const [name, texts] of [
    ['130-char text (a turn)', turns],
    ['480-char text (a passage)', passages],
  ] as const) {
    const ms = await perText((t) => use.embed(t), texts);
    rows.push({ metric: `  per ${name}, p50 (${ms.length} texts)`, value: percentile(ms, 50), unit: 'ms' });
    rows.push({ metric: `  per ${name}, p95`, value: percentile(ms, 95), unit: 'ms' });
  }
  return rows;
}
