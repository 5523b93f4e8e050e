/**
 * The one place that turns recognised steps into transactions. Adapters only parse their format
 * into `StepInput`s; ids, edges, revision bookkeeping and stats live here so the four adapters
 * cannot drift apart on the graph conventions the materializer and evaluator rely on.
 */

import { LIMITS } from '../schema/limits.js';
import type { EdgeInput, LineRange, NodeInput, Transaction } from '../schema/types.js';
import { fnv1aHex } from '../text/fnv1a.js';
import { isUsablePath } from './paths.js';
import type { AdaptedTrace, AdapterOptions, AdapterStats, Effect, FileKnowledge, PreImage } from './types.js';
import { wellFormedTransaction } from './well-formed.js';

/** Body of the result paired with a call that was never answered. */
export const NO_RESULT_BODY = '[no result recorded]';
/** Body of a revision inferred from a view that contradicts the known content. */
export const INFERRED_BODY = '[changed outside the recognised commands]';
/** Revision id of a file nobody in the trace has written yet. */
export const BASE_REVISION = 'base';

export interface CallInput {
  tool: string;
  /** Exact command / arguments. */
  body: string;
  /** Provider's call id (OpenAI/Anthropic), kept in meta.callId. */
  callId?: string | undefined;
  /** Undefined when no result was recorded: a placeholder result with status error is emitted. */
  result?: { body: string; error?: boolean | undefined; meta?: Record<string, string | number | boolean | null> };
  effects: Effect[];
}

export interface StepInput {
  epoch: number;
  /** Reasoning text of the turn (action body); omitted when empty. */
  thought?: string | undefined;
  calls: CallInput[];
  /** An unparseable step: its observation is kept as a plain tool result the action cites. */
  plainResult?: { body: string; meta?: Record<string, string | number | boolean | null> };
  /** Free text of the turn when it made no tool call (or a user turn). */
  messages?: Array<{ kind: 'message' | 'steering'; role: 'user' | 'assistant' | 'tool'; body: string }>;
}

interface FileState {
  revision: string;
  lines: Map<number, string>;
  total?: number | undefined;
  content?: string | undefined;
}

