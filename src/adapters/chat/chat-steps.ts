/**
 * Shared step assembly for chat transcripts (OpenAI, Anthropic, AI SDK and Agents SDK shapes). Each
 * provider parser flattens its messages into `ChatTurn`s; this module pairs tool calls with results
 * by id as turns arrive (a result pairs with an earlier call), emits one step per assistant turn
 * and per later user message, and recognises views/writes/verifiers in bash-like and editor-like
 * tools (chat-tool-effects.ts).
 *
 * Steering rule: a user message after the task is a `steering` node when it reads as an
 * instruction about how to work — it starts with, or contains, a directive cue (see STEERING:
 * "please", "don't", "instead", "make sure", "you should", "stop", "use", …); otherwise it is a
 * request: an open `message` (role user) that the next assistant reply without tool calls answers
 * (it is then resolved). A steering node `plans` the next action. It stays open only when it is
 * standing — it says how to work from now on (see STANDING: "always", "never", "don't", "avoid",
 * "from now on", "instead of", …); a one-off instruction ("Please run the full suite") is answered
 * like a request: kept open, every instruction of a long chat would stay in the working set's head
 * and, under a small budget, crowd out the tool result the model has just received.
 */

import { makeNormaliser, rootsOf } from '../paths.js';
import { type CallInput, TraceBuilder } from '../trace-builder.js';
import type { AdaptedTrace, AdapterOptions, AdapterStats, Effect } from '../types.js';
import { callBody, toolEffects } from './chat-tool-effects.js';
import type { ChatCall, ChatTurn } from './chat-turns.js';

export type { ChatCall, ChatTurn } from './chat-turns.js';

const STEERING =
  /^\s*(?:please|pls|don'?t|do not|stop|instead|use|make sure|remember|always|never|only|focus|avoid|try|no[,.!]|wait|also|keep|switch|revert|undo|skip|ignore|prefer)\b|\b(?:you (?:must|should|need to)|make sure|instead of|don'?t|do not|from now on|rather than)\b/i;

