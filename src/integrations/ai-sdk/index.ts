/**
 * `context-ledger/ai-sdk`: the ledger as an AI SDK language-model middleware. The AI SDK is an
 * optional peer: this entry needs only its types (`@ai-sdk/provider`) and imports nothing of it at
 * run time, so it loads wherever the SDK runs and never pulls it into the main entry.
 */
export { type LedgerMiddlewareOptions, ledgerMiddleware } from './ledger-middleware.js';
export { aiSdkPrompt, promptTokens } from './render-prompt.js';
