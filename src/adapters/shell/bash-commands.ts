/**
 * Recognises what one shell command did — file views, writes, test runs — from the command text
 * and its output. Compound commands are walked in order with their working directory (`cd x && …`);
 * a view is trusted only when its pipeline is the sole part of the command that printed anything,
 * so foreign output can never be mistaken for file lines.
 */
import { joinPath } from '../paths.js';
import type { Effect, FileKnowledge, PathNormaliser, WriteEffect } from '../types.js';
import { parseShell, type SimpleCommand } from './shell-parse.js';
import { isSilent, pipelineWrites, printedText } from './shell-writes.js';
import type { Stream } from './stream.js';
import { verifierKind, verifierName, verifierStatus } from './verifiers.js';
import { filterStream, type OutputLines, readView, sourceStream } from './view-pipeline.js';

export interface ShellObservation {
  /** Output text for status checks (complete, or head + tail when elided). */
  text: string;
  lines: OutputLines;
  returncode?: number | undefined;
  timedOut?: boolean | undefined;
}

export interface ShellContext {
  /** Absolute working directory the command starts in (undefined: paths stay relative). */
  cwd?: string | undefined;
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

type ViewSlot = { slot: Stream; resolve: (p: string) => string; lines?: OutputLines };
type Slot = Effect | ViewSlot;

/** The lines a lone `echo` prints literally (used to split output shared with views). */
function literalEcho(cmd: SimpleCommand): string[] | undefined {
  if (cmd.argv[0] !== 'echo') return undefined;
  return printedText(cmd)?.slice(0, -1).split('\n');
}

/** Expected line count of a plain view stream, when it is fixed by the command alone. */
function fixedLength(s: Stream): number | undefined {
  if (s.t !== 'plain') return undefined;
  if (s.segments) return s.segments.reduce((n, [a, b]) => n + b - a + 1, 0);
  return s.exactLen ?? s.maxLen;
}

/**
 * Splits output that several printing pipelines share, when the parts can be told apart:
 * every part is a view of fixed length or a literal echo and the lengths add up exactly. A plain
 * view that printed fewer lines than selected (end of file) makes the sums differ, so the split
 * is never guessed.
 */
function splitByLength(
  printers: Array<{ view?: ViewSlot | undefined; literal?: string[] | undefined }>,
  lines: OutputLines,
): boolean {
  if (!lines.lines) return false;
  let want = 0;
  for (const p of printers) {
    const n = p.literal ? p.literal.length : p.view ? fixedLength(p.view.slot) : undefined;
    if (n === undefined) return false;
    want += n;
  }
  if (want !== lines.lines.length) return false;
  let k = 0;
  for (const p of printers) {
    const n = p.literal ? p.literal.length : (fixedLength((p.view as ViewSlot).slot) as number);
    const part = lines.lines.slice(k, k + n);
    if (p.literal && part.join('\n') !== p.literal.join('\n')) return false;
    if (p.view) p.view.lines = { lines: part };
    k += n;
  }
  return true;
}

/**
 * Merges views whose lines name themselves (`nl -ba`/`cat -n`/`grep -n` of one file, or
 * `grep -rn` with file names): their shared output can be read line by line without knowing
 * which pipeline printed which line.
 */
function mergeSelfNumbered(views: ViewSlot[]): Stream | undefined {
  const first = views[0]?.slot;
  if (!first) return undefined;
  if (views.every((v) => v.slot.t === 'grep' && v.slot.multi && v.slot.prefixes === 0)) {
    return { t: 'grep', multi: true, offset: 0, prefixes: 0, seps: true };
  }
  const path = 'path' in first ? first.path : undefined;
  if (path === undefined) return undefined;
  const ok = views.every((v) => {
    const x = v.slot;
    return (
      (x.t === 'numbered' || (x.t === 'grep' && !x.multi)) && x.path === path && x.offset === 0 && x.prefixes === 0
    );
  });
  return ok ? { t: 'merged', path } : undefined;
}

export function recogniseShell(command: string, obs: ShellObservation, ctx: ShellContext): ShellRecognition {
  if (SUBMIT.test(command)) return { effects: [], submit: true };
  const list = parseShell(command);
  const files = new Overlay(ctx.files);
  let cwd = ctx.cwd;
  let cwdKnown = true;
  const slots: Slot[] = [];
  const printers: Array<{ view?: ViewSlot | undefined; literal?: string[] | undefined }> = [];

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
    const silent = isSilent(item.pipeline);
    const kind = verifierKind(first);
    if (kind)
      slots.push({
        kind: 'verifier',
        command: verifierName(first),
        status: verifierStatus(kind, obs.text, obs.returncode, obs.timedOut === true),
      });
    if (!cwdKnown) {
      // Paths after an unknowable `cd` cannot be placed; the output still counts as foreign.
      if (!silent) printers.push({});
      continue;
    }
    const env = { resolve, files };
    const writes = pipelineWrites(item.pipeline, env);

    let stream = sourceStream(first, { resolve, files });
    for (const c of cmds.slice(1)) stream = filterStream(stream, c, { resolve, files });
    let view: ViewSlot | undefined;
    if (stream.t !== 'none' && !silent) {
      view = { slot: stream, resolve };
      slots.push(view);
    }
    for (const w of writes) {
      slots.push(w);
      files.apply(w);
    }
    if (!silent) printers.push(view ? { view } : { literal: cmds.length === 1 ? literalEcho(first) : undefined });
  }

