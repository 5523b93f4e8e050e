/**
 * LoCoMo (snap-research/LoCoMo, `data/locomo10.json`) as ledger transactions: long two-person
 * conversations in dated sessions, with questions naming the dialogue turns that answer them.
 *
 * Mapping (measured choices, see `retrieval-eval.ts` and the report):
 * - one transaction per session, epoch = the session's rank in date order (1-based), so every turn
 *   is valid from its session's time and questions run at the final epoch;
 * - each turn a `message` node, id = its upstream `dia_id` (`D<session>:<turn>`), role `user`,
 *   authority `speaker:<name>` — who said it is the scope a statement belongs to, and a host that
 *   only trusts one person's statements can say so; the evaluation reads every scope;
 * - body `"<speaker>: <text>"`, plus `[shares a photo: <caption>]` when the turn carried an image
 *   (the caption is what a reader of the conversation saw; the upstream image-search `query` is
 *   generation metadata and is left out);
 * - the session date, by `DateMode`: `node` (default) = one `message` per session, authority
 *   `conversation`, body naming the date in words and ISO form, citing each of its turns, so a
 *   question naming a date reaches that session's turns through the graph while turn bodies stay
 *   as spoken; `body` = the date prefixed to every turn's body; `none` = no date at all;
 * - each turn `depends_on` the turn before it in its session (a reply and what it answers).
 */
import type { EdgeInput, NodeInput, Transaction } from '../../src/schema/types.js';

export type DateMode = 'node' | 'body' | 'none';
export const DATE_MODES: readonly DateMode[] = ['node', 'body', 'none'];

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

/** The date as words a question might use: `8 May 2023`. */
const dateWords = (s: LocomoSession): string => {
  const m = /(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/.exec(s.dateText);
  return m ? `${m[1]} ${m[2]} ${m[3]}` : s.dateText;
};

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

/** A turn's body as the ledger stores it (and Orama indexes it). */
export function turnBody(turn: LocomoTurn, session: LocomoSession, dates: DateMode): string {
  const photo = turn.caption === null ? '' : ` [shares a photo: ${turn.caption}]`;
  const prefix = dates === 'body' ? `[${dateWords(session)}] ` : '';
  return `${prefix}${turn.speaker}: ${turn.text}${photo}`;
}

/** Id of a session's date record (`node` mode). */
export const sessionNodeId = (s: LocomoSession): string => `S${s.number}`;

export function locomoTransactions(conv: LocomoConversation, dates: DateMode = 'node'): Transaction[] {
  return conv.sessions.map((s) => {
    const nodes: NodeInput[] = s.turns.map((t) => ({
      id: t.id,
      kind: 'message',
      role: 'user',
      authority: speakerScope(t.speaker),
      body: turnBody(t, s, dates),
    }));
    // A turn answers the one before it: the evidence of a question is often the reply to the
    // turn that matches its words (measured: see the report).
    const edges: EdgeInput[] = s.turns.slice(1).map((t, i) => ({ from: t.id, to: s.turns[i]!.id, kind: 'depends_on' }));
    if (dates === 'node') {
      const sid = sessionNodeId(s);
      nodes.push({
        id: sid,
        kind: 'message',
        role: 'system',
        authority: SESSION_SCOPE,
        body: `Session ${s.number} of ${conv.speakers.join(' and ')}, ${dateWords(s)}${s.isoDate ? ` (${s.isoDate})` : ''}`,
      });
      for (const t of s.turns) edges.push({ from: sid, to: t.id, kind: 'cites' });
    }
    return { epoch: s.epoch, nodes, edges };
  });
}

/** Every turn of a conversation with its stored body and scope, in conversation order (for baselines). */
export function locomoDocuments(
  conv: LocomoConversation,
  dates: DateMode = 'node',
): Array<{ id: string; body: string; scope: string }> {
  return conv.sessions.flatMap((s) =>
    s.turns.map((t) => ({ id: t.id, body: turnBody(t, s, dates), scope: speakerScope(t.speaker) })),
  );
}

/** The authority scope of a speaker's turns, and of the session date records. */
export const speakerScope = (speaker: string): string => `speaker:${speaker}`;
export const SESSION_SCOPE = 'conversation';

/**
 * The speaker a question is about: the one whose first name it contains as a word, when exactly
 * one does. LoCoMo's adversarial questions (category 5) ask about one speaker what the *other*
 * said; on the shipped data 95% of answerable questions naming one speaker have all their
 * evidence spoken by that speaker, against 24% of the adversarial ones.
 */
export function namedSpeaker(question: string, conv: Pick<LocomoConversation, 'speakers'>): string | null {
  const named = conv.speakers.filter((s) => {
    const first = s.split(/\s+/)[0]!;
    return new RegExp(`(^|[^\\p{L}])${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'u').test(question);
  });
  return named.length === 1 ? named[0]! : null;
}
