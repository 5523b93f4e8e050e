/**
 * LoCoMo (snap-research/LoCoMo, `data/locomo10.json`) as ledger transactions: long two-person
 * conversations in dated sessions, with questions naming the dialogue turns that answer them.
 *
 * Mapping: the library's own `fromConversation` adapter (src/adapters/chat/conversation.ts) — what a
 * user gets by default, nothing evaluation-only: one transaction per session in date order (epoch =
 * the session's rank), each turn a `message` node with id = its upstream `dia_id`, authority
 * `user`, body `<speaker>: <text>` plus `[shares a photo: <caption>]` (the upstream image-search
 * `query` is generation metadata and is left out), `meta.speaker` / `meta.date`, and a
 * `depends_on` edge from each turn to the one before it in its session. Questions are asked as a
 * user would: `retrieve({epoch: last, authority: ['user'], text, budget: {records: k}})`.
 */
import { type ConversationSession, fromConversation } from '../../src/adapters/chat/conversation.js';
import type { Transaction } from '../../src/schema/types.js';

export interface LocomoTurn {
  /** `D<session>:<turn>`, as upstream. */
  id: string;
  speaker: string;
  text: string;
  caption: string | null;
}

export interface LocomoSession {
  /** Upstream session number (`session_<n>`). */
  number: number;
  /** Rank in date order, 1-based: the transaction's epoch. */
  epoch: number;
  /** As upstream, e.g. `1:56 pm on 8 May, 2023`. */
  dateText: string;
  /** `YYYY-MM-DD`, or null when the upstream text does not parse. */
  isoDate: string | null;
  turns: LocomoTurn[];
}

export type LocomoCategory = 1 | 2 | 3 | 4 | 5;
export const CATEGORY_NAMES: Readonly<Record<LocomoCategory, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

export interface LocomoQuestion {
  /** `<conversation>#<index>` (index in the upstream `qa` list). */
  id: string;
  question: string;
  category: LocomoCategory;
  /** Gold turn ids after repair, existing turns only, sorted, unique. */
  evidence: string[];
}

export interface LocomoConversation {
  id: string;
  speakers: [string, string];
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
}

/** What the loader had to fix in the upstream evidence lists, question by question. */
export interface EvidenceRepairs {
  /** Malformed ids rewritten (`D:11:26` → `D11:26`; `D8:6; D9:17` → two ids). */
  repaired: Array<{ question: string; from: string; to: string[] }>;
  /** Ids with nothing recoverable in them (e.g. a bare `D`). */
  dropped: Array<{ question: string; id: string }>;
  /** Well-formed ids naming no turn of the conversation. */
  dangling: Array<{ question: string; id: string }>;
}

export interface LocomoData {
  conversations: LocomoConversation[];
  repairs: EvidenceRepairs;
}

const WELL_FORMED = /^D[1-9]\d*:[1-9]\d*$/;

/**
 * Repairs one upstream evidence id: `null` when it is well-formed already, else the ids it
 * stands for (possibly none). Lists joined by `;` or `,` split; stray separators between the `D`
 * and the session number go; leading zeros normalise.
 */
export function repairEvidenceId(raw: string): string[] | null {
  if (WELL_FORMED.test(raw)) return null;
  const out: string[] = [];
  for (const part of raw.split(/[;,\s]+/)) {
    const m = /^D\W*(\d+)\W+(\d+)$/.exec(part.trim());
    if (m) out.push(`D${Number(m[1])}:${Number(m[2])}`);
  }
  return out;
}

