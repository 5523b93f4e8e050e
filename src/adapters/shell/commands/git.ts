/** `git`: reverts (`checkout`/`restore` of paths) and `git apply` write; `add` and `apply` print nothing. */
import type { WriteEffect } from '../../types.js';
import { patchWrites } from '../patch-writes.js';
import { stdinText } from '../stdin-text.js';
import type { ShellTool } from './shell-tool.js';

const APPLY_WITHOUT_WRITING = new Set(['--check', '--stat', '--numstat', '--summary', '--cached']);

export const git: ShellTool = {
  names: ['git'],
  writes(args, cmd, env) {
    const sub = args[0];
    const rest = args.slice(1);
    const out: WriteEffect[] = [];
    if (sub === 'checkout' || sub === 'restore') {
      if (rest.some((a) => a === '-b' || a === '-B' || a === '--staged' || a === '-S')) return out;
      const dd = rest.indexOf('--');
      const paths =
        dd >= 0 ? rest.slice(dd + 1) : rest.filter((a) => !a.startsWith('-') && /[./]/.test(a) && a !== 'HEAD');
      for (const p of paths) if (p !== '.') out.push({ kind: 'write', path: env.resolve(p), revert: true });
    } else if (sub === 'apply') {
      if (rest.some((a) => APPLY_WITHOUT_WRITING.has(a))) return out;
      const reverse = rest.includes('-R') || rest.includes('--reverse');
      const file = rest.find((a) => !a.startsWith('-'));
      const diff = file ? env.files.content(env.resolve(file)) : stdinText(cmd, env);
      out.push(...patchWrites(diff, reverse, undefined, env));
    }
    return out;
  },
  silent: (args) => args[0] === 'add' || args[0] === 'apply',
};
