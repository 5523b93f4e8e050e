import { type AdaptedTrace, fromAnthropic, fromMiniSweAgent, fromOpenAI } from '../../src/adapters/index.js';

export type TranscriptFormat = 'mini-swe-agent' | 'openai' | 'anthropic';

const ADAPTERS: Record<TranscriptFormat, (json: unknown) => AdaptedTrace> = {
  'mini-swe-agent': fromMiniSweAgent,
  openai: fromOpenAI,
  anthropic: fromAnthropic,
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Guesses a dropped file's format: a mini-swe-agent trajectory is an object with `info` or a
 * `trajectory_format`; a chat transcript is a message list (or `{messages}`) whose tool traffic
 * gives it away — Anthropic's as `tool_use`/`tool_result` content blocks, OpenAI's as
 * `tool_calls` and `tool` messages.
 */
export function detectFormat(json: unknown): TranscriptFormat {
  if (isRecord(json) && (typeof json.trajectory_format === 'string' || isRecord(json.info))) return 'mini-swe-agent';
  const messages = isRecord(json) ? json.messages : json;
  if (!Array.isArray(messages)) throw new TypeError('not a transcript: expected a message list or a trajectory object');
  const blocks = messages.flatMap((m) => (isRecord(m) && Array.isArray(m.content) ? m.content : []));
  if (blocks.some((b) => isRecord(b) && (b.type === 'tool_use' || b.type === 'tool_result'))) return 'anthropic';
  return 'openai';
}

export function adaptTranscript(
  json: unknown,
  format: TranscriptFormat | 'auto',
): AdaptedTrace & { format: TranscriptFormat } {
  const chosen = format === 'auto' ? detectFormat(json) : format;
  return { ...ADAPTERS[chosen](json), format: chosen };
}
