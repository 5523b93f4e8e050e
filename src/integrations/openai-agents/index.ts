/**
 * `context-ledger/openai-agents`: a ledger-backed `Session` and a `callModelInputFilter` for the
 * OpenAI Agents SDK. The SDK is an optional peer: this entry needs only its types
 * (`@openai/agents-core`) and imports nothing of it at run time.
 */
export {
  type LedgerInputFilterOptions,
  LedgerSession,
  type LedgerSessionOptions,
  ledgerInputFilter,
} from './ledger-session.js';
export { agentInputItems } from './render-items.js';
