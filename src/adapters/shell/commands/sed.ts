/**
 * `sed`: a source and a filter when it prints fixed line spans (`sed -n '10,20p'`), a writer with
 * `-i`. Its options are read once, here, for every role.
 */
import type { WriteEffect } from '../../types.js';
import { getopt } from '../getopt.js';
import { sedChangedRanges, sedPrintedSpans } from '../sed-script.js';
import type { ShellTool } from './shell-tool.js';

interface SedArgs {
  inPlace: boolean;
  /** `-n`: prints only what the script prints. */
  quiet: boolean;
  /** `-E`/`-r`: extended regular expressions. */
  extended: boolean;
  /** The script (`-e` parts joined); undefined when it comes from a file (`-f`) or is missing. */
  script: string | undefined;
  files: string[];
}

function readSed(args: readonly string[]): SedArgs {
  const o = getopt(args, {
    shortWithValue: 'efl',
    shortOptionalValue: 'i',
    longWithValue: ['expression', 'file', 'line-length'],
  });
  const scripts = o.multi.get('e') ?? o.multi.get('expression');
  const fromFile = o.flags.has('f') || o.flags.has('file');
  return {
    inPlace: o.flags.has('i') || o.flags.has('in-place'),
    quiet: o.flags.has('n') || o.flags.has('quiet') || o.flags.has('silent'),
    extended: o.flags.has('E') || o.flags.has('r') || o.flags.has('regexp-extended'),
    script: scripts ? scripts.join('\n') : fromFile ? undefined : o.positional[0],
    files: scripts || fromFile ? o.positional : o.positional.slice(1),
  };
}

export const sed: ShellTool = {
  names: ['sed'],
  source(args, ctx) {
    const s = readSed(args);
    if (s.inPlace || s.files.length === 0 || s.script === undefined) return { t: 'none' };
    const path = ctx.resolve(s.files[0] as string);
    if (s.files.length > 1) return { t: 'uncertain', path, reason: 'several files' };
    if (!s.quiet) return { t: 'uncertain', path, reason: 'sed without -n' };
    const spans = sedPrintedSpans(s.script, ctx.files.lineCount(path));
    if (!spans) return { t: 'uncertain', path, reason: 'sed script is not a fixed line span' };
    if (spans.length > 1) {
      if (spans.some((x) => x.end === undefined))
        return { t: 'uncertain', path, reason: 'sed spans to an unknown end' };
      const segments = spans.map((x) => [x.start, x.end as number] as [number, number]);
      return { t: 'plain', path, start: spans[0]?.start ?? 1, segments };
    }
    const span = spans[0] as { start: number; end?: number };
    return span.end === undefined
      ? { t: 'plain', path, start: span.start, toEnd: true }
      : { t: 'plain', path, start: span.start, maxLen: span.end - span.start + 1 };
  },
  filter(prev, args, _ctx, lose) {
    const s = readSed(args);
    if (s.files.length || s.script === undefined) return lose('sed of another file');
    if (!s.quiet) return lose('sed transforms lines');
    const spans = sedPrintedSpans(s.script);
    if (!spans) return lose('sed script is not a fixed line span');
    if (prev.t !== 'plain') return prev; // numbered lines keep their numbers through any selection
    if (spans.length !== 1 || prev.segments) return lose('several sed spans over an offset stream');
    const span = spans[0] as { start: number; end?: number };
    const start = prev.start + span.start - 1;
    const spanLen = span.end === undefined ? undefined : span.end - span.start + 1;
    const rest = prev.maxLen === undefined ? undefined : Math.max(0, prev.maxLen - (span.start - 1));
    const maxLen = spanLen === undefined ? rest : rest === undefined ? spanLen : Math.min(spanLen, rest);
    return { t: 'plain', path: prev.path, start, maxLen, toEnd: span.end === undefined ? prev.toEnd : false };
  },
  writes(args, _cmd, env) {
    const s = readSed(args);
    if (!s.inPlace) return [];
    return s.files.map((f) => {
      const path = env.resolve(f);
      const w: WriteEffect = { kind: 'write', path };
      const changed =
        s.script === undefined
          ? undefined
          : sedChangedRanges(s.script, env.files.lineCount(path), env.files.knownLines(path), s.extended);
      if (changed) w.changed = changed;
      return w;
    });
  },
  silent: (args) => readSed(args).inPlace,
};
