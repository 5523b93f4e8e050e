/** Traces and chat transcripts → ledger transactions. Pure functions: no I/O, no clock. */
export { fromAnthropic } from './chat/anthropic.js';
export {
  type AdaptedConversation,
  type ConversationOptions,
  type ConversationSession,
  type ConversationTurn,
  fromConversation,
} from './chat/conversation.js';
export { fromOpenAI } from './chat/openai.js';
export {
  detectFormat,
  TRANSCRIPT_ADAPTERS,
  TRANSCRIPT_FORMATS,
  type TranscriptFormat,
} from './detect-format.js';
export type { DocumentLink, LinkedDocument } from './documents/document-links.js';
export {
  type AdaptedDocuments,
  type DocumentInput,
  type DocumentOptions,
  fromDocuments,
} from './documents/from-documents.js';
export { fromMiniSweAgent } from './swe-agents/mini-swe-agent.js';
export { fromSweAgent } from './swe-agents/swe-agent.js';
export type { AdaptedTrace, AdapterOptions, AdapterStats, PreImage } from './types.js';
