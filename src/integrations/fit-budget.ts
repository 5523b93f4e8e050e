import type { Ledger } from '../ledger/ledger.js';
import type { MaterializeRequest } from '../working-set/types.js';
import type { WorkingSet } from '../working-set/working-set.js';

/** Tokens a rendering adds beyond the working set's own count, learnt per session. */
export interface Reserve {
  tokens: number;
}

/**
 * The working set at the ledger's last epoch rendered by `render`, its rendering (counted by
 * `tokensOf`) within `budget.tokens - fixed`. The rendering adds headers and call framing that
 * the working set's own count leaves out, so the reserve those took last time is asked off the
 * budget up front (a call usually materializes once), and grows, at least doubling, while the
 * rendering does not fit.
 */
export async function fitWorkingSet<T>(
  ledger: Ledger,
  request: { budget: MaterializeRequest['budget']; authority?: readonly string[] | undefined; fixed: number },
  reserve: Reserve,
  render: (ws: WorkingSet) => T,
  tokensOf: (rendered: T) => number,
): Promise<T> {
  const limit = request.budget.tokens - request.fixed;
  for (;;) {
    const tokens = Math.max(0, limit - reserve.tokens);
    const r: MaterializeRequest = { budget: { ...request.budget, tokens }, epoch: ledger.lastEpoch };
    if (request.authority) r.authority = request.authority;
    const rendered = render(await ledger.materialize(r));
    const total = tokensOf(rendered);
    if (total <= limit || tokens === 0) return rendered;
    reserve.tokens = Math.max(reserve.tokens + total - limit, reserve.tokens * 2);
  }
}
