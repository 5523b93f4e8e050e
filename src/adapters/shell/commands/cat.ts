/** `cat`: a source (`cat f`, `cat -n f`), a filter (`| cat -n`), and a printer of its here-doc. */
import { getopt } from '../getopt.js';
import type { Stream } from '../stream.js';
import type { LiveStream, ShellTool } from './shell-tool.js';

/** `cat` in a pipeline: passes lines through, or numbers a plain stream with `-n`. */
export function catFilter(prev: LiveStream, args: readonly string[], lose: (reason: string) => Stream): Stream {
  const o = getopt(args);
  if (o.positional.length) return lose('cat of another file');
  if (o.flags.size === 0) return prev;
  if (o.flags.size === 1 && (o.flags.has('n') || o.flags.has('number')) && prev.t === 'plain') {
    return { t: 'numbered', path: prev.path, offset: prev.start - 1, prefixes: 0, seps: false };
  }
  return lose('cat options transform lines');
}

export const cat: ShellTool = {
  names: ['cat'],
  source(args, ctx) {
    const o = getopt(args);
    const files = o.positional.filter((f) => f !== '-');
    if (files.length === 0 || o.positional.includes('-')) return { t: 'none' };
    const path = ctx.resolve(files[0] as string);
    if (files.length > 1) return { t: 'uncertain', path, reason: 'several files' };
    if ([...o.flags.keys()].some((k) => k !== 'n' && k !== 'number'))
      return { t: 'uncertain', path, reason: 'cat options transform lines' };
    if (o.flags.has('n') || o.flags.has('number')) return { t: 'numbered', path, offset: 0, prefixes: 0, seps: false };
    return { t: 'plain', path, start: 1, whole: true, toEnd: true };
  },
  filter: (prev, args, _ctx, lose) => catFilter(prev, args, lose),
  prints(args, cmd) {
    if (args.length !== 0) return undefined;
    const doc = cmd.redirects.find((r) => r.op === '<<');
    if (doc?.heredoc === undefined) return undefined;
    if (!doc.literal && /[$`\\]/.test(doc.heredoc)) return undefined; // unquoted delimiter expands
    return doc.heredoc;
  },
};
