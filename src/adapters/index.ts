/** Traces and chat transcripts → ledger transactions. Pure functions: no I/O, no clock. */
export { fromAnthropic } from './anthropic.js';
export {
  type AdaptedConversation,
  type ConversationOptions,
  type ConversationSession,
  type ConversationTurn,
  fromConversation,
} from './conversation.js';
export {
  detectFormat,
  TRANSCRIPT_ADAPTERS,
  TRANSCRIPT_FORMATS,
  type TranscriptFormat,
} from './detect-format.js';
export { fromMiniSweAgent } from './mini-swe-agent.js';
export { fromOpenAI } from './openai.js';
export { fromSweAgent } from './swe-agent.js';
export type { AdaptedTrace, AdapterOptions, AdapterStats } from './types.js';
