import { aiSdkTurns } from '../adapters/chat/ai-sdk.js';
import { anthropicTurns } from '../adapters/chat/anthropic.js';
import { ChatStepAssembly, type ChatTurn } from '../adapters/chat/chat-steps.js';
import { openAITurn } from '../adapters/chat/openai.js';
import { openAIAgentsTurns } from '../adapters/chat/openai-agents.js';
import { isRecord } from '../adapters/content.js';
import type { AdapterOptions, AdapterStats } from '../adapters/types.js';
import { LedgerError } from '../errors.js';
import { type Ledger, readLedger } from '../ledger/ledger.js';
import type { Receipt, Transaction } from '../schema/types.js';
import { RecordedMessages } from './recorded-messages.js';

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
 * the shapes the transcript adapters write (it feeds the same step assembly one turn after
 * another), so a live session and the same transcript replayed with `fromOpenAI` /
 * `fromAnthropic` / `fromAISDK` give the same ledger. A call costs work in proportion to its new
 * messages: the assembly keeps its state between calls, and resent messages are only compared.
 *
 * Idempotent: a message is known by its `id` when it has one, else by its position in the session
 * and what it says (see RecordedMessages); a message recorded once is never recorded again, so
 * frameworks may resend the whole history every call. An assistant turn whose tool calls are not
 * answered yet is held back (its step would otherwise record `[no result recorded]`) until its
 * results, or a later user turn, arrive; a result that comes after that user turn finds its step
 * already committed. A message that cannot be parsed is recorded as a plain result with a warning
 * in `stats`; it never throws.
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
  private readonly recorded = new RecordedMessages();
  private readonly assembly: ChatStepAssembly;
  /** Call ids that have a result turn ('#' for a result without an id). */
  private readonly answered = new Set<string>();
  private messages = 0;
  /** False until the first flush has checked which of its transactions the ledger holds. */
  private resumed = false;
  /** Transactions emitted and not committed yet (a failed commit is retried on the next flush). */
  private readonly unsent: Transaction[] = [];
  private epochBase = 0;
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
    this.assembly = new ChatStepAssembly(this.options);
  }

  /** What the step assembly saw and skipped so far (warnings include every unparseable message). */
  get stats(): AdapterStats {
    return this.assembly.stats;
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
      const turns = this.recorded.record(m, position, (x) => this.turnsOf(x));
      if (!turns) continue;
      for (const t of turns) if (t.kind === 'result') this.answered.add(t.callId ?? '#');
      this.assembly.add(turns);
      this.messages++;
      fresh++;
    }
    // Nothing new, or no user turn yet (the first user turn is the task, wherever it comes).
    if ((fresh === 0 && this.resumed && this.unsent.length === 0) || !this.assembly.hasTask)
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
   * wait together (parallel calls arrive as one turn each in the Agents SDK's items). Emitted
   * turns are answered or followed by a user turn, and stay so, so only the rest is scanned.
   */
  private openTurn(): number {
    let open = -1;
    for (let i = this.assembly.size - 1; i >= this.assembly.emittedTurns; i--) {
      const t = this.assembly.turn(i);
      if (t.kind === 'malformed' || (t.kind === 'user' && t.text.trim())) break;
      if (t.kind === 'assistant' && t.calls.some((c) => !this.answered.has(c.id ?? '#'))) open = i;
    }
    return open;
  }

  private async flush(): Promise<{ receipts: Receipt[]; pending: boolean }> {
    const open = this.openTurn();
    this.assembly.emitUntil(open >= 0 ? open : this.assembly.size);
    this.unsent.push(...this.assembly.takeTransactions());
    if (!this.resumed) await this.resume();
    const receipts: Receipt[] = [];
    for (let tx = this.unsent[0]; tx !== undefined; tx = this.unsent[0]) {
      receipts.push(await this.ledger.commit({ ...tx, epoch: tx.epoch + this.epochBase }));
      this.unsent.shift();
    }
    return { receipts, pending: open >= 0 };
  }

  /** First flush: drops the transactions the ledger already holds, and finds the epoch offset. */
  private async resume(): Promise<void> {
    const ledger = this.ledger;
    const transactions = this.unsent;
    const found = await readLedger(ledger, async ({ index }) => {
      let last = -1;
      transactions.forEach((tx, i) => {
        if (tx.nodes?.some((n) => index.nodes.has(n.id))) last = i;
      });
      const task = transactions[0]?.nodes?.[0];
      const row = task ? index.nodes.get(task.id) : undefined;
      return { last, taskEpoch: row ? index.transactions[row.tx]?.epoch : undefined };
    });
    transactions.splice(0, found.last + 1);
    this.epochBase = found.taskEpoch !== undefined ? found.taskEpoch : ledger.lastTx === 0 ? 0 : ledger.lastEpoch + 1;
    this.resumed = true;
  }
}

/** A recorder for one live session of `ledger` (see SessionRecorder). */
export function recordSession(ledger: Ledger, options: RecorderOptions): SessionRecorder {
  return new SessionRecorder(ledger, options);
}
