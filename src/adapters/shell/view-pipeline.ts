/**
 * File views in shell pipelines. A pipeline is read as a *stream* whose lines have a known
 * relation to file lines — numbered by the tool (`nl -ba`, `cat -n`, `grep -n`) or offset from a
 * known start (`sed -n 'a,bp'`, `head`, `tail -n +k`) — and each later stage either only selects
 * lines (keeps the relation) or transforms them (loses it). Only when the relation survives to the
 * end are the displayed lines evidence; otherwise the view is reported as uncertain.
 */

import type { FileKnowledge, ViewEffect } from '../types.js';
import { getopt } from './getopt.js';
import { pythonPrintedFile } from './python-code.js';
import { sedPrintedSpans } from './sed-script.js';
import type { SimpleCommand } from './shell-parse.js';

export type Stream =
  /** Lines carry their own file line number (`   12\ttext`), after `prefixes` grep `N:` prefixes. */
  | { t: 'numbered'; path: string; offset: number; prefixes: number; seps: boolean }
  /** Output line i is file line start + i. */
  | {
      t: 'plain';
      path: string;
      start: number;
      /** At most this many lines were selected (a longer output means foreign lines). */
      maxLen?: number | undefined;
      /** Exactly this many lines are expected (tail with a known file length). */
      exactLen?: number | undefined;
      /** The output runs to the end of the file (file length becomes known). */
      toEnd?: boolean | undefined;
      /** The whole file is shown from line 1. */
      whole?: boolean | undefined;
      /** `print()` added one newline after the file's own. */
      extraNewline?: boolean | undefined;
      /** Several disjoint spans printed back to back (`sed -n '1,5p;20,30p'`); needs exact lengths. */
      segments?: Array<[number, number]> | undefined;
    }
  /** `grep -n` output: `N:text`/`N-text`, or `path:N:text` when `multi`. */
  | { t: 'grep'; path?: string | undefined; multi: boolean; offset: number; prefixes: number; seps: boolean }
  /** Several numbered/`grep -n` views of one file sharing one output (lines name themselves). */
  | { t: 'merged'; path: string }
  | { t: 'uncertain'; path?: string | undefined; reason: string }
  | { t: 'none' };

export interface ViewContext {
  /** Repository-relative path of a path written in the command (cwd applied). */
  resolve(path: string): string;
  files: FileKnowledge;
}

const GREP_VALUE = 'efmABCdD';
const GREP_LONG_VALUE = [
  'regexp',
  'file',
  'max-count',
  'after-context',
  'before-context',
  'context',
  'include',
  'exclude',
  'exclude-dir',
  'color',
  'colour',
  'label',
];

interface GrepArgs {
  search: boolean; // -l -L -c -q: prints no lines
  partial: boolean; // -o
  numbered: boolean;
  recursive: boolean;
  withName?: boolean | undefined;
  noName: boolean;
  seps: boolean;
  files: string[];
}

function readGrep(args: readonly string[]): GrepArgs {
  const o = getopt(args, { shortWithValue: GREP_VALUE, longWithValue: GREP_LONG_VALUE, numericAs: 'C' });
  const has = (...k: string[]): boolean => k.some((x) => o.flags.has(x));
  const explicitPattern = has('e', 'f', 'regexp', 'file');
  const files = explicitPattern ? o.positional : o.positional.slice(1);
  return {
    search: has('l', 'L', 'c', 'q', 'files-with-matches', 'files-without-match', 'count', 'quiet', 'silent'),
    partial: has('o', 'only-matching'),
    numbered: has('n', 'line-number'),
    recursive: has('r', 'R', 'recursive', 'dereference-recursive'),
    withName: has('H', 'with-filename') ? true : undefined,
    noName: has('h', 'no-filename'),
    seps: has('A', 'B', 'C', 'after-context', 'before-context', 'context'),
    files,
  };
}

