/**
 * `context-ledger/cloudflare-agents`: the ledger of a Cloudflare agent (`agents`'s `Agent`,
 * `@cloudflare/ai-chat`'s `AIChatAgent`) in the agent's own Durable Object storage, and its model
 * wrapped with the AI SDK middleware. `ai` is an optional peer loaded on first use; the Agents
 * SDK is needed only by the agent itself.
 */
export { type AgentLedger, type AgentLedgerOptions, agentLedger } from './agent-ledger.js';
export { prefixedStorage } from './prefixed-storage.js';
