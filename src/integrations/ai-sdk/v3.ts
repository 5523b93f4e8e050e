/**
 * `context-ledger/ai-sdk/v3`: the ledger middleware for AI SDK 6 (`LanguageModelV3Middleware`,
 * `@ai-sdk/provider` 3), which runs on Node 18 and 20 where AI SDK 7 declares Node 22. Like the v4
 * entry it needs only the provider's types and imports nothing of the SDK at run time.
 */
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Middleware,
  LanguageModelV4CallOptions,
  LanguageModelV4Middleware,
} from '@ai-sdk/provider';
import type { Ledger } from '../../ledger/ledger.js';
import type { MaterializeRequest } from '../../working-set/types.js';
import { ledgerMiddleware as ledgerMiddlewareV4 } from './ledger-middleware.js';

/** The options of {@link ledgerMiddleware}: those of the v4 middleware, with a v3 call's options.
 * Declared apart, not derived from the v4 ones, so that these declarations name v3 types only:
 * `@ai-sdk/provider` 3, which AI SDK 6 installs, has no v4 types. */
export interface LedgerMiddlewareV3Options {
  /**
   * The session's ledger, or a getter that picks it from the call (e.g. by a session id in
   * `providerOptions` or a header). One ledger holds one session.
   */
  ledger: Ledger | ((params: LanguageModelV3CallOptions) => Ledger | Promise<Ledger>);
  /** Tokens the model may receive: system prompt, working set and tool calls and results. */
  budget: number | MaterializeRequest['budget'];
  /** Authority scopes the working set may draw from; default every scope. */
  authority?: readonly string[];
  /** Prepended to the ids the recorder writes (see AdapterOptions). */
  idPrefix?: string;
}

/**
 * The v4 hooks, run on a v3 call. They read only a prompt's messages and its text, tool-call and
 * tool-result parts, a generated result's content and a stream's text, tool-call and tool-result
 * parts, whose shapes the two specifications share; everything else (file parts, whose data the
 * two shape differently, usage, metadata) passes through untouched. The prompt they write holds
 * the call's own system messages and text, tool-call and tool-result parts only.
 */
const asV4 = <T>(value: unknown): T => value as T;

/**
 * An AI SDK 6 language-model middleware (`wrapLanguageModel({ model, middleware })` of `ai` 6)
 * that does what the v4 one does (see `context-ledger/ai-sdk`): it records the conversation into
 * the ledger as it happens and sends the model the ledger's working set, every tool call with its
 * results, within `budget` tokens.
 */
export function ledgerMiddleware(options: LedgerMiddlewareV3Options): LanguageModelV3Middleware {
  const v4 = ledgerMiddlewareV4({
    ...options,
    ledger:
      typeof options.ledger === 'function'
        ? asV4<(params: LanguageModelV4CallOptions) => Ledger | Promise<Ledger>>(options.ledger)
        : options.ledger,
  });
  type Hook<K extends keyof LanguageModelV4Middleware> = NonNullable<LanguageModelV4Middleware[K]>;
  const transformParams = v4.transformParams as Hook<'transformParams'>;
  const wrapGenerate = v4.wrapGenerate as Hook<'wrapGenerate'>;
  const wrapStream = v4.wrapStream as Hook<'wrapStream'>;
  return {
    specificationVersion: 'v3',
    transformParams: async (o) => asV4<LanguageModelV3CallOptions>(await transformParams(asV4(o))),
    wrapGenerate: async (o) => asV4(await wrapGenerate(asV4(o))),
    wrapStream: async (o) => asV4(await wrapStream(asV4(o))),
  };
}