/** `-n K`, `-K`, `--lines=K` of head/tail. */
function countArg(args: readonly string[]): {
  n?: string | undefined;
  bytes: boolean;
  files: string[];
  follow: boolean;
} {
  // `tail +5 f` is the old spelling of `tail -n +5 f`; `-n +5` already carries its flag.
  const norm = args.map((a, i) => (/^\+\d+$/.test(a) && !/^(-n|--lines)$/.test(args[i - 1] ?? '') ? `-n${a}` : a));
  const o = getopt(norm, { shortWithValue: 'nc', longWithValue: ['lines', 'bytes'], numericAs: 'n' });
  return {
    n: o.flags.get('n') ?? o.flags.get('lines'),
    bytes: o.flags.has('c') || o.flags.has('bytes'),
    files: o.positional,
    follow: o.flags.has('f') || o.flags.has('F') || o.flags.has('follow'),
  };
}

/** Stage 1: a command that reads a file and prints (some of) its lines. `none` if it is not a view. */
export function sourceStream(cmd: SimpleCommand, ctx: ViewContext): Stream {
  const [name, ...args] = cmd.argv;
  if (!name) return { t: 'none' };
  if (cmd.dynamic) return viewLike(name) ? { t: 'uncertain', reason: 'dynamic arguments' } : { t: 'none' };
  switch (name) {
    case 'cat': {
      const o = getopt(args);
      const files = o.positional.filter((f) => f !== '-');
      if (files.length === 0 || o.positional.includes('-')) return { t: 'none' };
      const path = ctx.resolve(files[0] as string);
      if (files.length > 1) return { t: 'uncertain', path, reason: 'several files' };
      if ([...o.flags.keys()].some((k) => k !== 'n' && k !== 'number'))
        return { t: 'uncertain', path, reason: 'cat options transform lines' };
      if (o.flags.has('n') || o.flags.has('number'))
        return { t: 'numbered', path, offset: 0, prefixes: 0, seps: false };
      return { t: 'plain', path, start: 1, whole: true, toEnd: true };
    }
    case 'nl': {
      const o = getopt(args, NL_OPTIONS);
      if (o.positional.length !== 1)
        return o.positional.length ? { t: 'uncertain', reason: 'several files' } : { t: 'none' };
      return nlStream(o, ctx.resolve(o.positional[0] as string), 1);
    }
    case 'sed': {
      const o = getopt(args, {
        shortWithValue: 'efl',
        shortOptionalValue: 'i',
        longWithValue: ['expression', 'file', 'line-length'],
      });
      if (o.flags.has('i') || o.flags.has('in-place')) return { t: 'none' };
      const scripts = o.multi.get('e') ?? o.multi.get('expression');
      const script = scripts ? scripts.join('\n') : o.positional[0];
      const files = scripts ? o.positional : o.positional.slice(1);
      if (files.length === 0 || script === undefined) return { t: 'none' };
      const path = ctx.resolve(files[0] as string);
      if (files.length > 1) return { t: 'uncertain', path, reason: 'several files' };
      if (!(o.flags.has('n') || o.flags.has('quiet') || o.flags.has('silent')))
        return { t: 'uncertain', path, reason: 'sed without -n' };
      const total = ctx.files.lineCount(path);
      const spans = sedPrintedSpans(script, total);
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
    }
    case 'head': {
      const c = countArg(args);
      if (c.files.length === 0) return { t: 'none' };
      const path = ctx.resolve(c.files[0] as string);
      if (c.files.length > 1) return { t: 'uncertain', path, reason: 'several files' };
      if (c.bytes) return { t: 'uncertain', path, reason: 'head -c' };
      const n = c.n ?? '10';
      if (n.startsWith('-')) return { t: 'plain', path, start: 1 };
      if (!/^\d+$/.test(n)) return { t: 'uncertain', path, reason: 'head count' };
      return { t: 'plain', path, start: 1, maxLen: Number(n) };
    }
    case 'tail': {
      const c = countArg(args);
      if (c.files.length === 0) return { t: 'none' };
      const path = ctx.resolve(c.files[0] as string);
      if (c.files.length > 1) return { t: 'uncertain', path, reason: 'several files' };
      if (c.bytes || c.follow) return { t: 'uncertain', path, reason: 'tail -c/-f' };
      const n = c.n ?? '10';
      if (/^\+\d+$/.test(n)) return { t: 'plain', path, start: Math.max(1, Number(n.slice(1))), toEnd: true };
      if (!/^\d+$/.test(n)) return { t: 'uncertain', path, reason: 'tail count' };
      const total = ctx.files.lineCount(path);
      if (total === undefined) return { t: 'uncertain', path, reason: 'tail without a known file length' };
      const k = Math.min(Number(n), total);
      return { t: 'plain', path, start: total - k + 1, exactLen: k, toEnd: true };
    }
    case 'grep':
    case 'egrep':
    case 'fgrep': {
      const g = readGrep(args);
      if (g.files.length === 0 && !g.recursive) return { t: 'none' };
      if (g.search) return { t: 'none' };
      const single = g.files.length === 1 && !g.recursive && g.withName === undefined;
      const path = single ? ctx.resolve(g.files[0] as string) : undefined;
      if (g.partial) return { t: 'uncertain', path, reason: 'grep -o' };
      if (!g.numbered) return { t: 'uncertain', path, reason: 'grep without -n' };
      if (single) return { t: 'grep', path, multi: false, offset: 0, prefixes: 0, seps: g.seps };
      if (g.noName) return { t: 'uncertain', reason: 'grep -h over several files' };
      return { t: 'grep', multi: true, offset: 0, prefixes: 0, seps: g.seps };
    }
    case 'awk': {
      const span = awkSpan(args);
      if (!span) return args.length >= 2 ? { t: 'uncertain', reason: 'awk program' } : { t: 'none' };
      return { t: 'plain', path: ctx.resolve(span.file), start: span.start, maxLen: span.end - span.start + 1 };
    }
    default: {
      if (/^python(\d(\.\d+)?)?$/.test(name)) {
        const c = args.indexOf('-c');
        if (c < 0 || c + 1 >= args.length) return { t: 'none' };
        const file = pythonPrintedFile(args[c + 1] as string);
        if (!file) return { t: 'none' };
        return { t: 'plain', path: ctx.resolve(file), start: 1, whole: true, toEnd: true, extraNewline: true };
      }
      return { t: 'none' };
    }
  }
}

