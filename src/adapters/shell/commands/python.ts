/**
 * Python, recognised once: `python`, `python3`, `python3.11`, with or without a directory. A source
 * when `-c` prints a file whole, a writer when its code (`-c`, a here-doc, a script the ledger
 * knows) writes files, and a verifier when it runs pytest, a test runner or a check script.
 */
import type { LineRange } from '../../../schema/types.js';
import type { WriteEffect } from '../../types.js';
import { baseName, isCheckScript } from '../check-scripts.js';
import { pythonChangedRanges, pythonPrintedFile, pythonWriteTargets } from '../python-code.js';
import type { SimpleCommand } from '../shell-parse.js';
import { stdinText } from '../stdin-text.js';
import type { ShellTool, WriteEnv } from './shell-tool.js';

const PYTHON = /^(?:\S*\/)?python(?:\d(?:\.\d+)?)?$/;

/** Interpreter flags without a value (`-u`, `-B`, `-Wd` spelled together). */
const FLAGS = /^-[bBdEhiIOqsSuvWX]+$/;

/** Python source a `python …` command runs: `-c code`, a here-doc on stdin, or a known script file. */
function pythonSource(args: readonly string[], cmd: SimpleCommand, env: WriteEnv): string | undefined {
  let k = 0;
  while (k < args.length && FLAGS.test(args[k] as string)) k++;
  const first = args[k];
  if (first === '-c') return args[k + 1];
  if (first === '-m') return undefined;
  if (first === undefined || first === '-') return stdinText(cmd, env);
  return env.files.content(env.resolve(first));
}

export const python: ShellTool = {
  names: [],
  matches: (name) => PYTHON.test(name),
  source(args, ctx) {
    const c = args.indexOf('-c');
    if (c < 0 || c + 1 >= args.length) return { t: 'none' };
    const file = pythonPrintedFile(args[c + 1] as string);
    if (!file) return { t: 'none' };
    return { t: 'plain', path: ctx.resolve(file), start: 1, whole: true, toEnd: true, extraNewline: true };
  },
  // Code with a substitution in it is rarely a plain print of a file.
  dynamicSource: 'none',
  writes(args, cmd, env) {
    const code = pythonSource(args, cmd, env);
    if (code === undefined) return [];
    const targets = pythonWriteTargets(code);
    return targets.map((t) => {
      const path = env.resolve(t);
      const w: WriteEffect = { kind: 'write', path };
      const changed = targets.length === 1 ? pythonChangedRanges(code, env.files.knownLines(path)) : undefined;
      if (changed) w.changed = changed as LineRange[];
      return w;
    });
  },
  // A here-doc script is written out literally even when the command line has a `$`.
  writesWhenDynamic: true,
  verifier(_name, rest) {
    let k = 0;
    while (k < rest.length && FLAGS.test(rest[k] as string)) k++;
    while (k < rest.length && /^-[WX]$/.test(rest[k] as string)) k += 2;
    const first = rest[k];
    if (first === undefined) return undefined;
    if (first === '-m') {
      const mod = rest[k + 1] ?? '';
      if (mod === 'pytest' || mod === 'py.test') return 'pytest';
      if (mod === 'unittest' || (mod === 'django' && rest[k + 2] === 'test') || mod === 'nose' || mod === 'tox')
        return 'runner';
      return undefined;
    }
    if (first.startsWith('-')) return undefined;
    const fb = baseName(first);
    if (fb === 'runtests.py' || /(^|\/)bin\/test$/.test(first)) return 'runner';
    if (fb === 'manage.py' && rest[k + 1] === 'test') return 'runner';
    if (isCheckScript(fb)) return 'script';
    return undefined;
  },
};
