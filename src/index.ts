/**
 * The public API shared by every runtime entry. `openLedger` itself comes from the entry the
 * package `exports` conditions select (node, workerd, browser).
 */
export * from './adapters/index.js';
export type { EngineStats } from './engine/engine.js';
export { ERROR_CATALOGUE, type ErrorCode, type ErrorDetails, isLedgerError, LedgerError } from './errors.js';
export { Ledger } from './ledger/ledger.js';
export type { OpenLedgerOptions } from './ledger/open-ledger.js';
export type { ArchiveRequest, AsOfRequest, RerunRequest } from './ledger/read-requests.js';
export type { RerunCandidate } from './ledger/rerun-candidates.js';
export type { Recovered, StorageAdapter } from './ledger/storage.js';
export type { ChannelScores } from './rerank/fuse.js';
export type { DropCode } from './rerank/select.js';
export type { SupportFeatures } from './rerank/support.js';
export type { MissingEvidence } from './retrieval/exact-channel.js';
export type { RetrievalQuery } from './retrieval/query.js';
export type {
  ExplanationEntry,
  RetrievalExplanationCode,
  RetrievalResult,
  RetrievedEvidence,
} from './retrieval/result.js';
export type { AssetName, AssetSource, LedgerAssets } from './runtime/assets.js';
export {
  EDGE_JOINS,
  EDGE_KINDS,
  type EdgeKind,
  NODE_KINDS,
  type NodeKind,
  STATUS_RULES,
  STATUSES,
  type Status,
} from './schema/kinds.js';
export { LIMITS } from './schema/limits.js';
export type {
  EdgeInput,
  EdgeRecord,
  GraphView,
  LineRange,
  NodeInput,
  NodeRecord,
  Receipt,
  Transaction,
  TransitionInput,
} from './schema/types.js';
export { type Embedder, hashedTrigramEmbedder } from './text/hashed-embedder.js';
export { ENCODINGS, type Encoding } from './tokenizer/token-counter.js';
export type {
  AnthropicBlock,
  AnthropicMessage,
  AnthropicRenderOptions,
  CacheControl,
  MessageShape,
  OpenAIMessage,
} from './working-set/render-messages.js';
export type {
  ExplanationRecord,
  MaterializeRequest,
  WorkingSetExplanationCode,
  WorkingSetItem,
} from './working-set/types.js';
export { validateAnthropicMessages, validateOpenAIMessages } from './working-set/validate-messages.js';
// A type only: working sets are made by `ledger.materialize`, never constructed by callers.
export type { SessionInfo, WorkingSet } from './working-set/working-set.js';
