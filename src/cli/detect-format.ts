/**
 * Which adapter a transcript file needs, decided from its JSON shape alone (never from the file
 * name): SWE-agent trajectories have `trajectory`/`history`; mini-swe-agent ones `messages`;
 * a bare message array is OpenAI's when it has tool calls or tool messages, Anthropic's when it
 * has content blocks, and mini-swe-agent's when every content is text.
 */
import { fromAnthropic, fromMiniSweAgent, fromOpenAI, fromSweAgent } from '../adapters/index.js';
import type { AdaptedTrace, AdapterOptions } from '../adapters/types.js';

export const FORMATS = ['mini-swe-agent', 'swe-agent', 'openai', 'anthropic'] as const;
export type TranscriptFormat = (typeof FORMATS)[number];

export const ADAPTERS: Readonly<Record<TranscriptFormat, (input: unknown, options: AdapterOptions) => AdaptedTrace>> = {
  'mini-swe-agent': fromMiniSweAgent,
  'swe-agent': fromSweAgent,
  openai: fromOpenAI,
  anthropic: fromAnthropic,
};

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
  if (isRecord(value)) {
    if (Array.isArray(value.trajectory) || Array.isArray(value.history)) return 'swe-agent';
    return messagesOf(value.messages) ? 'mini-swe-agent' : null;
  }
  const messages = messagesOf(value);
  if (!messages) return null;
  if (messages.some((m) => Array.isArray(m.tool_calls) || m.role === 'tool')) return 'openai';
  if (messages.some((m) => Array.isArray(m.content))) return 'anthropic';
  if (messages.every((m) => typeof m.content === 'string')) return 'mini-swe-agent';
  return null;
}
