import { aiSdkTurns } from '../adapters/chat/ai-sdk.js';
import { anthropicTurns } from '../adapters/chat/anthropic.js';
import { type ChatTurn, chatTrace } from '../adapters/chat/chat-steps.js';
import { openAITurn } from '../adapters/chat/openai.js';
import { openAIAgentsTurns } from '../adapters/chat/openai-agents.js';
import { isRecord, stableJson } from '../adapters/content.js';
import type { AdapterOptions, AdapterStats } from '../adapters/types.js';
import { LedgerError } from '../errors.js';
import { type Ledger, readLedger } from '../ledger/ledger.js';
import type { Receipt, Transaction } from '../schema/types.js';
import { fnv1aHex } from '../text/fnv1a.js';

/** Message shapes a recorder reads: OpenAI chat, Anthropic messages, AI SDK `ModelMessage`s / prompts,
 * OpenAI Agents SDK items (`AgentInputItem`). */
export type MessageFormat = 'openai' | 'anthropic' | 'ai-sdk' | 'openai-agents';

export interface RecorderOptions extends AdapterOptions {
  format: MessageFormat;
}

/** What one `sync` / `append` did. */
export interface RecordResult {
  /** Receipts of the transactions committed by this call, in order. */
  receipts: Receipt[];
  /** Messages that were new (not recorded before under the same key). */
  newMessages: number;
  /** True while the latest assistant turn waits for the results of its tool calls (not yet committed). */
  pending: boolean;
}

const TURNS: Record<MessageFormat, (m: unknown) => ChatTurn[]> = {
  openai: (m) => [openAITurn(m)],
  'openai-agents': openAIAgentsTurns,
  anthropic: anthropicTurns,
  'ai-sdk': aiSdkTurns,
};

/**
 * Records a live conversation into a ledger as it happens, one transaction per turn, in exactly
 * the shapes the transcript adapters write (it runs the same step assembly over the turns seen so
 * far), so a live session and the same transcript replayed with `fromOpenAI` / `fromAnthropic` /
 * `fromAISDK` give the same ledger.
 *
 * Idempotent: a message is keyed by its `id` when it has one, else by its position in the session
 * and a hash of what it says; a key recorded once is never recorded again, so frameworks may
 * resend the whole history every call. An assistant turn whose tool calls are not answered yet is
 * held back (its step would otherwise record `[no result recorded]`) until its results, or a later
 * turn, arrive. A message that cannot be parsed is recorded as a plain result with a warning in
 * `stats`; it never throws.
 *
 * After a restart, a new recorder given the whole history again commits only the steps whose
 * nodes the ledger does not hold yet. One session per ledger (or distinct `idPrefix`es for
 * sessions recorded one after another): a session's epochs are its steps, offset past whatever
 * the ledger held when the session began.
 */
export class SessionRecorder {
  readonly ledger: Ledger;
  private readonly options: RecorderOptions;
  private readonly toTurns: (m: unknown) => ChatTurn[];
  private readonly seen = new Set<string>();
  private readonly turns: ChatTurn[] = [];
  private messages = 0;
  /** Transactions of the trace already in the ledger; -1 until checked against it. */
  private committed = -1;
  private epochBase = 0;
  private latestStats: AdapterStats = { steps: 0, commands: 0, recognised: 0, byCategory: {}, warnings: [] };
  private queue: Promise<unknown> = Promise.resolve();

  constructor(ledger: Ledger, options: RecorderOptions) {
    if (!isRecord(options) || !(options.format in TURNS))
      throw new LedgerError('INVALID_OPTION', {
        field: 'format',
        value: options?.format,
        reason: Object.keys(TURNS).join(' | '),
      });
    this.ledger = ledger;
    this.options = { ...options };
    this.toTurns = TURNS[options.format];
  }

  /** What the step assembly saw and skipped so far (warnings include every unparseable message). */
  get stats(): AdapterStats {
    return this.latestStats;
  }

  /** Messages recorded so far (the next appended message's position). */
  get size(): number {
    return this.messages;
  }

  /** Records the messages of a whole history that are not recorded yet. */
  sync(history: readonly unknown[]): Promise<RecordResult> {
    if (!Array.isArray(history))
      throw new LedgerError('INVALID_REQUEST', { field: 'history', reason: 'an array of messages' });
    return this.run(() => this.take(history.map((m, i) => [m, i] as const)));
  }

