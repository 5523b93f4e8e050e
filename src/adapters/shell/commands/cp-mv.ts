/** `cp` and `mv` of one file to a file path: a writer, with the content when the source is known. */
import type { WriteEffect } from '../../types.js';
import { getopt } from '../getopt.js';
import type { ShellTool } from './shell-tool.js';

export const cpMv: ShellTool = {
  names: ['cp', 'mv'],
  writes(args, _cmd, env) {
    const o = getopt(args, { shortWithValue: 'tS', longWithValue: ['target-directory', 'suffix'] });
    if (o.positional.length !== 2 || o.flags.has('t') || o.flags.has('r') || o.flags.has('R')) return [];
    const [src, dst] = o.positional as [string, string];
    if (dst.endsWith('/') || dst === '.' || dst === '..') return [];
    const w: WriteEffect = { kind: 'write', path: env.resolve(dst) };
    const content = env.files.content(env.resolve(src));
    if (content !== undefined) w.content = content;
    return [w];
  },
};