const viewLike = (name: string): boolean =>
  ['cat', 'nl', 'sed', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'awk'].includes(name);

function nlStream(o: ReturnType<typeof getopt>, path: string, base: number): Stream {
  const body = o.flags.get('b') ?? o.flags.get('body-numbering') ?? 't';
  if (body !== 'a') return { t: 'uncertain', path, reason: 'nl numbers non-empty lines only (use -ba)' };
  const sep = o.flags.get('s') ?? o.flags.get('number-separator');
  if (sep !== undefined && sep !== '\t') return { t: 'uncertain', path, reason: 'nl separator' };
  const inc = o.flags.get('i') ?? o.flags.get('line-increment') ?? '1';
  if (inc !== '1') return { t: 'uncertain', path, reason: 'nl increment' };
  const v = Number(o.flags.get('v') ?? o.flags.get('starting-line-number') ?? '1');
  if (!Number.isSafeInteger(v)) return { t: 'uncertain', path, reason: 'nl start' };
  return { t: 'numbered', path, offset: base - 1 - (v - 1), prefixes: 0, seps: false };
}

/** `awk 'NR>=a && NR<=b' f`, `awk 'NR==a,NR==b' f`. */
function awkSpan(args: readonly string[]): { start: number; end: number; file: string } | undefined {
  if (args.length !== 2) return undefined;
  const [prog, file] = args as [string, string];
  const m =
    /^\s*NR\s*>=\s*(\d+)\s*&&\s*NR\s*<=\s*(\d+)\s*$/.exec(prog) ??
    /^\s*NR\s*==\s*(\d+)\s*,\s*NR\s*==\s*(\d+)\s*$/.exec(prog);
  if (!m) return undefined;
  const start = Number(m[1]);
  const end = Number(m[2]);
  return end >= start && start >= 1 ? { start, end, file } : undefined;
}

