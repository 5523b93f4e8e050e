import type { AgentInputItem, CallModelInputFilter, Session } from '@openai/agents-core';
import { stableJson } from '../../adapters/content.js';
import { LedgerError } from '../../errors.js';
import type { Ledger } from '../../ledger/ledger.js';
import { SessionRecorder } from '../../recorder/session-recorder.js';
import type { MaterializeRequest } from '../../working-set/types.js';
import { fitWorkingSet, type Reserve } from '../fit-budget.js';
import { repeatCounter } from '../repeat-counter.js';
import { agentInputItems, itemTokens } from './render-items.js';

export interface LedgerSessionOptions {
  /** Returned by `getSessionId`; default `ledger`. */
  sessionId?: string;
  /** Prepended to the ids the recorder writes. A session resumed after a restart takes a new one:
   * the ledger keeps the earlier records, and working sets draw on both. */
  idPrefix?: string;
}

/**
 * An Agents SDK `Session` backed by a ledger: every item added is recorded into the ledger as it
 * comes (one transaction per turn, the transcript adapters' shapes; resent items are recorded
 * once). `getItems` returns the items as the runner added them, less the working-set renderings
 * `ledgerInputFilter` gave the model (the runner persists a filter's output as the turn's input);
 * `popItem` and `clearSession` rewind that list, while the ledger, append-only, keeps what was
 * recorded. Give the model the ledger's working set rather than this history with
 * `ledgerInputFilter`.
 */
export class LedgerSession implements Session {
  readonly ledger: Ledger;
  readonly recorder: SessionRecorder;
  private readonly id: string;
  private items: AgentInputItem[] = [];
  /** Items the filter rendered from the working set, and the runner's own items it was given (as
   * canonical JSON): the runner persists a filter's output as the turn's input, and a rendering is
   * not history (see addItems). */
  private readonly rendered = new Set<string>();
  private readonly given = new Set<string>();
  /** The runner's items of the current turn not persisted yet (what a rendering replaced). */
  private turnInput: AgentInputItem[] = [];

  constructor(ledger: Ledger, options: LedgerSessionOptions = {}) {
    if (typeof ledger !== 'object' || ledger === null)
      throw new LedgerError('INVALID_OPTION', { field: 'ledger', reason: 'a Ledger' });
    this.ledger = ledger;
    this.id = options.sessionId ?? 'ledger';
    this.recorder = new SessionRecorder(ledger, { format: 'openai-agents', idPrefix: options.idPrefix });
  }

  async getSessionId(): Promise<string> {
    return this.id;
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    const items = limit === undefined ? this.items : limit > 0 ? this.items.slice(-limit) : [];
    return structuredClone(items);
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    const isRendering = (i: AgentInputItem) => {
      const key = stableJson(i);
      return this.rendered.has(key) && !this.given.has(key);
    };
    let own = items.filter((i) => !isRendering(i));
    // The runner persists what the filter returned as the turn's input: put back what it replaced.
    if (own.length < items.length) {
      own = [...this.turnInput, ...own];
      this.turnInput = [];
    }
    this.items.push(...structuredClone(own));
    await this.recorder.sync(this.items);
  }

  /** @internal The filter's record of one model call: what the runner gave, what the model got. */
  noteModelInput(given: readonly AgentInputItem[], rendered: readonly AgentInputItem[]): void {
    if (this.turnInput.length === 0) this.turnInput = structuredClone(given.slice(this.items.length));
    for (const i of given) this.given.add(stableJson(i));
    for (const i of rendered) this.rendered.add(stableJson(i));
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    return this.items.pop();
  }

  async clearSession(): Promise<void> {
    this.items = [];
  }
}

export interface LedgerInputFilterOptions {
  /** Tokens the model receives: instructions and input items (see `itemTokens`). */
  budget: number | MaterializeRequest['budget'];
  /** Authority scopes the working set may draw from; default every scope. */
  authority?: readonly string[];
}

/**
 * A `callModelInputFilter` (run option) that records the turn's input into the session's ledger
 * and gives the model the working set, rendered as input items (every function call with its
 * result), instead of the raw history.
 */
export function ledgerInputFilter(session: LedgerSession, options: LedgerInputFilterOptions): CallModelInputFilter {
  const budget = typeof options?.budget === 'number' ? { tokens: options.budget } : options?.budget;
  if (typeof budget !== 'object' || budget === null || !Number.isSafeInteger(budget.tokens) || budget.tokens < 1)
    throw new LedgerError('INVALID_OPTION', {
      field: 'budget',
      value: options?.budget,
      reason: 'a positive whole number of tokens',
    });
  const authority = options.authority ? [...options.authority] : undefined;
  const reserve: Reserve = { tokens: 0 };
  // The next call's input mostly repeats the texts of this one's rendering.
  const counter = repeatCounter((t) => session.ledger.countTokens(t));
  const count = counter.count;
  return async ({ modelData }) => {
    await session.recorder.sync(modelData.input);
    counter.nextRendering();
    const fixed = count(modelData.instructions ?? '');
    const input = await fitWorkingSet(
      session.ledger,
      { budget, authority, fixed },
      reserve,
      (ws) => agentInputItems(ws.toMessages('openai')),
      (items) => itemTokens(items, count),
    );
    session.noteModelInput(modelData.input, input);
    return { ...modelData, input };
  };
}
