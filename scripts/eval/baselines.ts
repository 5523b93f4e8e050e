/**
 * Transcript baselines the ledger is measured against. Pure: each reads only the messages of
 * steps up to `epoch` and returns what it would put in context under `budget` tokens, whole
 * messages only. Like the ledger (whose active task is tier 0) and like every condenser, each
 * keeps the task first when it fits.
 */
import type { Transcript, TranscriptMessage } from './transcript.js';

export interface Selection {
  /** In conversation order. */
  messages: TranscriptMessage[];
  tokens: number;
  /** Observations shown only as a placeholder (their call keeps its answer; their text is not shown). */
  masked?: TranscriptMessage[];
}

export type BaselineName = 'recency' | 'recencyPaired' | 'bm25' | 'observationMasking' | 'compaction';
export type Baseline = (transcript: Transcript, epoch: number, budget: number) => Selection;

/** (a) The most recent messages that fit, whole: a contiguous window that stops at the first
 * message that does not fit (it may keep an observation without the turn that asked for it). */
export const recency: Baseline = (transcript, epoch, budget) => recentWindow(transcript, epoch, budget, (m) => m.id);

/** (b) The same window over whole steps — an assistant turn with its observations — so no tool
 * call loses its result (what the best condensers do). */
export const recencyPaired: Baseline = (transcript, epoch, budget) =>
  recentWindow(transcript, epoch, budget, (m) => `step:${m.epoch}`);

function recentWindow(
  transcript: Transcript,
  epoch: number,
  budget: number,
  unitOf: (m: TranscriptMessage) => string,
): Selection {
  const { task, rest } = split(transcript, epoch);
  const units: TranscriptMessage[][] = [];
  for (const m of rest) {
    const last = units[units.length - 1];
    if (last && unitOf(last[0]!) === unitOf(m)) last.push(m);
    else units.push([m]);
  }
  let tokens = task && task.tokens <= budget ? task.tokens : 0;
  const kept: TranscriptMessage[][] = [];
  for (let i = units.length - 1; i >= 0; i--) {
    const cost = units[i]!.reduce((n, m) => n + m.tokens, 0);
    if (tokens + cost > budget) break;
    tokens += cost;
    kept.unshift(units[i]!);
  }
  return { messages: [...(task && task.tokens <= budget ? [task] : []), ...kept.flat()], tokens };
}

/**
 * (c) BM25 over past observations with the task text as the query: observations scored against
 * the statistics of the observations available at `epoch` (no later document shifts an IDF),
 * packed best first, skipping any that does not fit; observations sharing no term with the task
 * are not retrieved.
 */
export const bm25: Baseline = (transcript, epoch, budget) => {
  const { task, rest } = split(transcript, epoch);
  const docs = rest.filter((m) => m.role === 'observation').map((m) => ({ m, ...termsOf(m) }));
  const query = [...new Set(task ? terms(task.text) : [])];
  const df = new Map<string, number>();
  for (const d of docs) for (const q of query) if (d.tf.has(q)) df.set(q, (df.get(q) ?? 0) + 1);
  const avgLength = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
  const scored = docs
    .map((d) => {
      let score = 0;
      for (const q of query) {
        const f = d.tf.get(q);
        if (f === undefined) continue;
        const n = df.get(q)!;
        const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / Math.max(1, avgLength)));
      }
      return { m: d.m, score };
    })
    .filter((d) => d.score > 0)
    // Ties go to the more recent observation, then to the id, so the order is total.
    .sort((a, b) => b.score - a.score || b.m.epoch - a.m.epoch || (a.m.id < b.m.id ? -1 : a.m.id > b.m.id ? 1 : 0));
  let tokens = task && task.tokens <= budget ? task.tokens : 0;
  const picked = new Set<TranscriptMessage>();
  for (const { m } of scored) {
    if (tokens + m.tokens > budget) continue;
    tokens += m.tokens;
    picked.add(m);
  }
  return { messages: [...(task && task.tokens <= budget ? [task] : []), ...rest.filter((m) => picked.has(m))], tokens };
};

/**
 * (d) Observation masking (SWE-agent's last-N-observations processor; "simple observation
 * masking", 2025): every assistant turn is kept, the latest N tool outputs in full and older ones
 * replaced by a placeholder, N the largest that fits the budget. When even the turns with every
 * output masked do not fit, the oldest steps are dropped whole.
 */
