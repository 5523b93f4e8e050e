/**
 * Which adapter a transcript needs, decided from its JSON shape alone (never from a file name),
 * so the CLI's `ingest` and the trace explorer agree on every file. Both agents write an `info`
 * object, so that alone decides nothing: a mini-swe-agent trajectory names its
 * `trajectory_format` or keeps `info` with a `messages` list; a SWE-agent `.traj` keeps
 * `trajectory[]` steps (or only `history[]`). A chat transcript is a message list (or
 * `{messages}`): OpenAI's when it has tool calls or tool messages, Anthropic's when it has content
 * blocks, and mini-swe-agent's when every content is text. A conversation (`fromConversation`'s
 * input: dated sessions of `{speaker, text}` turns, or `{sessions}`) has no roles at all.
 */
import { fromAnthropic } from './chat/anthropic.js';
import { type ConversationSession, fromConversation } from './chat/conversation.js';
import { fromOpenAI } from './chat/openai.js';
import { fromMiniSweAgent } from './swe-agents/mini-swe-agent.js';
import { fromSweAgent } from './swe-agents/swe-agent.js';
import type { AdaptedTrace, AdapterOptions } from './types.js';

/** The formats `detectFormat` recognises, each with an adapter in `TRANSCRIPT_ADAPTERS`. */
export const TRANSCRIPT_FORMATS = ['mini-swe-agent', 'swe-agent', 'openai', 'anthropic', 'conversation'] as const;
/** One of `TRANSCRIPT_FORMATS`. */
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** The adapter of each transcript format, as `detectFormat` names it. */
export const TRANSCRIPT_ADAPTERS: Readonly<
  Record<TranscriptFormat, (input: unknown, options?: AdapterOptions) => AdaptedTrace>
> = {
  'mini-swe-agent': fromMiniSweAgent,
  'swe-agent': fromSweAgent,
  openai: fromOpenAI,
  anthropic: fromAnthropic,
  conversation: conversationTrace,
};

/** `fromConversation` as a transcript adapter: one step per session, no commands. */
function conversationTrace(input: unknown, options: AdapterOptions = {}): AdaptedTrace {
  const sessions = sessionsOf(input);
  if (sessions === null) throw new TypeError('expected sessions of {speaker, text} turns');
  const { transactions } = fromConversation(
    sessions,
    options.idPrefix === undefined ? {} : { idPrefix: options.idPrefix },
  );
  const turns = sessions.reduce((n, s) => n + s.turns.length, 0);
  return {
    transactions,
    stats: { steps: transactions.length, commands: 0, recognised: 0, byCategory: { turn: turns }, warnings: [] },
    preImages: [],
  };
}

const isTurn = (v: unknown): boolean => isRecord(v) && typeof v.speaker === 'string' && typeof v.text === 'string';

/** The sessions of a conversation (an array of `{turns}`, or `{sessions: [...]}`), or null. */
function sessionsOf(value: unknown): ConversationSession[] | null {
  const list = isRecord(value) ? value.sessions : value;
  if (!Array.isArray(list) || list.length === 0) return null;
  const ok = list.every((s) => isRecord(s) && Array.isArray(s.turns) && s.turns.every(isTurn));
  return ok && list.some((s) => (s as { turns: unknown[] }).turns.length > 0) ? (list as ConversationSession[]) : null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isMessage = (v: unknown): v is Record<string, unknown> => isRecord(v) && typeof v.role === 'string';

/**
 * The messages of a message array, or null when it is not mostly messages (the adapters turn a
 * stray malformed entry into a warning, so one does not disqualify a transcript).
 */
function messagesOf(value: unknown): Array<Record<string, unknown>> | null {
  if (!Array.isArray(value)) return null;
  const messages = value.filter(isMessage);
  return messages.length > 0 && messages.length * 2 >= value.length ? messages : null;
}

/** The format, or null when the value is none of the supported transcript shapes. */
export function detectFormat(value: unknown): TranscriptFormat | null {
  if (sessionsOf(value) !== null) return 'conversation';
  if (isRecord(value)) {
    if (typeof value.trajectory_format === 'string' && value.trajectory_format.startsWith('mini-swe-agent'))
      return 'mini-swe-agent';
    if (Array.isArray(value.trajectory) || (Array.isArray(value.history) && !Array.isArray(value.messages)))
      return 'swe-agent';
    if (isRecord(value.info)) return messagesOf(value.messages) ? 'mini-swe-agent' : null;
  }
  const messages = messagesOf(isRecord(value) ? value.messages : value);
  if (!messages) return null;
  if (messages.some((m) => Array.isArray(m.tool_calls) || m.role === 'tool')) return 'openai';
  if (messages.some((m) => Array.isArray(m.content))) return 'anthropic';
  if (messages.every((m) => typeof m.content === 'string')) return 'mini-swe-agent';
  return null;
}
