/** `grep` (and `egrep`, `fgrep`): a source and a filter when it numbers its lines (`-n`). */
import { getopt } from '../getopt.js';
import type { ShellTool } from './shell-tool.js';

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

export const grep: ShellTool = {
  names: ['grep', 'egrep', 'fgrep'],
  source(args, ctx) {
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
  },
  filter(prev, args, _ctx, lose) {
    const g = readGrep(args);
    if (g.files.length || g.recursive) return lose('grep of another file');
    if (g.search) return { t: 'none' };
    if (g.partial) return lose('grep -o');
    if (prev.t === 'numbered' || prev.t === 'grep')
      return { ...prev, prefixes: prev.prefixes + (g.numbered ? 1 : 0), seps: prev.seps || g.seps };
    if (!g.numbered) return lose('grep without -n');
    return { t: 'grep', path: prev.path, multi: false, offset: prev.start - 1, prefixes: 0, seps: g.seps };
  },
};