export const observationMasking: Baseline = (transcript, epoch, budget) => {
  const { task, rest } = split(transcript, epoch);
  const base = task && task.tokens <= budget ? task.tokens : 0;
  const mask = transcript.placeholderTokens;
  // Drop the oldest steps until the turns with every observation masked fit.
  let start = 0;
  const cost = (from: number) =>
    rest.slice(from).reduce((n, m) => n + (m.role === 'observation' ? Math.min(mask, m.tokens) : m.tokens), 0);
  let masked = cost(0);
  while (start < rest.length && base + masked > budget) {
    const step = rest[start]!.epoch;
    while (start < rest.length && rest[start]!.epoch === step) {
      const m = rest[start++]!;
      masked -= m.role === 'observation' ? Math.min(mask, m.tokens) : m.tokens;
    }
  }
  const kept = rest.slice(start);
  // Unmask observations newest first while they fit; stop at the first that does not (last N).
  let tokens = base + masked;
  const full = new Set<TranscriptMessage>();
  for (let i = kept.length - 1; i >= 0; i--) {
    const m = kept[i]!;
    if (m.role !== 'observation') continue;
    const extra = m.tokens - Math.min(mask, m.tokens);
    if (tokens + extra > budget) break;
    tokens += extra;
    full.add(m);
  }
  return {
    messages: [
      ...(task && task.tokens <= budget ? [task] : []),
      ...kept.filter((m) => m.role !== 'observation' || full.has(m)),
    ],
    masked: kept.filter((m) => m.role === 'observation' && !full.has(m)),
    tokens,
  };
};

/**
 * (e) Compaction, what agent CLIs do with auto-compact: each step's messages are appended to the
 * conversation; when it no longer fits the budget, only the task and the newest whole steps that
 * fill at most half of the budget left after the task are kept, and appending starts again. (A CLI
 * also writes a summary of what it drops; no baseline here writes text of its own.) Stateful by
 * nature, so it replays the steps up to `epoch` on every call.
 */
export const compaction: Baseline = (transcript, epoch, budget) => {
  const { task, rest } = split(transcript, epoch);
  const base = task && task.tokens <= budget ? task.tokens : 0;
  const steps: TranscriptMessage[][] = [];
  for (const m of rest) {
    const last = steps[steps.length - 1];
    if (last && last[0]!.epoch === m.epoch) last.push(m);
    else steps.push([m]);
  }
  const sizeOf = (step: readonly TranscriptMessage[]) => step.reduce((n, m) => n + m.tokens, 0);
  let kept: TranscriptMessage[][] = [];
  let tokens = base;
  for (const step of steps) {
    kept.push(step);
    tokens += sizeOf(step);
    if (tokens <= budget) continue;
    const half = Math.floor((budget - base) / 2);
    let newest = 0;
    let from = kept.length;
    while (from > 0 && newest + sizeOf(kept[from - 1]!) <= half) newest += sizeOf(kept[--from]!);
    kept = kept.slice(from);
    tokens = base + newest;
  }
  return { messages: [...(task && task.tokens <= budget ? [task] : []), ...kept.flat()], tokens };
};

/** The whole conversation up to `epoch`, whatever the budget: what an agent without any context
 * management sends. Not a budgeted baseline, so it is not among BASELINES. */
export const untrimmed: Baseline = (transcript, epoch) => {
  const { task, rest } = split(transcript, epoch);
  const messages = [...(task ? [task] : []), ...rest];
  return { messages, tokens: messages.reduce((n, m) => n + m.tokens, 0) };
};

export const BASELINES: Readonly<Record<BaselineName, Baseline>> = {
  recency,
  recencyPaired,
  bm25,
  observationMasking,
  compaction,
};

const K1 = 1.2;
const B = 0.75;

function split(
  transcript: Transcript,
  epoch: number,
): { task: TranscriptMessage | undefined; rest: TranscriptMessage[] } {
  const task = transcript.messages.find((m) => m.role === 'task');
  return { task, rest: transcript.messages.filter((m) => m !== task && m.epoch <= epoch) };
}

/** Identifiers and numbers, lower-cased: code and prose share `separability_matrix`, `Card`, `0`. */
const terms = (text: string): string[] => text.toLowerCase().match(/[a-z_][a-z0-9_]*|\d+/g) ?? [];

/** Term statistics per message, computed once: the same observations are scored at every
 * budget and every later event. */
const termCache = new WeakMap<TranscriptMessage, { tf: Map<string, number>; length: number }>();

function termsOf(m: TranscriptMessage): { tf: Map<string, number>; length: number } {
  let hit = termCache.get(m);
  if (!hit) {
    const all = terms(m.text);
    const tf = new Map<string, number>();
    for (const t of all) tf.set(t, (tf.get(t) ?? 0) + 1);
    hit = { tf, length: all.length };
    termCache.set(m, hit);
  }
  return hit;
}
