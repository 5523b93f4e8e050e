/** `head` and `tail`: sources and filters of a line count (`-n K`, `-K`, `tail -n +K`). */
import { getopt } from '../getopt.js';
import type { ShellTool } from './shell-tool.js';

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

export const head: ShellTool = {
  names: ['head'],
  source(args, ctx) {
    const c = countArg(args);
    if (c.files.length === 0) return { t: 'none' };
    const path = ctx.resolve(c.files[0] as string);
    if (c.files.length > 1) return { t: 'uncertain', path, reason: 'several files' };
    if (c.bytes) return { t: 'uncertain', path, reason: 'head -c' };
    const n = c.n ?? '10';
    if (n.startsWith('-')) return { t: 'plain', path, start: 1 };
    if (!/^\d+$/.test(n)) return { t: 'uncertain', path, reason: 'head count' };
    return { t: 'plain', path, start: 1, maxLen: Number(n) };
  },
  filter(prev, args, _ctx, lose) {
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
  },
};

export const tail: ShellTool = {
  names: ['tail'],
  source(args, ctx) {
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
  },
  filter(prev, args, ctx, lose) {
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
  },
};
