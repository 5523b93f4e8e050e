import { EDGE_JOINS } from '../schema/kinds.js';
import type { Transaction } from '../schema/types.js';
import {
  type AnthropicMessage,
  type AnthropicRenderOptions,
  type MessageShape,
  type OpenAIMessage,
  renderAnthropic,
  renderOpenAI,
} from './render-messages.js';
import type { ExplanationRecord, WorkingSetItem } from './types.js';

/** What a `cites` edge may point at: the schema's rule, so committed records always validate. */
const CITABLE: ReadonlySet<string> = new Set(EDGE_JOINS.cites.to);

/** What a WorkingSet is made of; the explanation may come as the function that builds it. */
export interface WorkingSetData {
  epoch: number;
  items: WorkingSetItem[];
  tokens: number;
  budget: { tokens: number; records?: number; chars?: number };
  graphTruncated: boolean;
  explanation: ExplanationRecord[] | (() => ExplanationRecord[]);
  session?: SessionInfo;
}

/** How a session-mode working set came about (absent in the fresh mode). */
export interface SessionInfo {
  /** `append`: the previous step's items, unchanged and in order, then this step's; `repack`: re-selected. */
  step: 'append' | 'repack';
  /** The epoch of the last re-pack. */
  repackedAt: number;
  /** How many leading items the previous step's request had, byte-identical, in the same place. */
  kept: number;
}

/** Node's hook for util.inspect (console.log), named without importing node:util. */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * A materialized working set. Plain data (items, tokens, budget, graphTruncated, explanation)
 * serialises with JSON.stringify byte-identically for the same ledger and request; the methods
 * render it or turn it into records to commit back.
 */
export class WorkingSet {
  readonly epoch: number;
  /** In the order a model should read them. */
  readonly items: WorkingSetItem[];
  /** Sum of item tokens: bodies, and references for repeated bodies. Never above budget.tokens. */
  readonly tokens: number;
  readonly budget: { tokens: number; records?: number; chars?: number };
  /** True when a closure bound (hops or nodes) cut the graph walk. */
  readonly graphTruncated: boolean;
  /** Session mode only: whether this step appended or re-packed. */
  declare readonly session?: SessionInfo;
  /**
   * One record per candidate: why it is in, or why it is out. Built when first read, then kept:
   * on a long session most records name the tens of thousands of nodes beyond the bound, and
   * naming and sorting them was about half of the JavaScript of a materialize call at 86k nodes
   * that only an audit or a person reads. It is an own enumerable property (an accessor), so
   * JSON.stringify, Object.keys and spreading see the same data, in the same place, as before;
   * console.log shows the records themselves (see INSPECT below).
   */
  declare readonly explanation: ExplanationRecord[];

  /** @internal Made by `ledger.materialize`; not part of the public API. */
  constructor(data: WorkingSetData) {
    this.epoch = data.epoch;
    this.items = data.items;
    this.tokens = data.tokens;
    this.budget = data.budget;
    this.graphTruncated = data.graphTruncated;
    if (data.session !== undefined) this.session = data.session;
    const build = data.explanation;
    let records = typeof build === 'function' ? undefined : build;
    Object.defineProperty(this, 'explanation', {
      enumerable: true,
      get: (): ExplanationRecord[] => {
        if (records === undefined) records = (build as () => ExplanationRecord[])();
        return records;
      },
    });
  }

  /** What console.log shows: the plain data, explanation included (an accessor shows as [Getter]). */
  [INSPECT](depth: number, options: object, inspect: (value: unknown, options: object) => string): string {
    if (depth < 0) return '[WorkingSet]';
    const { epoch, items, tokens, budget, graphTruncated, explanation } = this;
    return `WorkingSet ${inspect({ epoch, items, tokens, budget, graphTruncated, explanation }, { ...options, depth })}`;
  }

  /**
   * Chat messages obeying the provider's pairing rules (every tool call answered, in order), in
   * item order: each item renders from its own fields only, so consecutive session-mode working
   * sets share a byte-identical prefix. The Anthropic shape carries cache breakpoints
   * (`cache_control`) at the end of the head and of the request unless `cacheControl: false`;
   * OpenAI caches the longest common prefix by itself.
   * @example
   * ```ts
   * const ws = await ledger.materialize({ budget: { tokens: 4000 } });
   * const openai = ws.toMessages('openai'); // [{ role, content, tool_calls? }, …]
   * const anthropic = ws.toMessages('anthropic'); // alternating turns with tool_use / tool_result
   * ```
   */
  toMessages(shape: 'openai'): OpenAIMessage[];
  toMessages(shape: 'anthropic', options?: AnthropicRenderOptions): AnthropicMessage[];
  toMessages(shape: MessageShape, options?: AnthropicRenderOptions): OpenAIMessage[] | AnthropicMessage[] {
    return shape === 'openai' ? renderOpenAI(this.items) : renderAnthropic(this.items, options);
  }

  /**
   * A context audit record: a `message` node (authority `ledger`) whose body is this working set's
   * explanation, citing what was included. Commit it to keep the audit trail in the ledger.
   *
   * @example
   * ```ts
   * const ws = await ledger.materialize({ budget: { tokens: 4000 } });
   * await ledger.commit(ws.toAuditTransaction({ id: `audit:${ws.epoch}` }));
   * ```
   */
  toAuditTransaction(options: { id: string; epoch?: number }): Transaction {
    const summary = {
      epoch: this.epoch,
      tokens: this.tokens,
      budget: this.budget,
      graphTruncated: this.graphTruncated,
      explanation: this.explanation,
    };
    return {
      epoch: options.epoch ?? this.epoch,
      nodes: [
        {
          id: options.id,
          kind: 'message',
          role: 'system',
          authority: 'ledger',
          status: 'resolved',
          body: JSON.stringify(summary),
          meta: { audit: true, items: this.items.length, tokens: this.tokens },
        },
      ],
      edges: this.citable().map((i) => ({ from: options.id, to: i.id, kind: 'cites' as const })),
    };
  }

  /**
   * An exact request projection: record it *before* sending (and before the provider validates
   * the request) and the evidence it rendered is protected like evidence an open edit cites —
   * kept in later working sets — until the host marks it `resolved` with a transition.
   *
   * @example
   * ```ts
   * const ws = await ledger.materialize({ budget: { tokens: 4000 } });
   * await ledger.commit(ws.toProjectionTransaction({ id: 'request:42' }));
   * // … send ws.toMessages('anthropic'); once answered:
   * await ledger.commit({ epoch: ledger.lastEpoch, transitions: [{ id: 'request:42', status: 'resolved' }] });
   * ```
   */
  toProjectionTransaction(options: { id: string; request?: string; epoch?: number }): Transaction {
    return {
      epoch: options.epoch ?? this.epoch,
      nodes: [
        {
          id: options.id,
          kind: 'message',
          role: 'system',
          authority: 'ledger',
          status: 'open',
          meta: { projection: true, request: options.request ?? options.id, items: this.items.length },
        },
      ],
      edges: this.citable().map((i) => ({ from: options.id, to: i.id, kind: 'cites' as const })),
    };
  }

  private citable(): WorkingSetItem[] {
    return this.items.filter((i) => i.notice === undefined && CITABLE.has(i.kind));
  }
}
