/**
 * What each step's request costs with a provider's prompt cache, by the replay evaluation's
 * model: providers cache whole messages and content blocks, so a request is read from the cache
 * up to the first block that differs from the previous request, and the rest is written to it
 * (reads at 0.1× the input price, writes at 1.25×). Pure and small on purpose: the library and
 * this page never import the evaluation scripts.
 */

/** One content block of a request: equal keys are equal cached bytes. */
export interface CostBlock {
  key: string;
  tokens: number;
}

/** Input-price factors of cache reads and writes (Anthropic's 5-minute cache). */
export const CACHE_READ = 0.1;
export const CACHE_WRITE = 1.25;

export interface RequestCost {
  epoch: number;
  /** Input tokens of the request. */
  sent: number;
  /** Tokens read from the cache: the blocks shared with the previous request. */
  cached: number;
  /** Tokens written to the cache: the rest. */
  written: number;
  /** The request changed a block the previous request had before its end: its cached tail is lost. */
  repacked: boolean;
  /** Input cost in units of one uncached token: cached × 0.1 + written × 1.25. */
  cost: number;
}

/** How many leading blocks two requests share. */
export function commonPrefix(previous: readonly CostBlock[], next: readonly CostBlock[]): number {
  const n = Math.min(previous.length, next.length);
  let i = 0;
  while (i < n && previous[i]!.key === next[i]!.key) i++;
  return i;
}

/** The cost of each request in order, each against the one before it. */
export function requestCosts(requests: ReadonlyArray<{ epoch: number; blocks: readonly CostBlock[] }>): RequestCost[] {
  let previous: readonly CostBlock[] = [];
  return requests.map(({ epoch, blocks }) => {
    const shared = commonPrefix(previous, blocks);
    let sent = 0;
    let cached = 0;
    blocks.forEach((b, i) => {
      sent += b.tokens;
      if (i < shared) cached += b.tokens;
    });
    const repacked = shared < previous.length;
    previous = blocks;
    const written = sent - cached;
    return { epoch, sent, cached, written, repacked, cost: cached * CACHE_READ + written * CACHE_WRITE };
  });
}

export interface RunTotal {
  sent: number;
  cached: number;
  written: number;
  repacks: number;
  cost: number;
}

export function runTotal(costs: readonly RequestCost[]): RunTotal {
  const t: RunTotal = { sent: 0, cached: 0, written: 0, repacks: 0, cost: 0 };
  for (const c of costs) {
    t.sent += c.sent;
    t.cached += c.cached;
    t.written += c.written;
    t.repacks += Number(c.repacked);
    t.cost += c.cost;
  }
  return t;
}

/** A record the recency window may hold. */
export interface WindowRecord {
  id: string;
  tokens: number;
  tx: number;
  /** Kept first, always (the task). */
  pinned: boolean;
}

/**
 * The baseline a ledger is measured against: the pinned records (the task), then the newest
 * records of the action log that fit the budget, oldest first — a sliding window over the
 * transcript. Each record is one block, keyed by its id.
 */
export function recencyWindow(records: readonly WindowRecord[], budget: number): CostBlock[] {
  const pinned = records.filter((r) => r.pinned);
  let room = budget - pinned.reduce((s, r) => s + r.tokens, 0);
  const log = records.filter((r) => !r.pinned).sort((a, b) => b.tx - a.tx || (a.id < b.id ? 1 : -1));
  const kept: WindowRecord[] = [];
  for (const r of log) {
    if (r.tokens > room) break;
    room -= r.tokens;
    kept.push(r);
  }
  return [...pinned, ...kept.reverse()].map((r) => ({ key: r.id, tokens: r.tokens }));
}