const splitContent = (content: string): string[] => {
  const lines = content.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/**
 * A name field (verifier, tool) the ledger accepts: no control characters, at most
 * LIMITS.maxIdChars; a longer name keeps its start plus a hash of the whole, so distinct long
 * commands stay distinct verifiers.
 */
export function ledgerName(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
  const clean = raw.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim() || 'unnamed';
  if (clean.length <= LIMITS.maxIdChars) return clean;
  return `${clean.slice(0, LIMITS.maxIdChars - 11)} #${fnv1aHex(clean)}`;
}

const validRange = (r: LineRange): boolean =>
  Number.isSafeInteger(r[0]) && Number.isSafeInteger(r[1]) && r[0] >= 1 && r[0] <= r[1];

export class TraceBuilder implements FileKnowledge {
  private readonly prefix: string;
  private readonly transactions: Transaction[] = [];
  private readonly ids = new Set<string>();
  private readonly files = new Map<string, FileState>();
  /** Paths in the order the trace first wrote them (verifiers depend on their latest revisions). */
  private readonly written: string[] = [];
  /** What was seen and skipped so far (live: it grows with every step added). */
  readonly stats: AdapterStats = { steps: 0, commands: 0, recognised: 0, byCategory: {}, warnings: [] };
  private readonly preImages: PreImage[] = [];
  private taskId: string | undefined;
  /** Steering nodes waiting for the next action they plan. */
  private pendingSteering: string[] = [];

  constructor(options: AdapterOptions = {}) {
    const p = options?.idPrefix;
    this.prefix = typeof p === 'string' ? p : '';
  }

  // ---- FileKnowledge (what recognisers may ask) ----
  lineCount(path: string): number | undefined {
    return this.files.get(path)?.total;
  }
  knownLines(path: string): ReadonlyMap<number, string> | undefined {
    return this.files.get(path)?.lines;
  }
  content(path: string): string | undefined {
    return this.files.get(path)?.content;
  }
  /** Current revision id of a path (`base` until the trace writes it). */
  revisionOf(path: string): string {
    return this.files.get(path)?.revision ?? BASE_REVISION;
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

  addStep(step: StepInput): void {
    const t = step.epoch;
    const nodes: NodeInput[] = [];
    const edges: EdgeInput[] = [];
    const edgeKeys = new Set<string>();
    const edge = (from: string, to: string, kind: EdgeInput['kind']): void => {
      const key = `${from}\u0000${to}\u0000${kind}`;
      if (edgeKeys.has(key)) return;
      edgeKeys.add(key);
      edges.push({ from, to, kind });
    };
    this.stats.steps++;

    for (const [k, m] of (step.messages ?? []).entries()) {
      const local = m.kind === 'steering' ? 'steer' : 'msg';
      const many = (step.messages ?? []).filter((x) => x.kind === m.kind).length > 1;
      const id = this.id(many ? `${local}:${t}:${k + 1}` : `${local}:${t}`);
      if (m.kind === 'steering') {
        nodes.push({ id, kind: 'steering', authority: 'user', status: 'open', role: 'user', body: m.body });
        this.pendingSteering.push(id);
        this.count('steering');
      } else {
        nodes.push({
          id,
          kind: 'message',
          authority: m.role === 'user' ? 'user' : 'agent',
          role: m.role,
          body: m.body,
        });
        this.count('message');
      }
    }

    if (step.calls.length === 0 && !step.plainResult) {
      this.transactions.push({ epoch: t, nodes: this.capBodies(t, nodes), edges });
      return;
    }

    const act: NodeInput = { id: this.id(`act:${t}`), kind: 'action', authority: 'agent', status: 'resolved' };
    const thought = step.thought?.trim();
    if (thought) act.body = thought;
    nodes.push(act);
    if (this.taskId) edge(this.taskId, act.id, 'plans');
    for (const s of this.pendingSteering) edge(s, act.id, 'plans');
    this.pendingSteering = [];

    if (step.plainResult) {
      const res: NodeInput = {
        id: this.id(`result:${t}`),
        kind: 'tool_result',
        authority: 'agent',
        status: 'error',
        body: step.plainResult.body,
      };
      if (step.plainResult.meta) res.meta = step.plainResult.meta;
      nodes.push(res);
      edge(act.id, res.id, 'cites');
    }

    const many = step.calls.length > 1;
    const verifierTotal = step.calls.reduce((n, c) => n + c.effects.filter((e) => e.kind === 'verifier').length, 0);
    let evK = 0;
    let revK = 0;
    let verK = 0;
    for (const [idx, call] of step.calls.entries()) {
      const suffix = many ? `${t}:${idx + 1}` : `${t}`;
      this.stats.commands++;
      const callNode: NodeInput = {
        id: this.id(`call:${suffix}`),
        kind: 'tool_call',
        authority: 'agent',
        status: 'terminal',
        tool: ledgerName(call.tool),
        body: call.body,
      };
      if (call.callId !== undefined) callNode.meta = { callId: call.callId };
      nodes.push(callNode);
      edge(act.id, callNode.id, 'invokes');

      const resNode: NodeInput = { id: this.id(`result:${suffix}`), kind: 'tool_result', authority: 'agent' };
      if (call.result) {
        resNode.status = call.result.error ? 'error' : 'terminal';
        resNode.body = call.result.body;
        if (call.result.meta && Object.keys(call.result.meta).length) resNode.meta = call.result.meta;
      } else {
        resNode.status = 'error';
        resNode.body = NO_RESULT_BODY;
      }
      nodes.push(resNode);
      edge(callNode.id, resNode.id, 'produces');

      let recognised = false;
      const seenViews = new Set<string>();
      for (const e of call.effects) {
        if (e.kind === 'view-uncertain') {
          this.count('view-uncertain');
          this.count(`view-uncertain:${e.reason}`);
          continue;
        }
        if (e.kind === 'view') {
          if (!isUsablePath(e.path) || !validRange(e.range) || e.lines.length !== e.range[1] - e.range[0] + 1) {
            this.warn(t, `unusable view of ${JSON.stringify(e.path)}`);
            this.count('view-uncertain');
            continue;
          }
          if (this.contradicts(e.path, e.range[0], e.lines)) {
            // The file changed in a way no recognised command explains (a script we could not
            // read, a build tool): record that a new revision exists before citing its lines.
            const id = this.id(`rev:${t}:${++revK}`);
            nodes.push({
              id,
              kind: 'artifact_revision',
              authority: 'agent',
              path: e.path,
              revision: id,
              body: INFERRED_BODY,
              meta: { inferred: true },
            });
            this.setRevision(e.path, id, undefined);
            this.count('write-inferred');
            this.warn(t, `${e.path} changed without a recognised write`);
          }
          const revision = this.revisionOf(e.path);
          const key = `${e.path}\u0000${revision}\u0000${e.range[0]}\u0000${e.range[1]}`;
          this.learn(e.path, e.range[0], e.lines, e.whole, e.total);
          if (seenViews.has(key)) continue; // the same range shown twice in one result is one fact
          seenViews.add(key);
          const ev: NodeInput = {
            id: this.id(`ev:${t}:${++evK}`),
            kind: 'evidence',
            authority: 'repo',
            path: e.path,
            range: [e.range[0], e.range[1]],
            revision,
            body: e.lines.join('\n'),
          };
          nodes.push(ev);
          edge(resNode.id, ev.id, 'cites');
          this.count('view');
          recognised = true;
          continue;
        }
        if (e.kind === 'write') {
          if (!isUsablePath(e.path)) {
            this.warn(t, `unusable write path ${JSON.stringify(e.path)}`);
            continue;
          }
          const id = this.id(`rev:${t}:${++revK}`);
          const rev: NodeInput = { id, kind: 'artifact_revision', authority: 'agent', path: e.path, revision: id };
          const changed = e.changed?.filter(validRange);
          if (e.changed && changed && changed.length === e.changed.length) {
            rev.changed = changed.map((r) => [r[0], r[1]] as const);
            this.count('write-ranged');
          }
          // A whitespace-only content (a freshly created empty file) says less than the command.
          const content = e.content !== undefined && e.content.trim().length > 0 ? e.content : null;
          rev.body = content ?? call.body;
          if (e.revert) rev.meta = { revert: true };
          // The command spells the file out whole in its own text (a here-doc, `echo … >`, an
          // editor's create): recorded on the call, which stays recognisable as authored text
          // after a later write supersedes this revision (the working set does not rank it by BM25).
          if (content !== null && call.body.includes(content))
            callNode.meta = { ...(callNode.meta ?? {}), writesWhole: true };
          if (rev.changed && rev.changed.length > 0) this.recordPreImage(t, e.path, id, rev.changed);
          nodes.push(rev);
          edge(act.id, id, 'mutates');
          edge(callNode.id, id, 'mutates');
          this.setRevision(e.path, id, e.content);
          this.count('write');
          recognised = true;
          continue;
        }
        // verifier
        const id = this.id(verifierTotal > 1 ? `ver:${t}:${++verK}` : `ver:${t}`);
        nodes.push({
          id,
          kind: 'verifier_outcome',
          authority: 'tool:bash',
          verifier: ledgerName(e.command),
          status: e.status,
        });
        edge(act.id, id, 'verified_by');
        for (const path of [...this.written].sort()) edge(this.revisionOf(path), id, 'verified_by');
        this.count('verifier');
        this.count(`verifier-${e.status}`);
        recognised = true;
      }
      if (recognised) this.stats.recognised++;
    }
    this.transactions.push({ epoch: t, nodes: this.capBodies(t, nodes), edges });
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

  /** Whether displayed lines disagree with what is known of the path's current revision. */
  private contradicts(path: string, first: number, lines: readonly string[]): boolean {
    const st = this.files.get(path);
    if (!st) return false;
    if (st.total !== undefined && first + lines.length - 1 > st.total) return true;
    return lines.some((text, i) => {
      const known = st.lines.get(first + i);
      return known !== undefined && known !== text;
    });
  }

  /** Records displayed lines of the current revision (used by later tail/str_replace reasoning). */
  private learn(path: string, first: number, lines: readonly string[], whole?: boolean, total?: number): void {
    const st = this.files.get(path) ?? { revision: BASE_REVISION, lines: new Map<number, string>() };
    this.files.set(path, st);
    lines.forEach((text, i) => {
      st.lines.set(first + i, text);
    });
    if (whole && first === 1) st.total = lines.length;
    if (total !== undefined) st.total = total;
  }

  private setRevision(path: string, revision: string, content: string | undefined): void {
    const st: FileState = { revision, lines: new Map<number, string>() };
    if (content !== undefined) {
      const lines = content === '' ? [] : splitContent(content);
      lines.forEach((text, i) => {
        st.lines.set(i + 1, text);
      });
      st.total = lines.length;
      st.content = content;
    }
    this.files.set(path, st);
    if (!this.written.includes(path)) this.written.push(path);
  }

  /** The changed lines of the current revision, when every one of them is known. */
  private recordPreImage(epoch: number, path: string, revision: string, changed: readonly LineRange[]): void {
    const known = this.files.get(path)?.lines;
    if (!known) return;
    const lines: PreImage['lines'] = [];
    for (const [a, b] of changed) {
      for (let line = a; line <= b; line++) {
        const text = known.get(line);
        if (text === undefined) return;
        lines.push({ line, text });
      }
    }
    this.preImages.push({ epoch, path, revision, lines });
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
