/**
 * Fits the support calibration (src/rerank/support.ts) from a retrieval evaluation report:
 * `npx tsx scripts/fit-support.ts .out/retrieval/retrieval.json [locomo.json]`. With the LoCoMo
 * file as well, it prints the held-out category-5 abstention by kind of question (see `kindOf`).
 *
 * One row per LoCoMo question with the ledger's support features. Label 1: answerable (categories
 * 1–4, with a gold turn); label 0: unanswerable (category 5). (Labelling answerable questions whose
 * returned records miss the gold turn 0 as well, as an earlier fit did, separated the two classes
 * less: 62.5% vs 66.3% category-5 abstention at 10% false, held out.) Logistic regression by gradient ascent (fixed iterations, deterministic), checked
 * leaving one conversation out, with the `UNSEEN_LIMIT` rule applied: the printed threshold is the held-out support below which at most
 * 10% of answerable questions fall, with the category-5 abstention it gives.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_SUPPORT_THRESHOLD, UNSEEN_LIMIT } from '../src/rerank/support.js';
import { queryNames, speakerNames } from '../src/retrieval/entities.js';
import { type LocomoConversation, parseLocomo } from './eval/locomo.js';

interface Row {
  id: string;
  conv: string;
  category: number;
  label: 0 | 1;
  x: number[];
}

const FEATURES = ['subjectCoverage', 'otherCoverage', 'coverage', 'unseen', 'inference'] as const;
/** Columns the model uses (intercept, subjectCoverage, otherCoverage): `coverage` added nothing
 * held out, and `unseen` acts only through the hard rule (UNSEEN_LIMIT); fitted as a model input
 * it took a positive weight, support rising with words the ledger never saw. */
const MODEL_COLUMNS = 3;
const UNSEEN = 1 + FEATURES.indexOf('unseen');
const INFERENCE = 1 + FEATURES.indexOf('inference');
const OTHER = 1 + FEATURES.indexOf('otherCoverage');

export function rowsOf(report: {
  locomo: {
    questions: Array<{
      id: string;
      category: number;
      gold: string[];
      features: Record<string, number> | null;
      ranks: { ledger: Array<number | null> };
    }>;
  };
}): Row[] {
  return report.locomo.questions
    .filter((q) => q.features !== null && (q.category === 5 || q.gold.length > 0))
    .map((q) => ({
      id: q.id,
      conv: q.id.split('#')[0]!,
      category: q.category,
      label: q.category !== 5 ? 1 : 0,
      x: [1, ...FEATURES.map((f) => q.features![f] ?? 0)],
    }));
}

/**
 * Fitted on the questions asking for a stated fact: an inference question ("would … likely") is
 * scored without `otherCoverage` (src/rerank/support.ts) and was never made unanswerable by moving
 * a fact, so it says nothing about that weight.
 */
export function fitLogistic(all: readonly Row[], iterations = 4000, rate = 1): number[] {
  const rows = all.filter((r) => r.x[INFERENCE] !== 1);
  const w = new Array<number>(MODEL_COLUMNS).fill(0);
  for (let it = 0; it < iterations; it++) {
    const g = new Array<number>(w.length).fill(0);
    for (const r of rows) {
      const p = predict(w, r.x);
      for (let j = 0; j < w.length; j++) g[j]! += (r.label - p) * r.x[j]!;
    }
    for (let j = 0; j < w.length; j++) w[j]! += (rate * g[j]!) / rows.length;
  }
  return w;
}

/** Held-out ROC AUC: the chance an answerable question gets more support than an unanswerable one (ties count half). */
export function auc(answerable: readonly number[], unanswerable: readonly number[]): number {
  let wins = 0;
  for (const a of answerable) for (const u of unanswerable) wins += a > u ? 1 : a === u ? 0.5 : 0;
  return answerable.length * unanswerable.length === 0 ? 0 : wins / (answerable.length * unanswerable.length);
}

/**
 * What kind of unanswerable question this is, from how it was made: LoCoMo's category-5
 * questions point at the turn they were made from. `swap`: that turn is another speaker's (the
 * question moves what someone said to the person it names); `changed`: it is the named person's
 * own turn, with a detail changed ("grandpa" for "grandma"); `other`: no name or no turn. Each
 * with `+unseen` when a content word of the question is in no record at all.
 */
export function kindOf(conv: LocomoConversation, question: string, gold: readonly string[], unseen: number): string {
  const names = queryNames(question);
  const speakerOf = new Map(conv.sessions.flatMap((s) => s.turns.map((t) => [t.id, t.speaker] as const)));
  const byNamed = gold.map((g) =>
    speakerNames(JSON.stringify({ speaker: speakerOf.get(g) ?? '' })).some((n) => names.includes(n)),
  );
  const named = conv.speakers.some((s) => speakerNames(JSON.stringify({ speaker: s })).some((n) => names.includes(n)));
  const kind =
    !named || gold.length === 0
      ? 'other'
      : byNamed.every(Boolean)
        ? 'changed'
        : byNamed.some(Boolean)
          ? 'other'
          : 'swap';
  return `${kind}${unseen > 0 ? '+unseen' : ''}`;
}