  // Decide how the output maps onto the view pipelines.
  const views = slots.filter((s): s is ViewSlot => 'slot' in s && s.slot.t !== 'uncertain');
  let shared: string | undefined;
  let merged: Stream | undefined;
  if (printers.length > 1 || list.complex) {
    shared = 'output shared by several commands';
    if (!list.complex && splitByLength(printers, obs.lines)) shared = undefined;
    else if (!list.complex && printers.every((p) => p.view)) {
      merged = mergeSelfNumbered(views);
      if (merged) shared = undefined;
    }
  } else if (views[0]) views[0].lines = obs.lines;

  const effects: Effect[] = [];
  const all = obs.lines.lines ?? [...(obs.lines.head ?? []), ...(obs.lines.tail ?? [])];
  let mergedDone = false;
  for (const s of slots) {
    if (!('slot' in s)) {
      effects.push(s);
      continue;
    }
    // Nothing displayed, nothing to cite (e.g. grep without a match).
    if (all.length === 0) continue;
    const path = 'path' in s.slot ? s.slot.path : undefined;
    if (s.slot.t === 'uncertain') {
      effects.push({ kind: 'view-uncertain', path, reason: s.slot.reason });
      continue;
    }
    const fail = obs.timedOut
      ? 'timed out'
      : obs.returncode !== undefined && obs.returncode !== 0
        ? 'non-zero return code'
        : shared;
    if (fail) {
      effects.push({ kind: 'view-uncertain', path, reason: fail });
      continue;
    }
    if (merged) {
      if (mergedDone) continue;
      mergedDone = true;
      const r = readView(merged, obs.lines, s.resolve);
      if (typeof r === 'string') effects.push({ kind: 'view-uncertain', path, reason: r });
      else effects.push(...r);
      continue;
    }
    const lines = s.lines ?? { lines: [] };
    const head = (lines.lines ?? lines.head ?? [])[0] ?? '';
    if (s.slot.t === 'plain' && /^(cat|sed|nl|head|tail|grep|awk|python\d?(\.\d+)?): /.test(head)) {
      effects.push({ kind: 'view-uncertain', path, reason: 'error output' });
      continue;
    }
    const r = readView(s.slot, lines, s.resolve);
    if (typeof r === 'string') effects.push({ kind: 'view-uncertain', path, reason: r });
    else effects.push(...r);
  }
  return { effects, submit: false };
}
