import { LedgerError } from '../../errors.js';

type AiModule = typeof import('ai');

let ai: Promise<AiModule> | null = null;

/**
 * The AI SDK (`ai`), an optional peer loaded on first use so no other entry pulls it in. The
 * specifier stays literal so wrangler's bundler finds it; a missing package is DEPENDENCY_MISSING
 * naming it.
 */
export function loadAi(): Promise<AiModule> {
  ai ??= import('ai');
  return ai.catch((cause: unknown) => {
    ai = null;
    throw new LedgerError(
      'DEPENDENCY_MISSING',
      { package: 'ai', reason: 'context-ledger/cloudflare-agents wraps the model with ai: npm install ai' },
      cause,
    );
  });
}