/** Stage 2+: how a filter transforms the stream. */
export function filterStream(prev: Stream, cmd: SimpleCommand, ctx: ViewContext): Stream {
  if (prev.t === 'none' || prev.t === 'uncertain' || prev.t === 'merged') return prev;
  const path = prev.path;
  const lose = (reason: string): Stream => ({ t: 'uncertain', path, reason });
  const [name, ...args] = cmd.argv;
  if (!name) return lose('empty stage');
  if (prev.t === 'plain' && prev.segments) return lose('filter over several sed spans');
  if (cmd.dynamic) return lose('dynamic arguments');
  switch (name) {
    case 'cat':
    case 'less':
    case 'more': {
      const o = getopt(args);
      if (o.positional.length) return lose('cat of another file');
      if (o.flags.size === 0) return prev;
      if (o.flags.size === 1 && (o.flags.has('n') || o.flags.has('number')) && prev.t === 'plain') {
        return { t: 'numbered', path: prev.path, offset: prev.start - 1, prefixes: 0, seps: false };
      }
      return lose('cat options transform lines');
    }
    case 'nl': {
      const o = getopt(args, NL_OPTIONS);
      if (prev.t !== 'plain' || o.positional.length) return lose('nl over numbered lines');
      return nlStream(o, prev.path, prev.start);
    }
    case 'sed': {
      const o = getopt(args, {
        shortWithValue: 'efl',
        shortOptionalValue: 'i',
        longWithValue: ['expression', 'file', 'line-length'],
      });
      const scripts = o.multi.get('e') ?? o.multi.get('expression');
      const script = scripts ? scripts.join('\n') : o.positional[0];
      const files = scripts ? o.positional : o.positional.slice(1);
      if (files.length || script === undefined) return lose('sed of another file');
      if (!(o.flags.has('n') || o.flags.has('quiet') || o.flags.has('silent'))) return lose('sed transforms lines');
      const spans = sedPrintedSpans(script);
      if (!spans) return lose('sed script is not a fixed line span');
      if (prev.t !== 'plain') return prev; // numbered lines keep their numbers through any selection
      if (spans.length !== 1 || prev.segments) return lose('several sed spans over an offset stream');
      const span = spans[0] as { start: number; end?: number };
      const start = prev.start + span.start - 1;
      const spanLen = span.end === undefined ? undefined : span.end - span.start + 1;
      const rest = prev.maxLen === undefined ? undefined : Math.max(0, prev.maxLen - (span.start - 1));
      const maxLen = spanLen === undefined ? rest : rest === undefined ? spanLen : Math.min(spanLen, rest);
      return { t: 'plain', path: prev.path, start, maxLen, toEnd: span.end === undefined ? prev.toEnd : false };
    }
    case 'head': {
      const c = countArg(args);
      if (c.files.length) return lose('head of another file');
      if (c.bytes) return lose('head -c');
      const n = c.n ?? '10';
      if (prev.t !== 'plain') return prev;
      if (n.startsWith('-')) return { ...prev, toEnd: false, whole: false, exactLen: undefined };
      if (!/^\d+$/.test(n)) return lose('head count');
      const k = Number(n);
      return {
        t: 'plain',
        path: prev.path,
        start: prev.start,
        maxLen: prev.maxLen === undefined ? k : Math.min(prev.maxLen, k),
      };
    }
    case 'tail': {
      const c = countArg(args);
      if (c.files.length) return lose('tail of another file');
      if (c.bytes || c.follow) return lose('tail -c/-f');
      const n = c.n ?? '10';
      if (prev.t !== 'plain') return prev;
      if (/^\+\d+$/.test(n)) {
        const k = Math.max(1, Number(n.slice(1)));
        return {
          ...prev,
          start: prev.start + k - 1,
          maxLen: prev.maxLen === undefined ? undefined : Math.max(0, prev.maxLen - (k - 1)),
          whole: false,
        };
      }
      // The last k lines of a stream whose length is only known after the fact: the output
      // length tells where it starts only if the stream's own length is known.
      const total = prev.toEnd && prev.start === 1 ? ctx.files.lineCount(prev.path) : undefined;
      if (total === undefined || !/^\d+$/.test(n)) return lose('tail without a known length');
      const k = Math.min(Number(n), total);
      return { t: 'plain', path: prev.path, start: total - k + 1, exactLen: k, toEnd: true };
    }
    case 'grep':
    case 'egrep':
    case 'fgrep': {
      const g = readGrep(args);
      if (g.files.length || g.recursive) return lose('grep of another file');
      if (g.search) return { t: 'none' };
      if (g.partial) return lose('grep -o');
      if (prev.t === 'numbered')
        return { ...prev, prefixes: prev.prefixes + (g.numbered ? 1 : 0), seps: prev.seps || g.seps };
      if (prev.t === 'grep')
        return { ...prev, prefixes: prev.prefixes + (g.numbered ? 1 : 0), seps: prev.seps || g.seps };
      if (!g.numbered) return lose('grep without -n');
      return { t: 'grep', path: prev.path, multi: false, offset: prev.start - 1, prefixes: 0, seps: g.seps };
    }
    case 'wc':
      return { t: 'none' };
    default:
      return lose(`${name} transforms lines`);
  }
}

