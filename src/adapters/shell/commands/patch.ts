/** `patch`: a writer of the files its diff (a file or stdin) changes. */
import { getopt } from '../getopt.js';
import { patchWrites } from '../patch-writes.js';
import { stdinText } from '../stdin-text.js';
import type { ShellTool } from './shell-tool.js';

export const patch: ShellTool = {
  names: ['patch'],
  writes(args, cmd, env) {
    const o = getopt(args, { shortWithValue: 'pidoBDFrVYz', longWithValue: ['input', 'directory', 'output'] });
    if (o.flags.has('dry-run') || o.flags.has('C')) return [];
    const reverse = o.flags.has('R') || o.flags.has('reverse');
    const input = o.flags.get('i') ?? o.flags.get('input') ?? o.positional[1];
    const diff = input !== undefined ? env.files.content(env.resolve(input)) : stdinText(cmd, env);
    return patchWrites(diff, reverse, o.positional[0], env);
  },
};