function predict(w: readonly number[], x: readonly number[]): number {
  let z = 0;
  for (let j = 0; j < w.length; j++) if (!(j === OTHER && x[INFERENCE] === 1)) z += x[j]! * w[j]!;
  return 1 / (1 + Math.exp(-z));
}

/** The support.ts hard rule: most of a stated-fact question in no record abstains, whatever the model says. */
const hardRule = (r: Row) => r.x[UNSEEN]! > UNSEEN_LIMIT && r.x[INFERENCE] !== 1;

if (process.argv[2] !== undefined) {
  const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const rows = rowsOf(report);
  const convs = [...new Set(rows.map((r) => r.conv))].sort();
  const held = new Map<Row, number>();
  for (const c of convs) {
    const w = fitLogistic(rows.filter((r) => r.conv !== c));
    // The hard rule (support.ts) abstains whatever the model says.
    for (const r of rows) if (r.conv === c) held.set(r, hardRule(r) ? 0 : predict(w, r.x));
  }
  // A fixed split as well: fit and choose the 10%-false-abstention threshold on the first half of
  // the conversations, then report both halves with that model and threshold.
  const fitConvs = new Set(convs.slice(0, Math.ceil(convs.length / 2)));
  const fitRows = rows.filter((r) => fitConvs.has(r.conv));
  const ws = fitLogistic(fitRows);
  const score = (r: Row) => (hardRule(r) ? 0 : predict(ws, r.x));
  const fitAnswerable = fitRows
    .filter((r) => r.category !== 5)
    .map(score)
    .sort((a, b) => a - b);
  const ts = fitAnswerable[Math.floor(0.1 * fitAnswerable.length)]!;
  for (const threshold of [ts, DEFAULT_SUPPORT_THRESHOLD])
    for (const [name, part] of [
      ['fit split', fitRows],
      ['held-out split', rows.filter((r) => !fitConvs.has(r.conv))],
    ] as const) {
      const ans = part.filter((r) => r.category !== 5);
      const adv = part.filter((r) => r.category === 5);
      console.log(
        `${name} (${[...new Set(part.map((r) => r.conv))].join(', ')}): threshold ${threshold.toFixed(3)} → false abstention ${(100 * (ans.filter((r) => score(r) < threshold).length / ans.length)).toFixed(1)}%, category 5 abstention ${(100 * (adv.filter((r) => score(r) < threshold).length / adv.length)).toFixed(1)}%`,
      );
    }
  const w = fitLogistic(rows);
  console.log(
    `weights (intercept, ${FEATURES.slice(0, MODEL_COLUMNS - 1).join(', ')}): ${w.map((x) => x.toFixed(2)).join(', ')}`,
  );
  const answerable = rows.filter((r) => r.category !== 5).map((r) => held.get(r)!);
  const adversarial = rows.filter((r) => r.category === 5).map((r) => held.get(r)!);
  const sorted = [...answerable].sort((a, b) => a - b);
  const thresholds = [0.05, 0.1, 0.15, 0.2].map((target) => sorted[Math.floor(target * sorted.length)]!);
  for (const t of [...thresholds, DEFAULT_SUPPORT_THRESHOLD]) {
    const abst = adversarial.filter((p) => p < t).length / adversarial.length;
    console.log(
      `held-out: threshold ${t.toFixed(3)} → false abstention ${(100 * (answerable.filter((p) => p < t).length / answerable.length)).toFixed(1)}%, category 5 abstention ${(100 * abst).toFixed(1)}%`,
    );
  }
  console.log(`held-out AUC (leaving one conversation out): ${auc(answerable, adversarial).toFixed(3)}`);
  if (process.argv[3] !== undefined) {
    const data = parseLocomo(JSON.parse(readFileSync(process.argv[3], 'utf8')));
    const convs = new Map(data.conversations.map((c) => [c.id, c]));
    const byId = new Map((report.locomo.questions as Array<{ id: string; gold: string[] }>).map((q) => [q.id, q.gold]));
    const text = new Map(data.conversations.flatMap((c) => c.questions.map((q) => [q.id, q.question] as const)));
    const at10 = sorted[Math.floor(0.1 * sorted.length)]!;
    const kinds = new Map<string, Row[]>();
    for (const r of rows.filter((x) => x.category === 5)) {
      const conv = convs.get(r.conv);
      if (conv === undefined) continue;
      const k = kindOf(conv, text.get(r.id) ?? '', byId.get(r.id) ?? [], r.x[UNSEEN]!);
      kinds.set(k, [...(kinds.get(k) ?? []), r]);
    }
    for (const [k, rs] of [...kinds].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
      console.log(
        `category 5, ${k}: ${rs.length} questions, held-out abstention ${(100 * (rs.filter((r) => held.get(r)! < DEFAULT_SUPPORT_THRESHOLD).length / rs.length)).toFixed(1)}% at ${DEFAULT_SUPPORT_THRESHOLD}, ${(100 * (rs.filter((r) => held.get(r)! < at10).length / rs.length)).toFixed(1)}% at ${at10.toFixed(3)}`,
      );
  }
}