/** Observation text of one command, split into reliable lines. */
export interface OutputLines {
  /** All output lines when the output is complete. */
  lines?: string[] | undefined;
  /** When the tool elided the middle: complete lines of the head and of the tail. */
  head?: string[] | undefined;
  tail?: string[] | undefined;
}

/** Splits an output into lines, dropping the single newline that ends it. */
export function outputLines(text: string): string[] {
  if (text === '') return [];
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body.split('\n');
}

const NUMBERED = /^ *(\d+) *\t(.*)$/;
const PREFIX = /^\d+[:-]/;

function stripPrefixes(line: string, n: number): string | undefined {
  let l = line;
  for (let k = 0; k < n; k++) {
    const m = PREFIX.exec(l);
    if (!m) return undefined;
    l = l.slice(m[0].length);
  }
  return l;
}

type Entry = { path: string; line: number; text: string };

function parseNumbered(lines: readonly string[], s: Extract<Stream, { t: 'numbered' }>): Entry[] | string {
  const out: Entry[] = [];
  for (const raw of lines) {
    if (s.seps && raw === '--') continue;
    const l = stripPrefixes(raw.endsWith('\r') ? raw.slice(0, -1) : raw, s.prefixes);
    const m = l === undefined ? null : NUMBERED.exec(l);
    if (!m) return 'unnumbered line in numbered output';
    const line = Number(m[1]) + s.offset;
    const last = out[out.length - 1];
    if (last && line <= last.line) return 'line numbers not increasing';
    out.push({ path: s.path, line, text: m[2] as string });
  }
  return out;
}

function parseGrep(
  lines: readonly string[],
  s: Extract<Stream, { t: 'grep' }>,
  resolve: (p: string) => string,
): Entry[] {
  const out: Entry[] = [];
  const matchPaths = new Set<string>();
  const pending: Array<{ path: string; line: number; text: string }> = [];
  for (const raw of lines) {
    if (s.seps && raw === '--') continue;
    const l = stripPrefixes(raw, s.prefixes);
    if (l === undefined) continue;
    if (!s.multi) {
      const m = /^(\d+)[:-](.*)$/.exec(l);
      if (m) out.push({ path: s.path as string, line: Number(m[1]) + s.offset, text: m[2] as string });
      continue;
    }
    const hit = /^(.+?):(\d+):(.*)$/.exec(l);
    if (hit) {
      matchPaths.add(hit[1] as string);
      out.push({ path: hit[1] as string, line: Number(hit[2]), text: hit[3] as string });
      continue;
    }
    if (s.seps) {
      const ctxLine = /^(.+?)-(\d+)-(.*)$/.exec(l);
      if (ctxLine) pending.push({ path: ctxLine[1] as string, line: Number(ctxLine[2]), text: ctxLine[3] as string });
    }
  }
  // Context lines are only trusted for files that also produced a match line (path parse check).
  for (const p of pending) if (matchPaths.has(p.path)) out.push(p);
  if (!s.multi) return out;
  return out.map((e) => ({ ...e, path: resolve(e.path) }));
}

