/**
 * Recognises what one shell command did — file views, writes, test runs — from the command text
 * and its output. Compound commands are walked in order with their working directory (`cd x && …`);
 * a view is trusted only when its pipeline is the sole part of the command that printed anything,
 * so foreign output can never be mistaken for file lines.
 */
import { joinPath } from './paths.js';
import { isSilent, pipelineWrites } from './shell-writes.js';
import { parseShell } from './shell-parse.js';
import type { Effect, FileKnowledge, PathNormaliser, WriteEffect } from './types.js';
import { verifierKind, verifierName, verifierStatus } from './verifiers.js';
import { filterStream, type OutputLines, readView, type Stream, sourceStream } from './view-pipeline.js';

export interface ShellObservation {
  /** Output text for status checks (complete, or head + tail when elided). */
  text: string;
  lines: OutputLines;
  returncode?: number;
  timedOut?: boolean;
}

export interface ShellContext {
  /** Absolute working directory the command starts in (undefined: paths stay relative). */
  cwd?: string;
  normalise: PathNormaliser;
  files: FileKnowledge;
}

export interface ShellRecognition {
  effects: Effect[];
  /** The command is the agent's final submission (its output is the patch, not a view). */
  submit: boolean;
}

const SUBMIT = /COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT/;

/** File knowledge plus what earlier parts of the same command wrote. */
class Overlay implements FileKnowledge {
  private readonly local = new Map<string, string | undefined>();
  constructor(private readonly base: FileKnowledge) {}
  apply(w: WriteEffect): void {
    this.local.set(w.path, w.content);
  }
  lineCount(path: string): number | undefined {
    if (!this.local.has(path)) return this.base.lineCount(path);
    const c = this.local.get(path);
    if (c === undefined) return undefined;
    const n = c.split('\n').length;
    return c.endsWith('\n') ? n - 1 : n;
  }
  knownLines(path: string): ReadonlyMap<number, string> | undefined {
    if (!this.local.has(path)) return this.base.knownLines(path);
    const c = this.local.get(path);
    if (c === undefined) return undefined;
    const lines = c.split('\n');
    if (c.endsWith('\n')) lines.pop();
    return new Map(lines.map((l, i) => [i + 1, l]));
  }
  content(path: string): string | undefined {
    return this.local.has(path) ? this.local.get(path) : this.base.content(path);
  }
}

type Slot = Effect | { slot: Stream; resolve: (p: string) => string };

export function recogniseShell(command: string, obs: ShellObservation, ctx: ShellContext): ShellRecognition {
  if (SUBMIT.test(command)) return { effects: [], submit: true };
  const list = parseShell(command);
  const files = new Overlay(ctx.files);
  let cwd = ctx.cwd;
  let cwdKnown = true;
  const slots: Slot[] = [];
  let printing = 0; // pipelines that may print something
  let viewSlots = 0;

  for (const item of list.items) {
    const cmds = item.pipeline.commands;
    const first = cmds[0];
    if (!first) continue;
    const here = cwd;
    const resolve = (p: string): string => ctx.normalise(p, here);
    if (first.argv[0] === 'cd' && cmds.length === 1) {
      const target = first.argv[1];
      if (target === undefined || first.dynamic || target === '-' || target.startsWith('~')) cwdKnown = false;
      else cwd = joinPath(cwd, target);
      continue;
    }
    if (!cwdKnown) {
      // Paths after an unknowable `cd` cannot be placed; only count that views were lost.
      if (!isSilent(item.pipeline)) printing++;
      continue;
    }
    const env = { resolve, files };
    const writes = pipelineWrites(item.pipeline, env);

    const kind = verifierKind(first);
    if (kind) slots.push({ kind: 'verifier', command: verifierName(first), status: verifierStatus(kind, obs.text, obs.returncode, obs.timedOut === true) });

    let stream = sourceStream(first, { resolve, files });
    for (const c of cmds.slice(1)) stream = filterStream(stream, c, { resolve, files });
    const last = cmds[cmds.length - 1];
    const redirected = last?.redirects.some((r) => (r.fd === 1 && (r.op === '>' || r.op === '>>')) || r.op === '&>' || r.op === '&>>');
    if (stream.t !== 'none' && !redirected) {
      slots.push({ slot: stream, resolve });
      viewSlots++;
    }
    for (const w of writes) {
      slots.push(w);
      files.apply(w);
    }
    if (!isSilent(item.pipeline)) printing++;
  }

  const effects: Effect[] = [];
  const hasOutput = (obs.lines.lines ?? obs.lines.head ?? []).length > 0 || (obs.lines.tail ?? []).length > 0;
  for (const s of slots) {
    if (!('slot' in s)) {
      effects.push(s);
      continue;
    }
    const path = 'path' in s.slot ? s.slot.path : undefined;
    if (s.slot.t === 'uncertain') {
      effects.push({ kind: 'view-uncertain', path, reason: s.slot.reason });
      continue;
    }
    if (!hasOutput) continue;
    if (obs.timedOut) {
      effects.push({ kind: 'view-uncertain', path, reason: 'timed out' });
      continue;
    }
    if (obs.returncode !== undefined && obs.returncode !== 0) {
      effects.push({ kind: 'view-uncertain', path, reason: 'non-zero return code' });
      continue;
    }
    if (printing > 1 || viewSlots > 1 || list.complex) {
      effects.push({ kind: 'view-uncertain', path, reason: 'output shared by several commands' });
      continue;
    }
    const first = (obs.lines.lines ?? obs.lines.head ?? [])[0] ?? '';
    if (s.slot.t === 'plain' && /^(cat|sed|nl|head|tail|grep|awk|python\d?(\.\d+)?): /.test(first)) {
      effects.push({ kind: 'view-uncertain', path, reason: 'error output' });
      continue;
    }
    const views = readView(s.slot, obs.lines, s.resolve);
    if (typeof views === 'string') effects.push({ kind: 'view-uncertain', path, reason: views });
    else effects.push(...views);
  }
  return { effects, submit: false };
}