const STANDING =
  /\b(?:always|never|from now on|going forward|don'?t|do not|avoid|prefer|remember|make sure|instead of|rather than|only)\b/i;

/** Whether a later user message is a steering instruction (see module comment). @internal Exported for its unit tests. */
export const isSteering = (text: string): boolean => STEERING.test(text);

/** Whether a steering instruction holds beyond the turn (see module comment). @internal Exported for its unit tests. */
export const isStanding = (text: string): boolean => STANDING.test(text);

/**
 * Step assembly over a growing list of turns. Results are paired with their calls as turns are
 * added (pairing looks only at earlier turns, so it never changes when later turns come), and
 * steps are emitted in turn order up to a frontier the caller picks. A transcript adapter adds
 * every turn and emits them all; the live recorder emits a step once its results are in, and the
 * builder's state (file knowledge, minted ids, epochs) carries over, so a new turn costs only its
 * own work. Both run this one code path: a live session and its replay cannot drift apart.
 */
export class ChatStepAssembly {
  private readonly builder: TraceBuilder;
  private readonly normalise: ReturnType<typeof makeNormaliser>;
  private readonly turns: ChatTurn[] = [];
  /** Call id → index of the assistant turn that made it. */
  private readonly callOwner = new Map<string, number>();
  private readonly resultFor = new Map<string, { text: string; isError: boolean }>();
  private readonly orphanAt = new Set<number>();
  /** Calls without an id that no result answered yet, in call order. */
  private readonly pendingNoId: Array<{ call: ChatCall; key: string }> = [];
  private taskIdx = -1;
  private taskWritten = false;
  private emitted = 0;
  private epoch = 0;

  constructor(options: AdapterOptions) {
    this.builder = new TraceBuilder(options);
    this.normalise = makeNormaliser(rootsOf(options));
  }

  /** Turns added so far. */
  get size(): number {
    return this.turns.length;
  }

  /** Turns whose steps are emitted (they no longer change). */
  get emittedTurns(): number {
    return this.emitted;
  }

  /** Whether a user turn (the task) was added. */
  get hasTask(): boolean {
    return this.taskIdx >= 0;
  }

  /** What the step assembly saw and skipped in the steps emitted so far. */
  get stats(): AdapterStats {
    return this.builder.stats;
  }

  turn(index: number): ChatTurn {
    return this.turns[index]!;
  }

  /** Appends turns and pairs their tool results with earlier calls (by id, else by name and order). */
  add(turns: readonly ChatTurn[]): void {
    for (const t of turns) {
      const i = this.turns.push(t) - 1;
      if (this.taskIdx < 0 && t.kind === 'user') this.taskIdx = i;
      if (t.kind === 'assistant') {
        t.calls.forEach((c, k) => {
          const key = c.id ?? `#${i}:${k}`;
          if (c.id === undefined) this.pendingNoId.push({ call: c, key });
          else if (!this.callOwner.has(key)) this.callOwner.set(key, i);
        });
      } else if (t.kind === 'result') this.pair(t, i);
    }
  }

  private pair(t: Extract<ChatTurn, { kind: 'result' }>, i: number): void {
    let key: string | undefined;
    if (t.callId !== undefined && this.callOwner.has(t.callId) && !this.resultFor.has(t.callId)) key = t.callId;
    else if (t.callId === undefined) {
      // The earliest id-less call still unanswered; an answered one leaves the list for good.
      const k = this.pendingNoId.findIndex((x) => t.name === undefined || x.call.name === t.name);
      if (k >= 0) key = this.pendingNoId.splice(k, 1)[0]!.key;
    }
    if (key === undefined) this.orphanAt.add(i);
    else this.resultFor.set(key, { text: t.text, isError: t.isError });
  }

  /**
   * Emits the steps of the turns before `end` not emitted yet. The first call writes the task: the
   * first user turn added so far, so call it once that turn is in (a transcript has all its turns).
   */
  emitUntil(end: number): void {
    if (!this.taskWritten) {
      const task = this.taskIdx >= 0 ? (this.turns[this.taskIdx] as { text: string }).text : '';
      this.builder.task(task.trim() || undefined);
      this.taskWritten = true;
    }
    const stop = Math.min(end, this.turns.length);
    for (; this.emitted < stop; this.emitted++) this.emit(this.turns[this.emitted]!, this.emitted);
  }

  /** Transactions emitted since the last call, made well-formed. */
  takeTransactions(): AdaptedTrace['transactions'] {
    return this.builder.takeTransactions();
  }

  /** Emits every turn; the trace of the transactions not taken yet. */
  finish(): AdaptedTrace {
    this.emitUntil(this.turns.length);
    return this.builder.finish();
  }

  private emit(t: ChatTurn, i: number): void {
    const b = this.builder;
    if (t.kind === 'skip' || i === this.taskIdx) return;
    if (t.kind === 'malformed') {
      // Unparseable: kept as a plain result so nothing of the transcript is silently lost.
      const epoch = ++this.epoch;
      b.warn(epoch, t.reason);
      b.count('malformed');
      b.addStep({ epoch, calls: [], plainResult: { body: t.raw, meta: { unparsed: true } } });
      return;
    }
    if (t.kind === 'user') {
      if (!t.text.trim()) return; // an empty user turn says nothing
      const message = isSteering(t.text)
        ? { kind: 'steering' as const, role: 'user' as const, body: t.text, standing: isStanding(t.text) }
        : { kind: 'request' as const, role: 'user' as const, body: t.text };
      b.addStep({ epoch: ++this.epoch, calls: [], messages: [message] });
      return;
    }
    if (t.kind === 'result') {
      if (!this.orphanAt.has(i)) return;
      const epoch = ++this.epoch;
      b.warn(epoch, `tool result without a matching call${t.callId ? ` (${t.callId})` : ''}`);
      b.count('orphan-result');
      b.addStep({ epoch, calls: [], messages: [{ kind: 'message', role: 'tool', body: t.text }] });
      return;
    }
    const epoch = ++this.epoch;
    if (t.calls.length === 0) {
      if (t.text.trim())
        b.addStep({
          epoch,
          calls: [],
          messages: [{ kind: 'message', role: 'assistant', body: t.text }],
          answers: true,
        });
      else {
        b.warn(epoch, 'empty assistant message');
        b.addStep({ epoch, calls: [] });
      }
      return;
    }
    const calls: CallInput[] = t.calls.map((c, k) => {
      const res = this.resultFor.get(c.id ?? `#${i}:${k}`);
      if (!res) {
        b.warn(epoch, `call ${c.id ?? c.name} has no result`);
        b.count('no-result');
      }
      let effects: Effect[] = [];
      try {
        effects = toolEffects(c, res?.text, b, this.normalise);
      } catch (err) {
        b.warn(epoch, `recogniser failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!effects.some((e) => e.kind !== 'view-uncertain')) b.count('other');
      const call: CallInput = { tool: c.name || 'unknown', body: callBody(c), effects };
      if (c.id !== undefined) call.callId = c.id;
      if (res) call.result = { body: res.text, error: res.isError };
      return call;
    });
    b.addStep({ epoch, thought: t.text, calls });
  }
}

/** Emits the trace for flattened chat turns. */
export function buildChatTrace(turns: readonly ChatTurn[], options: AdapterOptions): AdaptedTrace {
  const assembly = new ChatStepAssembly(options);
  assembly.add(turns);
  return assembly.finish();
}
