import type { EdgeInput, NodeInput, Transaction } from '../../schema/types.js';
import { wellFormedName, wellFormedTransaction } from '../well-formed.js';
import { eventDates } from './event-dates.js';

/** One turn of a conversation: who said it, what they said, and the captions of images they shared. */
export interface ConversationTurn {
  /** Stable id of the turn (default `<session>:<index>`, 1-based). */
  id?: string;
  speaker: string;
  text: string;
  /** Captions (or alt texts) of images shared with the turn: part of what a reader saw. */
  images?: readonly string[];
}

/** A dated session of a conversation. Sessions are ordered by `date` (then by their position). */
export interface ConversationSession {
  /** When the session took place: ISO `YYYY-MM-DD[Thh:mm]`, or text such as `1:56 pm on 8 May, 2023`. */
  date?: string;
  turns: readonly ConversationTurn[];
}

/** Options of `fromConversation`: id prefix, the turns' authority and the first session's epoch. */
export interface ConversationOptions {
  /** Prepended to every node id. Default ''. */
  idPrefix?: string;
  /** Authority scope of every turn. Default `user` (what `retrieve({authority: ['user']})` reads). */
  authority?: string;
  /** Epoch of the first session; session k (in date order) is valid from `firstEpoch + k`. Default 1. */
  firstEpoch?: number;
}

/** What `fromConversation` returns: one transaction per session, in date order, and counts. */
export interface AdaptedConversation {
  transactions: Transaction[];
  /** Per session in date order: its epoch, date (ISO when parsable) and turn ids. */
  sessions: Array<{ epoch: number; date: string | null; turnIds: string[] }>;
}

/**
 * A multi-session conversation (chat memory, LoCoMo-style dialogues) as ledger transactions, written
 * the way retrieval reads them:
 * - one transaction per session in date order, so each turn is valid from its session's epoch and
 *   `retrieve({epoch})` sees the conversation as it stood then;
 * - each turn a `message` node (role `user`, authority `user` by default) whose body is
 *   `<speaker>: <text>` plus `[shares a photo: <caption>]` per image — what a reader saw;
 * - `meta.speaker` names who said it: retrieval treats a name in the question that is a record's
 *   speaker as an entity match (see `src/retrieval/entities.ts`), which is how "what did Caroline
 *   say" prefers Caroline's turns over Melanie's turns that merely address her;
 * - `meta.date` (ISO when the session date parses, else as given) and `meta.session`, so a host
 *   reading the evidence can answer "when";
 * - `meta.when`: the days the turn's relative time expressions name ("yesterday", "last Friday",
 *   "two weeks ago"), resolved against the session date (event-dates.ts), comma-separated ISO
 *   dates or `from/to` intervals; absent when it names none. The temporal channel matches a
 *   question's date against them and a "when" question prefers the turns that have them;
 * - each turn `depends_on` the turn before it in its session: a reply and what it answers, which
 *   the graph channel walks (the answer to a question often sits in the reply to the turn that
 *   shares its words).
 * Pure and deterministic.
 */
export function fromConversation(
  sessions: readonly ConversationSession[],
  options: ConversationOptions = {},
): AdaptedConversation {
  if (!Array.isArray(sessions)) throw new TypeError('fromConversation: expected an array of sessions');
  const prefix = options.idPrefix ?? '';
  const authority = options.authority ?? 'user';
  const first = options.firstEpoch ?? 1;
  const ordered = sessions
    .map((s, i) => ({ s, i, iso: isoDate(s.date) }))
    .sort((a, b) => {
      const ka = a.iso ?? '';
      const kb = b.iso ?? '';
      return ka < kb ? -1 : ka > kb ? 1 : a.i - b.i;
    });
  const transactions: Transaction[] = [];
  const out: AdaptedConversation['sessions'] = [];
  ordered.forEach(({ s, i, iso }, rank) => {
    const epoch = first + rank;
    const nodes: NodeInput[] = [];
    const edges: EdgeInput[] = [];
    const ids: string[] = [];
    s.turns.forEach((t: ConversationTurn, k: number) => {
      const id = `${prefix}${t.id ?? `${i + 1}:${k + 1}`}`;
      const photos = (t.images ?? []).map((c: string) => ` [shares a photo: ${c}]`).join('');
      const meta: Record<string, string | number> = { speaker: String(t.speaker), session: i + 1 };
      const date = iso ?? s.date;
      if (date !== undefined) meta.date = date;
      const when = iso === null ? [] : eventDates(t.text, iso);
      if (when.length > 0) meta.when = when.join(',');
      nodes.push({
        id,
        kind: 'message',
        role: 'user',
        authority,
        body: `${t.speaker}: ${t.text}${photos}`,
        meta,
      });
      if (ids.length > 0) edges.push({ from: id, to: ids[ids.length - 1]!, kind: 'depends_on' });
      ids.push(id);
    });
    // Caller text may hold lone surrogates or byte-order marks the ledger refuses: made well-formed here.
    transactions.push(wellFormedTransaction({ epoch, nodes, edges }));
    out.push({ epoch, date: iso, turnIds: ids.map(wellFormedName) });
  });
  return { transactions, sessions: out };
}

const MONTHS = 'january february march april may june july august september october november december'.split(' ');

/** `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM` or `H:MM pm on D Month, YYYY` → `YYYY-MM-DD`; null when unparsable. @internal Exported for its unit tests. */
export function isoDate(text: string | undefined): string | null {
  if (text === undefined) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const m = /(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
  if (month === 0) return null;
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}
