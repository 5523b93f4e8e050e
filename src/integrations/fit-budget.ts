import type { Ledger } from '../ledger/ledger.js';
import type { MaterializeRequest } from '../working-set/types.js';
import type { WorkingSet } from '../working-set/working-set.js';

/** Tokens a rendering took beyond the working set's own count, learnt per session. */
export interface Reserve {
  tokens: number;
}

/**
 * The working set at the ledger's last epoch rendered by `render`, its rendering (counted by
 * `tokensOf`) within `budget.tokens - fixed`. The working set counts its items as the message
 * rendering shows them (`framing: 'messages'`: headers, tool names, inputs as JSON), so a call
 * asks for the whole limit and the session fold keeps one budget from call to call: a budget
 * that changed would start another fold and break the prompt's cached prefix. The count is item
 * by item and a tokenizer may count joined texts a token or so above their sum, so the rendering
 * is still checked: when it does not fit, what it took beyond the count is asked off the budget
 * from then on (the reserve, at least doubling while the rendering does not fit).
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
    const r: MaterializeRequest = {
      budget: { ...request.budget, tokens },
      epoch: ledger.lastEpoch,
      framing: 'messages',
    };
    if (request.authority) r.authority = request.authority;
    const rendered = render(await ledger.materialize(r));
    const total = tokensOf(rendered);
    if (total <= limit || tokens === 0) return rendered;
    reserve.tokens = Math.max(reserve.tokens + total - limit, reserve.tokens * 2);
  }
}
