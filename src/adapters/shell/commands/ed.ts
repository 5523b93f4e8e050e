/** `ed` and `ex`: a writer of the file they open (which lines, they do not say). */
import type { ShellTool } from './shell-tool.js';

export const ed: ShellTool = {
  names: ['ed', 'ex'],
  writes(args, _cmd, env) {
    const file = args.find((a) => !a.startsWith('-'));
    return file ? [{ kind: 'write', path: env.resolve(file) }] : [];
  },
};
