import {
  type AdaptedTrace,
  fromAnthropic,
  fromMiniSweAgent,
  fromOpenAI,
  fromSweAgent,
} from '../../src/adapters/index.js';

export const TRANSCRIPT_FORMATS = ['mini-swe-agent', 'swe-agent', 'openai', 'anthropic'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

const ADAPTERS: Record<TranscriptFormat, (json: unknown) => AdaptedTrace> = {
  'mini-swe-agent': fromMiniSweAgent,
  'swe-agent': fromSweAgent,
  openai: fromOpenAI,
  anthropic: fromAnthropic,
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Guesses a dropped file's format. Both agents write an `info` object, so that alone decides
 * nothing: a mini-swe-agent trajectory names its `trajectory_format` or keeps a `messages` list;
 * a SWE-agent `.traj` keeps `trajectory[]` steps (or only `history[]`). A chat transcript is a
 * message list (or `{messages}`) whose tool traffic gives it away — Anthropic's as
 * `tool_use`/`tool_result` content blocks, OpenAI's as `tool_calls` and `tool` messages.
 */
export function detectFormat(json: unknown): TranscriptFormat {
  if (isRecord(json)) {
    if (typeof json.trajectory_format === 'string' && json.trajectory_format.startsWith('mini-swe-agent'))
      return 'mini-swe-agent';
    if (Array.isArray(json.trajectory) || (Array.isArray(json.history) && !Array.isArray(json.messages)))
      return 'swe-agent';
    if (isRecord(json.info) && Array.isArray(json.messages)) return 'mini-swe-agent';
  }
  const messages = isRecord(json) ? json.messages : json;
  if (!Array.isArray(messages))
    throw new TypeError('not a transcript: expected a message list, a mini-swe-agent or a SWE-agent trajectory object');
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
