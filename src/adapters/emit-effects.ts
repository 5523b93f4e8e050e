import type { LineRange, NodeInput } from '../schema/types.js';
import { ledgerName } from './ledger-name.js';
import { isUsablePath } from './paths.js';
import type { StepContext } from './step-graph.js';
import type { VerifierEffect, ViewEffect, WriteEffect } from './types.js';

/** Body of a revision inferred from a view that contradicts the known content. */
const INFERRED_BODY = '[changed outside the recognised commands]';

/** The step's per-kind ordinals, shared by its calls so ids stay unique within the step. */
export interface EffectOrdinals {
  evidence: number;
  revision: number;
  verifier: number;
  /** Verifier effects in the whole step: a lone one's id carries no ordinal. */
  readonly verifiers: number;
}

/** One call's nodes, as the effects of its command refer to them. */
export interface EmittedCall {
  readonly actionId: string;
  readonly call: NodeInput;
  /** The call's exact command text. */
  readonly command: string;
  readonly result: NodeInput;
  /** Views already cited by this call's result (path, revision, range). */
  readonly seenViews: Set<string>;
}

const validRange = (r: LineRange): boolean =>
  Number.isSafeInteger(r[0]) && Number.isSafeInteger(r[1]) && r[0] >= 1 && r[0] <= r[1];

/**
 * Lines the result displayed: evidence the result cites, at the path's current revision. Lines
 * that contradict what is known of the file first record a revision nobody was seen writing.
 * Returns whether a new fact was recognised.
 */
export function emitView(ctx: StepContext, at: EmittedCall, e: ViewEffect, n: EffectOrdinals): boolean {
  const t = ctx.epoch;
  if (!isUsablePath(e.path) || !validRange(e.range) || e.lines.length !== e.range[1] - e.range[0] + 1) {
    ctx.warn(t, `unusable view of ${JSON.stringify(e.path)}`);
    ctx.count('view-uncertain');
    return false;
  }
  if (ctx.files.contradicts(e.path, e.range[0], e.lines)) {
    // The file changed in a way no recognised command explains (a script we could not
    // read, a build tool): record that a new revision exists before citing its lines.
    const id = ctx.id(`rev:${t}:${++n.revision}`);
    ctx.graph.node({
      id,
      kind: 'artifact_revision',
      authority: 'agent',
      path: e.path,
      revision: id,
      body: INFERRED_BODY,
      meta: { inferred: true },
    });
    ctx.files.setRevision(e.path, id, undefined);
    ctx.count('write-inferred');
    ctx.warn(t, `${e.path} changed without a recognised write`);
  }
  const revision = ctx.files.revisionOf(e.path);
  const key = `${e.path}\u0000${revision}\u0000${e.range[0]}\u0000${e.range[1]}`;
  ctx.files.learn(e.path, e.range[0], e.lines, e.whole, e.total);
  if (at.seenViews.has(key)) return false; // the same range shown twice in one result is one fact
  at.seenViews.add(key);
  const ev: NodeInput = {
    id: ctx.id(`ev:${t}:${++n.evidence}`),
    kind: 'evidence',
    authority: 'repo',
    path: e.path,
    range: [e.range[0], e.range[1]],
    revision,
    body: e.lines.join('\n'),
  };
  ctx.graph.node(ev);
  ctx.graph.edge(at.result.id, ev.id, 'cites');
  ctx.count('view');
  return true;
}

/**
 * A file the command wrote: a new revision the action and the call mutate, its body the written
 * content when the command spelled it out, else the command. Returns whether a new fact was
 * recognised.
 */
export function emitWrite(ctx: StepContext, at: EmittedCall, e: WriteEffect, n: EffectOrdinals): boolean {
  const t = ctx.epoch;
  if (!isUsablePath(e.path)) {
    ctx.warn(t, `unusable write path ${JSON.stringify(e.path)}`);
    return false;
  }
  const id = ctx.id(`rev:${t}:${++n.revision}`);
  const rev: NodeInput = { id, kind: 'artifact_revision', authority: 'agent', path: e.path, revision: id };
  const changed = e.changed?.filter(validRange);
  if (e.changed && changed && changed.length === e.changed.length) {
    rev.changed = changed.map((r) => [r[0], r[1]] as const);
    ctx.count('write-ranged');
  }
  // A whitespace-only content (a freshly created empty file) says less than the command.
  const content = e.content !== undefined && e.content.trim().length > 0 ? e.content : null;
  const call = at.call;
  rev.body = content ?? at.command;
  if (e.revert) rev.meta = { revert: true };
  // The command spells the file out whole in its own text (a here-doc, `echo … >`, an
  // editor's create): recorded on the call, which stays recognisable as authored text
  // after a later write supersedes this revision (the working set does not rank it by BM25).
  if (content !== null && at.command.includes(content)) call.meta = { ...(call.meta ?? {}), writesWhole: true };
  if (rev.changed && rev.changed.length > 0) {
    const lines = ctx.files.preImageLines(e.path, rev.changed);
    if (lines) ctx.preImages.push({ epoch: t, path: e.path, revision: id, lines });
  }
  ctx.graph.node(rev);
  ctx.graph.edge(at.actionId, id, 'mutates');
  ctx.graph.edge(call.id, id, 'mutates');
  ctx.files.setRevision(e.path, id, e.content);
  ctx.count('write');
  return true;
}

/** A verifier's outcome: verified by the action and by the latest revision of every path the
 * trace has written. */
export function emitVerifier(ctx: StepContext, at: EmittedCall, e: VerifierEffect, n: EffectOrdinals): boolean {
  const t = ctx.epoch;
  const id = ctx.id(n.verifiers > 1 ? `ver:${t}:${++n.verifier}` : `ver:${t}`);
  ctx.graph.node({
    id,
    kind: 'verifier_outcome',
    authority: 'tool:bash',
    verifier: ledgerName(e.command),
    status: e.status,
  });
  ctx.graph.edge(at.actionId, id, 'verified_by');
  for (const path of ctx.files.writtenPaths()) ctx.graph.edge(ctx.files.revisionOf(path), id, 'verified_by');
  ctx.count('verifier');
  ctx.count(`verifier-${e.status}`);
  return true;
}