/** Parses `1:56 pm on 8 May, 2023` to `2023-05-08`. */
export function isoDateOf(text: string): string | null {
  const m = /(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
  if (month === 0) return null;
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}
const MONTHS = 'january february march april may june july august september october november december'.split(' ');

export function parseLocomo(json: unknown): LocomoData {
  if (!Array.isArray(json)) throw new Error('LoCoMo: expected an array of conversations');
  const repairs: EvidenceRepairs = { repaired: [], dropped: [], dangling: [] };
  const conversations = json.map((raw, i) => parseConversation(raw, i, repairs));
  return { conversations, repairs };
}

function parseConversation(raw: unknown, index: number, repairs: EvidenceRepairs): LocomoConversation {
  const c = raw as { sample_id?: unknown; conversation?: Record<string, unknown>; qa?: unknown };
  const id = typeof c.sample_id === 'string' ? c.sample_id : `conv-${index}`;
  const conv = c.conversation;
  if (typeof conv !== 'object' || conv === null) throw new Error(`LoCoMo ${id}: no conversation`);
  const speakers: [string, string] = [String(conv.speaker_a ?? 'A'), String(conv.speaker_b ?? 'B')];
  const numbers = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null && Array.isArray(conv[m[0]]))
    .map((m) => Number(m[1]));
  const sessions = numbers.map((n) => {
    const dateText = String(conv[`session_${n}_date_time`] ?? '');
    const turns = (conv[`session_${n}`] as unknown[]).map((t) => {
      const turn = t as { dia_id?: unknown; speaker?: unknown; text?: unknown; blip_caption?: unknown };
      return {
        id: String(turn.dia_id),
        speaker: String(turn.speaker ?? ''),
        text: String(turn.text ?? ''),
        caption: typeof turn.blip_caption === 'string' && turn.blip_caption.length > 0 ? turn.blip_caption : null,
      };
    });
    return { number: n, epoch: 0, dateText, isoDate: isoDateOf(dateText), turns };
  });
  // Date order, the session number breaking ties (and ordering sessions without a parsable date).
  const dateKey = (s: LocomoSession) => s.isoDate ?? '';
  sessions.sort((a, b) => (dateKey(a) < dateKey(b) ? -1 : dateKey(a) > dateKey(b) ? 1 : a.number - b.number));
  for (const [i, s] of sessions.entries()) s.epoch = i + 1;
  const turnIds = new Set(sessions.flatMap((s) => s.turns.map((t) => t.id)));
  const qa = Array.isArray(c.qa) ? c.qa : [];
  const questions = qa.map((q, qi): LocomoQuestion => {
    const item = q as { question?: unknown; category?: unknown; evidence?: unknown };
    const qid = `${id}#${qi}`;
    const gold = new Set<string>();
    for (const e of Array.isArray(item.evidence) ? item.evidence : []) {
      const rawId = String(e);
      const fixed = repairEvidenceId(rawId);
      if (fixed !== null && fixed.length === 0) repairs.dropped.push({ question: qid, id: rawId });
      else if (fixed !== null) repairs.repaired.push({ question: qid, from: rawId, to: fixed });
      for (const t of fixed ?? [rawId]) {
        if (turnIds.has(t)) gold.add(t);
        else repairs.dangling.push({ question: qid, id: t });
      }
    }
    const category = Number(item.category);
    if (![1, 2, 3, 4, 5].includes(category))
      throw new Error(`LoCoMo ${qid}: unknown category ${String(item.category)}`);
    return {
      id: qid,
      question: String(item.question ?? ''),
      category: category as LocomoCategory,
      evidence: [...gold].sort(compareTurnIds),
    };
  });
  return { id, speakers, sessions, questions };
}

/** `D2:10` after `D2:9`: session, then turn, numerically. */
export function compareTurnIds(a: string, b: string): number {
  const pa = a.slice(1).split(':').map(Number);
  const pb = b.slice(1).split(':').map(Number);
  return pa[0]! - pb[0]! || pa[1]! - pb[1]! || (a < b ? -1 : a > b ? 1 : 0);
}

/** A conversation in the adapter's shape: sessions in upstream order, turns with their ids. */
export function locomoSessions(conv: LocomoConversation): ConversationSession[] {
  return [...conv.sessions]
    .sort((a, b) => a.number - b.number)
    .map((s) => ({
      date: s.dateText,
      turns: s.turns.map((t) => ({
        id: t.id,
        speaker: t.speaker,
        text: t.text,
        ...(t.caption === null ? {} : { images: [t.caption] }),
      })),
    }));
}

/** The conversation as ledger transactions, through `fromConversation` with its defaults. */
export function locomoTransactions(conv: LocomoConversation): Transaction[] {
  return fromConversation(locomoSessions(conv)).transactions;
}

/** Every turn with its stored body, in conversation order (for the baselines: the same inputs). */
export function locomoDocuments(conv: LocomoConversation): Array<{ id: string; body: string }> {
  return locomoTransactions(conv).flatMap((tx) => (tx.nodes ?? []).map((n) => ({ id: n.id, body: n.body ?? '' })));
}
