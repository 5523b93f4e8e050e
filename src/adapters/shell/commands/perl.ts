/** `perl -i`: a writer of the files it edits in place (which lines, it does not say). */
import { getopt } from '../getopt.js';
import type { ShellTool } from './shell-tool.js';

export const perl: ShellTool = {
  names: ['perl'],
  writes(args, _cmd, env) {
    const o = getopt(args, { shortWithValue: 'eEIMm', shortOptionalValue: '' });
    if (![...o.flags.keys()].some((k) => k.includes('i'))) return [];
    const files = o.flags.has('e') || o.flags.has('E') ? o.positional : o.positional.slice(1);
    return files.map((f) => ({ kind: 'write' as const, path: env.resolve(f) }));
  },
};
