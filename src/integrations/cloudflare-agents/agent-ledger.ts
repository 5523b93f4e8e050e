import type { LanguageModelV4 } from '@ai-sdk/provider';
// By the package's own name: the Worker's bundle then holds one engine, the one its `workerd`
// condition selects for the agent's own `import … from 'context-ledger'`.
import { type Ledger, LedgerError, openLedger } from 'context-ledger';
import { type DurableObjectKvStorage, durableObjectStorage } from '../../storage/durable-object.js';
import { type LedgerMiddlewareOptions, ledgerMiddleware } from '../ai-sdk/ledger-middleware.js';
import { loadAi } from './load-ai.js';
import { prefixedStorage } from './prefixed-storage.js';

/** Options of `agentLedger`: the model to wrap and the middleware's budget; where the ledger's keys go. */
export interface AgentLedgerOptions {
  /** The agent's model (`workersai('…')`, `openai('…')`…); the returned model wraps it. */
  model: LanguageModelV4;
  /** Tokens the model may receive per step (see `ledgerMiddleware`). */
  budget: LedgerMiddlewareOptions['budget'];
  /** Authority scopes the working set may draw from; default every scope. */
  authority?: readonly string[];
  /** Prepended to the ids the recorder writes. */
  idPrefix?: string;
  /** Log records kept before they are folded into a snapshot (see `durableObjectStorage`); default 64. */
  compactEvery?: number;
  /** Prefix of the ledger's keys in the object's key-value storage; default `context-ledger:`. */
  keyPrefix?: string;
}

/** The ledger of one Durable Object and a model that records into it and is prompted from it. */
export interface AgentLedger {
  model: LanguageModelV4;
  ledger: Ledger;
}

const DEFAULT_KEY_PREFIX = 'context-ledger:';
const DEFAULT_COMPACT_EVERY = 64;

/** One ledger per object: every request of an agent instance shares the one it opened first. */
const ledgers = new WeakMap<DurableObjectKvStorage, Promise<Ledger>>();

function openOnce(storage: DurableObjectKvStorage, options: AgentLedgerOptions): Promise<Ledger> {
  let opened = ledgers.get(storage);
  if (!opened) {
    const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    const compactEvery = options.compactEvery ?? DEFAULT_COMPACT_EVERY;
    opened = openLedger({ storage: durableObjectStorage(prefixedStorage(storage, prefix), { compactEvery }) });
    // A failed open is not kept: the next request tries again.
    opened.catch(() => ledgers.delete(storage));
    ledgers.set(storage, opened);
  }
  return opened;
}

/**
 * The ledger kept in a Cloudflare agent's own Durable Object storage (`this.ctx.storage` of an
 * `Agent` or `AIChatAgent`), opened once per object instance, and `model` wrapped with
 * `ledgerMiddleware`: each step is recorded into the ledger and the model is sent its working set
 * within `budget`. Call it in `onChatMessage` (or any handler) and hand the model to `streamText`
 * or `generateText`. A re-instantiated object reopens the ledger from storage; the history the
 * framework resends is recorded only where the ledger lacks it.
 */
export async function agentLedger(storage: DurableObjectKvStorage, options: AgentLedgerOptions): Promise<AgentLedger> {
  if (typeof storage !== 'object' || storage === null || typeof storage.transaction !== 'function')
    throw new LedgerError('INVALID_OPTION', { field: 'storage', reason: "a Durable Object's ctx.storage" });
  if (typeof options !== 'object' || options === null || typeof options.model !== 'object' || options.model === null)
    throw new LedgerError('INVALID_OPTION', { field: 'model', reason: 'an AI SDK language model' });
  // Built first, so a bad budget fails before anything is opened.
  const middleware = ledgerMiddleware({
    ledger: () => openOnce(storage, options),
    budget: options.budget,
    authority: options.authority,
    idPrefix: options.idPrefix,
  });
  // The SDK first: without it, nothing is opened.
  const ai = await loadAi();
  const ledger = await openOnce(storage, options);
  return { model: ai.wrapLanguageModel({ model: options.model, middleware }), ledger };
}
