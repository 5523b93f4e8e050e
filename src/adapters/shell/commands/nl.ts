/** `nl`: a source (`nl -ba f`) and a filter over a plain stream; only `-ba` numbers every line. */
import { getopt, type Parsed } from '../getopt.js';
import type { Stream } from '../stream.js';
import type { ShellTool } from './shell-tool.js';

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

function nlStream(o: Parsed, path: string, base: number): Stream {
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

export const nl: ShellTool = {
  names: ['nl'],
  source(args, ctx) {
    const o = getopt(args, NL_OPTIONS);
    if (o.positional.length !== 1)
      return o.positional.length ? { t: 'uncertain', reason: 'several files' } : { t: 'none' };
    return nlStream(o, ctx.resolve(o.positional[0] as string), 1);
  },
  filter(prev, args, _ctx, lose) {
    const o = getopt(args, NL_OPTIONS);
    if (prev.t !== 'plain' || o.positional.length) return lose('nl over numbered lines');
    return nlStream(o, prev.path, prev.start);
  },
};