/** Groups entries into runs of consecutive lines of one file. */
function runs(entries: readonly Entry[]): ViewEffect[] {
  const seen = new Set<string>();
  const uniq = entries.filter((e) => {
    const k = `${e.path}\u0000${e.line}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const sorted = [...uniq].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  const out: ViewEffect[] = [];
  for (const e of sorted) {
    const last = out[out.length - 1];
    if (last && last.path === e.path && last.range[1] + 1 === e.line) {
      last.range = [last.range[0], e.line];
      last.lines.push(e.text);
    } else out.push({ kind: 'view', path: e.path, range: [e.line, e.line], lines: [e.text] });
  }
  return out;
}

/** Turns a final stream plus its output into views, or the reason it cannot. */
export function readView(stream: Stream, out: OutputLines, resolve: (p: string) => string): ViewEffect[] | string {
  if (stream.t === 'none') return [];
  if (stream.t === 'uncertain') return stream.reason;
  const parts = out.lines ? [out.lines] : [out.head ?? [], out.tail ?? []];
  if (stream.t === 'merged') {
    const entries: Entry[] = [];
    const seen = new Map<number, string>();
    for (const p of parts) {
      for (const raw of p) {
        if (raw === '--') continue;
        const m = NUMBERED.exec(raw) ?? /^(\d+)[:-](.*)$/.exec(raw);
        if (!m) return 'unnumbered line in shared numbered output';
        const line = Number(m[1]);
        const text = m[2] as string;
        if (seen.has(line) && seen.get(line) !== text) return 'conflicting lines in shared output';
        seen.set(line, text);
        entries.push({ path: stream.path, line, text });
      }
    }
    return runs(entries);
  }
  if (stream.t === 'numbered') {
    const entries: Entry[] = [];
    for (const p of parts) {
      const r = parseNumbered(p, stream);
      if (typeof r === 'string') return r;
      entries.push(...r);
    }
    return runs(entries);
  }
  if (stream.t === 'grep') {
    const entries: Entry[] = [];
    for (const p of parts) entries.push(...parseGrep(p, stream, resolve));
    return runs(entries);
  }
  // plain: only a complete output or the head of an elided one sits at a known offset
  let lines = out.lines ?? out.head ?? [];
  const complete = out.lines !== undefined;
  if (stream.extraNewline && complete && lines.length && lines[lines.length - 1] === '') lines = lines.slice(0, -1);
  lines = lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines.length === 0) return [];
  if (stream.segments) {
    const want = stream.segments.reduce((n, [a, b]) => n + b - a + 1, 0);
    if (!complete || lines.length !== want) return 'output does not fill the sed spans exactly';
    let k = 0;
    return stream.segments.map(([a, b]) => {
      const part = lines.slice(k, k + b - a + 1);
      k += b - a + 1;
      return { kind: 'view' as const, path: stream.path, range: [a, b] as const, lines: part };
    });
  }
  if (stream.maxLen !== undefined && lines.length > stream.maxLen) return 'more lines than the command selects';
  if (complete && stream.exactLen !== undefined && lines.length !== stream.exactLen)
    return 'output length does not match the file length';
  const view: ViewEffect = {
    kind: 'view',
    path: stream.path,
    range: [stream.start, stream.start + lines.length - 1],
    lines,
  };
  // Fewer lines than selected means the file ended: its length is now known too.
  const hitEnd = stream.toEnd || (stream.maxLen !== undefined && lines.length < stream.maxLen);
  if (complete && hitEnd) {
    view.total = stream.start + lines.length - 1;
    if (stream.start === 1) view.whole = true;
  }
  return [view];
}

/** `nl`'s options that take a value (the same for a file argument and in a pipeline). */
const NL_OPTIONS = {
  shortWithValue: 'bdfhilnsvw',
  longWithValue: [
    'body-numbering',
    'number-separator',
    'starting-line-number',
    'line-increment',
    'number-width',
    'number-format',
  ],
};
