/**
 * The one place that turns recognised steps into transactions. Adapters only parse their format
 * into `StepInput`s; ids, edges, revision bookkeeping and stats live here so the four adapters
 * cannot drift apart on the graph conventions the materializer and evaluator rely on. The model
 * of file contents is KnownFiles; the nodes and edges of a step are written by the emitters
 * (emit-turn.ts, emit-effects.ts).
 */

import { LIMITS } from '../schema/limits.js';
import type { NodeInput, Transaction } from '../schema/types.js';
import { type EffectOrdinals, type EmittedCall, emitVerifier, emitView, emitWrite } from './emit-effects.js';
import { emitAction, emitCall, emitMessages, emitPlainResult } from './emit-turn.js';
import { KnownFiles } from './known-files.js';
import { type StepContext, StepGraph } from './step-graph.js';
import type { CallInput, StepInput } from './step-input.js';
import type { AdaptedTrace, AdapterOptions, AdapterStats, FileKnowledge, PreImage } from './types.js';
import { wellFormedTransaction } from './well-formed.js';

export type { CallInput, StepInput } from './step-input.js';

export class TraceBuilder implements FileKnowledge {
  private readonly prefix: string;
  private readonly transactions: Transaction[] = [];
  private readonly ids = new Set<string>();
  private readonly files = new KnownFiles();
  /** What was seen and skipped so far (live: it grows with every step added). */
  readonly stats: AdapterStats = { steps: 0, commands: 0, recognised: 0, byCategory: {}, warnings: [] };
  private readonly preImages: PreImage[] = [];
  private taskId: string | undefined;
  /** Steering and request nodes waiting for the next action they plan. */
  private pendingSteering: string[] = [];
  /** Requests (open user messages) not answered yet. */
  private openRequests: string[] = [];

  constructor(options: AdapterOptions = {}) {
    const p = options?.idPrefix;
    this.prefix = typeof p === 'string' ? p : '';
  }

  // ---- FileKnowledge (what recognisers may ask) ----
  lineCount(path: string): number | undefined {
    return this.files.lineCount(path);
  }
  knownLines(path: string): ReadonlyMap<number, string> | undefined {
    return this.files.knownLines(path);
  }
  content(path: string): string | undefined {
    return this.files.content(path);
  }
  /** Current revision id of a path (`base` until the trace writes it). */
  revisionOf(path: string): string {
    return this.files.revisionOf(path);
  }

  warn(step: number, reason: string): void {
    this.stats.warnings.push({ step, reason });
  }

  count(category: string, n = 1): void {
    this.stats.byCategory[category] = (this.stats.byCategory[category] ?? 0) + n;
  }

  /** A unique prefixed id; collisions (only possible with hostile provider ids) get a suffix. */
  private id(local: string): string {
    let id = this.prefix + local;
    for (let n = 2; this.ids.has(id); n++) id = `${this.prefix}${local}~${n}`;
    this.ids.add(id);
    return id;
  }

  /** Epoch 0: the task node. Call exactly once, first. */
  task(body: string | undefined): void {
    const node: NodeInput = { id: this.id('task'), kind: 'task', authority: 'user', status: 'open' };
    if (body !== undefined && body.length > 0) node.body = body;
    else this.warn(0, 'no task text found');
    this.taskId = node.id;
    this.transactions.push({ epoch: 0, nodes: this.capBodies(0, [node]), edges: [] });
  }

  /** One step's transaction: its messages, then (when it acted) the action, its calls and
   * results, and the facts recognised in each call's command. */
  addStep(step: StepInput): void {
    const ctx = this.stepContext(step.epoch);
    this.stats.steps++;
    const { planners, requests } = emitMessages(ctx, step.messages ?? []);
    this.pendingSteering.push(...planners);
    this.openRequests.push(...requests);
    if (step.calls.length > 0 || step.plainResult) {
      const plannedBy = this.taskId ? [this.taskId, ...this.pendingSteering] : this.pendingSteering;
      const actionId = emitAction(ctx, step.thought, plannedBy);
      this.pendingSteering = [];
      if (step.plainResult) emitPlainResult(ctx, actionId, step.plainResult);
      const ordinals: EffectOrdinals = {
        evidence: 0,
        revision: 0,
        verifier: 0,
        verifiers: step.calls.reduce((n, c) => n + c.effects.filter((e) => e.kind === 'verifier').length, 0),
      };
      const many = step.calls.length > 1;
      for (const [idx, call] of step.calls.entries()) {
        this.stats.commands++;
        const emitted = emitCall(ctx, actionId, call, many ? `${step.epoch}:${idx + 1}` : `${step.epoch}`);
        const at: EmittedCall = { actionId, ...emitted, command: call.body, seenViews: new Set() };
        if (this.emitEffects(ctx, at, call, ordinals)) this.stats.recognised++;
      }
    }
    const answered = step.answers ? this.openRequests.splice(0) : [];
    this.transactions.push({
      epoch: step.epoch,
      nodes: this.capBodies(step.epoch, ctx.graph.nodes),
      edges: ctx.graph.edges,
      ...(answered.length > 0 ? { transitions: answered.map((id) => ({ id, status: 'resolved' as const })) } : {}),
    });
  }

  /** The facts of one call's command, in the order it produced them; whether any was recognised. */
  private emitEffects(ctx: StepContext, at: EmittedCall, call: CallInput, ordinals: EffectOrdinals): boolean {
    let recognised = false;
    for (const e of call.effects) {
      if (e.kind === 'view-uncertain') {
        this.count('view-uncertain');
        this.count(`view-uncertain:${e.reason}`);
      } else if (e.kind === 'view') {
        if (emitView(ctx, at, e, ordinals)) recognised = true;
      } else if (e.kind === 'write') {
        if (emitWrite(ctx, at, e, ordinals)) recognised = true;
      } else if (emitVerifier(ctx, at, e, ordinals)) recognised = true;
    }
    return recognised;
  }

  private stepContext(epoch: number): StepContext {
    return {
      epoch,
      graph: new StepGraph(),
      files: this.files,
      preImages: this.preImages,
      id: (local) => this.id(local),
      count: (category, n) => this.count(category, n),
      warn: (step, reason) => this.warn(step, reason),
    };
  }

  /**
   * The ledger rejects bodies over LIMITS.maxBodyChars; a transcript with one huge tool output
   * should still load, so such a body is cut (and the cut is reported), never the whole trace.
   */
  private capBodies(t: number, nodes: NodeInput[]): NodeInput[] {
    return nodes.map((n) => {
      if (n.body === undefined || n.body.length <= LIMITS.maxBodyChars) return n;
      this.warn(t, `body of ${n.id} cut to ${LIMITS.maxBodyChars} characters`);
      return { ...n, body: n.body.slice(0, LIMITS.maxBodyChars), meta: { ...(n.meta ?? {}), truncated: true } };
    });
  }

  /**
   * The transactions added since the last call, made well-formed: a live recorder commits them as
   * steps come, and each is checked once rather than the whole trace again.
   */
  takeTransactions(): Transaction[] {
    return this.transactions.splice(0).map((tx) => {
      const clean = wellFormedTransaction(tx);
      if (clean !== tx)
        this.warn(tx.epoch, 'text made well-formed (lone surrogates → U+FFFD, byte-order marks dropped)');
      return clean;
    });
  }

  /** The trace: the transactions not taken yet (all of them for a transcript), stats and pre-images. */
  finish(): AdaptedTrace {
    return { transactions: this.takeTransactions(), stats: this.stats, preImages: this.preImages };
  }
}
