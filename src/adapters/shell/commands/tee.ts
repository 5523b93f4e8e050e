/** `tee`: a writer of every file it names (`-a` appends, so no old line changes). */
import { getopt } from '../getopt.js';
import { isNull } from '../special-files.js';
import type { ShellTool } from './shell-tool.js';

export const tee: ShellTool = {
  names: ['tee'],
  writes(args, _cmd, env) {
    const o = getopt(args);
    const append = o.flags.has('a') || o.flags.has('append');
    return o.positional
      .filter((f) => !isNull(f))
      .map((f) => ({ kind: 'write' as const, path: env.resolve(f), ...(append ? { changed: [] } : {}) }));
  },
};
