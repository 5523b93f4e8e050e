/**
 * What a sequence of requests costs with a provider's prompt cache on. Providers cache whole
 * messages and content blocks: a request is read from the cache up to the first block that
 * differs from the previous request of the same conversation, and the rest is written to the cache
 * (the caller marks the end of each request as a breakpoint, as agent CLIs do). Pure.
 */
import type { AnthropicBlock, AnthropicMessage } from '../../src/working-set/render-messages.js';

/** One content block with the role of its message: the unit a cache matches. */
export interface RequestBlock {
  /** An Anthropic role, or an AI SDK prompt's (`system`, `tool`) when another request shape is cut into blocks. */
  role: AnthropicMessage['role'] | 'system' | 'tool';
  /** The block without its cache marker. */
  block: AnthropicBlock;
  /** The text its tokens are counted on. */
  text: string;
}

/**
 * The blocks of an Anthropic request in order. Roles alternate, so the role sequence fixes where
 * each message starts; a `cache_control` marker says where to cache, not what, so it is not part
 * of a block's identity.
 */
export function requestBlocks(messages: readonly AnthropicMessage[]): RequestBlock[] {
  const out: RequestBlock[] = [];
  for (const m of messages) {
    for (const marked of m.content) {
      const { cache_control: _marker, ...block } = marked as AnthropicBlock & { cache_control?: unknown };
      out.push({ role: m.role, block: block as AnthropicBlock, text: blockText(block as AnthropicBlock) });
    }
  }
  return out;
}

/** What the model reads of a block: its text, a call's name and input, a result's content. */
function blockText(block: AnthropicBlock): string {
  if (block.type === 'text') return block.text;
  if (block.type === 'tool_use') return `${block.name}\n${JSON.stringify(block.input)}`;
  return block.content;
}

/** The same cached bytes: same role and same block. Texts are compared as strings (the same string
 * object, as a baseline's message text is from one request to the next, compares at once); a
 * call's name and input are in its text. */
export function sameBlock(a: RequestBlock, b: RequestBlock): boolean {
  const x = a.block as unknown as Record<string, unknown>;
  const y = b.block as unknown as Record<string, unknown>;
  if (a.role !== b.role || a.text !== b.text || x.type !== y.type) return false;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) {
    if (k === 'text' || k === 'content' || k === 'input' || k === 'name') continue;
    const u = x[k];
    const v = y[k];
    if (u !== v && (typeof u !== 'object' || JSON.stringify(u) !== JSON.stringify(v))) return false;
  }
  return true;
}

/** How many leading blocks two requests share. */
export function commonPrefixBlocks(previous: readonly RequestBlock[], next: readonly RequestBlock[]): number {
  const n = Math.min(previous.length, next.length);
  let i = 0;
  while (i < n && sameBlock(previous[i]!, next[i]!)) i++;
  return i;
}

/** Token totals of a run of requests. */
export interface CacheTally {
  requests: number;
  /** Input tokens of every request. */
  sent: number;
  /** Tokens read from the cache: each request's common prefix with the one before it. */
  cached: number;
  /** Tokens written to the cache: the rest of each request. */
  written: number;
}

export const emptyTally = (): CacheTally => ({ requests: 0, sent: 0, cached: 0, written: 0 });

/**
 * One conversation's requests in order: `send` adds a request to the tally, reading from the cache
 * the blocks it shares with the previous request.
 */
export class CacheSimulator {
  readonly tally: CacheTally = emptyTally();
  private previous: readonly RequestBlock[] = [];

  constructor(private readonly countTokens: (text: string) => number) {}

  send(blocks: readonly RequestBlock[]): { sent: number; cached: number } {
    const shared = commonPrefixBlocks(this.previous, blocks);
    let sent = 0;
    let cached = 0;
    for (const [i, b] of blocks.entries()) {
      const tokens = this.countTokens(b.text);
      sent += tokens;
      if (i < shared) cached += tokens;
    }
    this.previous = blocks;
    this.tally.requests += 1;
    this.tally.sent += sent;
    this.tally.cached += cached;
    this.tally.written += sent - cached;
    return { sent, cached };
  }
}

/** Input pricing: the model it is for, USD per million input tokens, and the cache factors. */
export interface Pricing {
  model: string;
  inputPerMillion: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Anthropic's published pricing for Claude Sonnet 4.5 input: $3/Mtok, cache reads 0.1×, writes
 * (5-minute cache) 1.25×. */
export const DEFAULT_PRICING: Pricing = {
  model: 'claude-sonnet-4-5',
  inputPerMillion: 3,
  cacheRead: 0.1,
  cacheWrite: 1.25,
};

/** Input cost in USD: cached tokens at the read factor, the rest at the write factor. */
export function costOf(tally: Pick<CacheTally, 'cached' | 'written'>, pricing: Pricing): number {
  return ((tally.cached * pricing.cacheRead + tally.written * pricing.cacheWrite) * pricing.inputPerMillion) / 1e6;
}

export function addTally(into: CacheTally, t: CacheTally): void {
  into.requests += t.requests;
  into.sent += t.sent;
  into.cached += t.cached;
  into.written += t.written;
}
