/**
 * File views in shell pipelines. A pipeline is read as a *stream* whose lines have a known
 * relation to file lines — numbered by the tool (`nl -ba`, `cat -n`, `grep -n`) or offset from a
 * known start (`sed -n 'a,bp'`, `head`, `tail -n +k`) — and each later stage either only selects
 * lines (keeps the relation) or transforms them (loses it). Only when the relation survives to the
 * end are the displayed lines evidence; otherwise the view is reported as uncertain. What each
 * tool does to the stream is its own module's (commands/); this file dispatches and reads output.
 */

import type { ViewEffect } from '../types.js';
import { toolNamed } from './commands/registry.js';
import type { SimpleCommand } from './shell-parse.js';
import type { Stream, ViewContext } from './stream.js';

export type { Stream, ViewContext } from './stream.js';

/** Stage 1: a command that reads a file and prints (some of) its lines. `none` if it is not a view. */
export function sourceStream(cmd: SimpleCommand, ctx: ViewContext): Stream {
  const [name, ...args] = cmd.argv;
  if (!name) return { t: 'none' };
  const tool = toolNamed(name);
  if (!tool?.source) return { t: 'none' };
  if (cmd.dynamic)
    return (tool.dynamicSource ?? 'uncertain') === 'uncertain'
      ? { t: 'uncertain', reason: 'dynamic arguments' }
      : { t: 'none' };
  return tool.source(args, ctx);
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
  const tool = toolNamed(name);
  return tool?.filter ? tool.filter(prev, args, ctx, lose) : lose(`${name} transforms lines`);
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