  /** Records messages that follow everything recorded so far (keys count on from `size`). */
  append(messages: readonly unknown[]): Promise<RecordResult> {
    if (!Array.isArray(messages))
      throw new LedgerError('INVALID_REQUEST', { field: 'messages', reason: 'an array of messages' });
    return this.run(() => this.take(messages.map((m, i) => [m, this.messages + i] as const)));
  }

  /** The key of a message at a position: its id, else position and content hash. */
  keyOf(message: unknown, position: number): string {
    if (isRecord(message) && typeof message.id === 'string' && message.id.length > 0) return `id:${message.id}`;
    const text = stableJson(this.turnsOf(message));
    return `${position}:${text.length}:${fnv1aHex(text)}`;
  }

  private run<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private turnsOf(message: unknown): ChatTurn[] {
    try {
      return this.toTurns(message);
    } catch (e) {
      // A getter that throws, a cyclic object: kept as a plain result, never an exception.
      const reason = `unparseable message: ${e instanceof Error ? e.message : String(e)}`;
      let raw: string;
      try {
        raw = String(JSON.stringify(message));
      } catch {
        raw = String(message);
      }
      return [{ kind: 'malformed', reason, raw }];
    }
  }

  private async take(list: ReadonlyArray<readonly [unknown, number]>): Promise<RecordResult> {
    let fresh = 0;
    for (const [m, position] of list) {
      const key = this.keyOf(m, position);
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.turns.push(...this.turnsOf(m));
      this.messages++;
      fresh++;
    }
    // Nothing new, or no user turn yet (the first user turn is the task, wherever it comes).
    if ((fresh === 0 && this.committed >= 0) || !this.turns.some((t) => t.kind === 'user'))
      return { receipts: [], newMessages: fresh, pending: this.pending() };
    const { receipts, pending } = await this.flush();
    return { receipts, newMessages: fresh, pending };
  }

  /** Whether the last assistant turn with tool calls still waits for results (and nothing followed it). */
  private pending(): boolean {
    return this.openTurn() >= 0;
  }

  /**
   * The first assistant turn with a call not answered yet, when no user turn (or unparseable
   * message) followed it: its step, and every step after it, wait. Several assistant turns may
   * wait together (parallel calls arrive as one turn each in the Agents SDK's items).
   */
  private openTurn(): number {
    const answered = new Set(this.turns.flatMap((x) => (x.kind === 'result' ? [x.callId ?? '#'] : [])));
    let open = -1;
    for (let i = this.turns.length - 1; i >= 0; i--) {
      const t = this.turns[i]!;
      if (t.kind === 'malformed' || (t.kind === 'user' && t.text.trim())) break;
      if (t.kind === 'assistant' && t.calls.some((c) => !answered.has(c.id ?? '#'))) open = i;
    }
    return open;
  }

  private async flush(): Promise<{ receipts: Receipt[]; pending: boolean }> {
    const { trace, turnEpochs } = chatTrace(this.turns, this.options);
    this.latestStats = trace.stats;
    const open = this.openTurn();
    const final = open >= 0 ? (turnEpochs[open] ?? trace.transactions.length) : trace.transactions.length;
    if (this.committed < 0) await this.resume(trace.transactions);
    const receipts: Receipt[] = [];
    while (this.committed < final) {
      const tx = trace.transactions[this.committed]!;
      receipts.push(await this.ledger.commit({ ...tx, epoch: tx.epoch + this.epochBase }));
      this.committed++;
    }
    return { receipts, pending: open >= 0 };
  }

  /** First flush: which of the trace's transactions the ledger already holds, and the epoch offset. */
  private async resume(transactions: readonly Transaction[]): Promise<void> {
    const ledger = this.ledger;
    const found = await readLedger(ledger, async ({ index }) => {
      let last = -1;
      transactions.forEach((tx, i) => {
        if (tx.nodes?.some((n) => index.nodes.has(n.id))) last = i;
      });
      const task = transactions[0]?.nodes?.[0];
      const row = task ? index.nodes.get(task.id) : undefined;
      return { last, taskEpoch: row ? index.transactions[row.tx]?.epoch : undefined };
    });
    this.committed = found.last + 1;
    this.epochBase = found.taskEpoch !== undefined ? found.taskEpoch : ledger.lastTx === 0 ? 0 : ledger.lastEpoch + 1;
  }
}

/** A recorder for one live session of `ledger` (see SessionRecorder). */
export function recordSession(ledger: Ledger, options: RecorderOptions): SessionRecorder {
  return new SessionRecorder(ledger, options);
}
