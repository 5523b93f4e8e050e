/**
 * `npm run eval:vector-precision -- [--locomo FILE] [--musique FILE] [--vector-cache FILE] [--out DIR]`:
 * the 8-bit vector option (`vectorPrecision: 'int8'`) against the exact float32 scan, on the same
 * corpora and semantic embedder as eval:retrieval (Universal Sentence Encoder lite; corpus
 * vectors from eval:retrieval's cache file when given, questions embedded live). For every
 * question: recall@10 of the int8 top 10 against the exact top 10 over the corpus the question is
 * asked of (its LoCoMo conversation's turns; every MuSiQue passage), and the time of each scan
 * (p50, SIMD kernel and JS fallback). Writes DIR/vector-precision.json and prints Markdown.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { universalSentenceEncoder } from '../src/embedders/universal-sentence-encoder.js';
import { bundledCosineKernel } from '../src/retrieval/cosine-kernel.js';
import { cosineTop, createVectorRows, setVectorRow } from '../src/retrieval/cosine-top.js';
import { createInt8Rows, int8Top, setInt8Row } from '../src/retrieval/int8-rows.js';
import { locomoDocuments, parseLocomo } from './eval/locomo.js';
import { parseMusique, passageBody } from './eval/musique.js';
import { cachedEmbedder } from './eval/vector-cache.js';

const { values } = parseArgs({
  options: {
    locomo: { type: 'string', default: '../shared/data/locomo/locomo-dev7.json' },
    musique: { type: 'string', default: '../shared/data/multihop/musique_train.json' },
    'vector-cache': { type: 'string' },
    out: { type: 'string', default: '.out/vector-precision' },
  },
});
const readJson = async (path: string) => JSON.parse(await readFile(resolve(path), 'utf8')) as unknown;
const K = 10;

interface Corpus {
  name: string;
  texts: string[];
  questions: string[];
}

const corpora: Corpus[] = [];
for (const c of parseLocomo(await readJson(values.locomo!)).conversations)
  corpora.push({
    name: `locomo ${c.id}`,
    texts: locomoDocuments(c).map((d) => d.body),
    questions: c.questions.map((q) => q.question),
  });
const musiqueFile = resolve(values.musique!);
const musique = parseMusique(
  await readJson(musiqueFile),
  await readJson(musiqueFile.replace(/\.json$/, '_corpus.json')),
);
corpora.push({
  name: 'musique',
  texts: musique.passages.map(passageBody),
  questions: musique.questions.map((q) => q.question),
});

const inner = universalSentenceEncoder();
const cacheable = new Set(corpora.flatMap((c) => c.texts));
const cache = await cachedEmbedder(
  inner,
  values['vector-cache'] ?? join(values.out!, `vectors-${inner.name}.bin`),
  cacheable,
);
const kernel = bundledCosineKernel();

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const rows: Array<Record<string, number | string>> = [];
for (const [label, names] of [
  ['LoCoMo (7 conversations)', corpora.filter((c) => c.name.startsWith('locomo')).map((c) => c.name)],
  ['MuSiQue', ['musique']],
] as Array<[string, string[]]>) {
  let hits = 0;
  let asked = 0;
  let docs = 0;
  const times = { f32: [] as number[], i8: [] as number[], f32js: [] as number[], i8js: [] as number[] };
  for (const corpus of corpora.filter((c) => names.includes(c.name))) {
    const d = inner.dimensions;
    const vectors = await cache.embedder.embed(corpus.texts);
    const f32 = createVectorRows(d, kernel);
    const i8 = createInt8Rows(d, kernel);
    const f32js = createVectorRows(d, null);
    const i8js = createInt8Rows(d, null);
    vectors.forEach((v, i) => {
      setVectorRow(f32, i, v);
      setInt8Row(i8, i, v);
      setVectorRow(f32js, i, v);
      setInt8Row(i8js, i, v);
    });
    docs += corpus.texts.length;
    const all = new Int32Array(corpus.texts.length).fill(1);
    const queries = await cache.embedder.embed(corpus.questions);
    const timed = <T>(list: number[], f: () => T): T => {
      const t = performance.now();
      const r = f();
      list.push(performance.now() - t);
      return r;
    };
    for (const q of queries) {
      const exact = timed(times.f32, () => cosineTop(f32, q, K, all));
      const approx = timed(times.i8, () => int8Top(i8, q, K, all));
      timed(times.f32js, () => cosineTop(f32js, q, K, all));
      timed(times.i8js, () => int8Top(i8js, q, K, all));
      const truth = new Set(exact.map((r) => r.bkey));
      if (truth.size === 0) continue;
      hits += approx.filter((r) => truth.has(r.bkey)).length / truth.size;
      asked++;
    }
  }
  rows.push({
    corpus: label,
    documents: docs,
    questions: asked,
    'recall@10 of int8 vs exact': Math.round((1000 * hits) / asked) / 1000,
    'float32 SIMD p50 ms': Number(p50(times.f32).toFixed(3)),
    'int8 SIMD p50 ms': Number(p50(times.i8).toFixed(3)),
    'float32 JS p50 ms': Number(p50(times.f32js).toFixed(3)),
    'int8 JS p50 ms': Number(p50(times.i8js).toFixed(3)),
  });
}
await cache.save();
const load = (await readFile('/proc/loadavg', 'utf8').catch(() => '?')).trim();
const keys = Object.keys(rows[0]!);
const markdown = [
  `| ${keys.join(' | ')} |`,
  `|${keys.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${keys.map((k) => r[k]).join(' | ')} |`),
  '',
  `load average ${load}; corpus vectors from cache: ${cache.stats().hits}, embedded: ${cache.stats().misses}`,
].join('\n');
await mkdir(values.out!, { recursive: true });
await writeFile(join(values.out!, 'vector-precision.json'), `${JSON.stringify({ rows, load }, null, 2)}\n`);
console.log(markdown);
