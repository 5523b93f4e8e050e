/**
 * File writes in shell pipelines: redirects and here-docs, `tee`, `sed -i`, `cp`/`mv`, reverts
 * (`git checkout -- f`), `patch`/`git apply`, and Python edit scripts. `changed` is given only when
 * the command fixes it (line addresses, hunks, located replacements); the new content only when the
 * command spells it out whole.
 */
import type { LineRange } from '../../schema/types.js';
import { changedRanges, parseUnifiedDiff } from '../diff/unified-diff.js';
import type { FileKnowledge, WriteEffect } from '../types.js';
import { getopt } from './getopt.js';
import { pythonChangedRanges, pythonWriteTargets } from './python-code.js';
import { sedChangedRanges } from './sed-script.js';
import type { Pipeline, SimpleCommand } from './shell-parse.js';

export interface WriteEnv {
  resolve(path: string): string;
  files: FileKnowledge;
}

const PY = /^(?:\S*\/)?python(?:\d(?:\.\d+)?)?$/;
const isFd = (t: string): boolean => /^&?-?\d*-?$/.test(t);
const isNull = (t: string): boolean => t === '/dev/null' || t.startsWith('/dev/std') || t.startsWith('/proc/');

/** Content a command prints, when it is spelled out literally (cat here-doc, plain echo). */
function printedText(cmd: SimpleCommand): string | undefined {
  const [name, ...args] = cmd.argv;
  if (cmd.dynamic) return undefined;
  if (name === 'cat' && args.length === 0) {
    const doc = cmd.redirects.find((r) => r.op === '<<');
    if (doc?.heredoc === undefined) return undefined;
    if (!doc.literal && /[$`\\]/.test(doc.heredoc)) return undefined; // unquoted delimiter expands
    return doc.heredoc;
  }
  if (name === 'echo') {
    // Only flag-free, backslash-free echo prints the same in every shell.
    if (args.some((a) => a.includes('\\')) || /^-[neE]+$/.test(args[0] ?? '')) return undefined;
    return `${args.join(' ')}\n`;
  }
  return undefined;
}

/** The here-doc body or here-string a command reads as stdin. */
function stdinText(cmd: SimpleCommand, env: WriteEnv): string | undefined {
  for (const r of cmd.redirects) {
    if (r.op === '<<' && r.heredoc !== undefined) return r.heredoc;
    if (r.op === '<<<') return `${r.target}\n`;
    if (r.op === '<' && r.fd === 0) return env.files.content(env.resolve(r.target));
  }
  return undefined;
}

function patchWrites(
  diff: string | undefined,
  reverse: boolean,
  only: string | undefined,
  env: WriteEnv,
): WriteEffect[] {
  if (diff === undefined) return [];
  const out: WriteEffect[] = [];
  for (const f of parseUnifiedDiff(diff)) {
    const p = only ?? f.newPath ?? f.oldPath;
    if (!p || f.status === 'deleted') continue;
    const w: WriteEffect = { kind: 'write', path: env.resolve(p) };
    if (!reverse && f.status !== 'added') w.changed = changedRanges(f);
    out.push(w);
  }
  return out;
}

/** Python source a `python …` command runs: `-c code`, a here-doc on stdin, or a known script file. */
function pythonSource(args: readonly string[], cmd: SimpleCommand, env: WriteEnv): string | undefined {
  let k = 0;
  while (k < args.length && /^-[bBdEhiIOqsSuvWX]+$/.test(args[k] as string)) k++;
  const first = args[k];
  if (first === '-c') return args[k + 1];
  if (first === '-m') return undefined;
  if (first === undefined || first === '-') return stdinText(cmd, env);
  return env.files.content(env.resolve(first));
}

/** Writes of one simple command; `overlay` receives contents written earlier in the same command. */
function commandWrites(cmd: SimpleCommand, env: WriteEnv): WriteEffect[] {
  const out: WriteEffect[] = [];
  const [name = '', ...args] = cmd.argv;

  for (const r of cmd.redirects) {
    const toStdout = r.fd === 1 && (r.op === '>' || r.op === '>>');
    const both = r.op === '&>' || r.op === '&>>';
    if (!(toStdout || both) || isFd(r.target) || isNull(r.target) || /[$`*?]/.test(r.target)) continue;
    const path = env.resolve(r.target);
    const text = printedText(cmd);
    if (r.op === '>>' || r.op === '&>>') {
      const before = env.files.content(path);
      const w: WriteEffect = { kind: 'write', path, changed: [] }; // appending changes no old line
      if (text !== undefined && before !== undefined) w.content = before + text;
      out.push(w);
    } else {
      const w: WriteEffect = { kind: 'write', path };
      if (text !== undefined) w.content = text;
      out.push(w);
    }
  }
  if (cmd.dynamic && name !== 'python' && name !== 'python3') return out;

  switch (name) {
    case 'tee': {
      const o = getopt(args);
      const append = o.flags.has('a') || o.flags.has('append');
      for (const f of o.positional)
        if (!isNull(f)) out.push({ kind: 'write', path: env.resolve(f), ...(append ? { changed: [] } : {}) });
      break;
    }
    case 'sed': {
      const o = getopt(args, {
        shortWithValue: 'efl',
        shortOptionalValue: 'i',
        longWithValue: ['expression', 'file', 'line-length'],
      });
      if (!(o.flags.has('i') || o.flags.has('in-place'))) break;
      const scripts = o.multi.get('e') ?? o.multi.get('expression');
      const fromFile = o.flags.has('f') || o.flags.has('file');
      const script = scripts ? scripts.join('\n') : fromFile ? undefined : o.positional[0];
      const files = scripts || fromFile ? o.positional : o.positional.slice(1);
      for (const f of files) {
        const path = env.resolve(f);
        const w: WriteEffect = { kind: 'write', path };
        const ere = o.flags.has('E') || o.flags.has('r') || o.flags.has('regexp-extended');
        const changed =
          script === undefined
            ? undefined
            : sedChangedRanges(script, env.files.lineCount(path), env.files.knownLines(path), ere);
        if (changed) w.changed = changed;
        out.push(w);
      }
      break;
    }
    case 'perl': {
      const o = getopt(args, { shortWithValue: 'eEIMm', shortOptionalValue: '' });
      if (![...o.flags.keys()].some((k) => k.includes('i'))) break;
      const files = o.flags.has('e') || o.flags.has('E') ? o.positional : o.positional.slice(1);
      for (const f of files) out.push({ kind: 'write', path: env.resolve(f) });
      break;
    }
    case 'cp':
    case 'mv': {
      const o = getopt(args, { shortWithValue: 'tS', longWithValue: ['target-directory', 'suffix'] });
      if (o.positional.length !== 2 || o.flags.has('t') || o.flags.has('r') || o.flags.has('R')) break;
      const [src, dst] = o.positional as [string, string];
      if (dst.endsWith('/') || dst === '.' || dst === '..') break;
      const w: WriteEffect = { kind: 'write', path: env.resolve(dst) };
      const content = env.files.content(env.resolve(src));
      if (content !== undefined) w.content = content;
      out.push(w);
      break;
    }
    case 'git': {
      const sub = args[0];
      const rest = args.slice(1);
      if (sub === 'checkout' || sub === 'restore') {
        if (rest.some((a) => a === '-b' || a === '-B' || a === '--staged' || a === '-S')) break;
        const dd = rest.indexOf('--');
        const paths =
          dd >= 0 ? rest.slice(dd + 1) : rest.filter((a) => !a.startsWith('-') && /[./]/.test(a) && a !== 'HEAD');
        for (const p of paths) if (p !== '.') out.push({ kind: 'write', path: env.resolve(p), revert: true });
      } else if (sub === 'apply') {
        if (
          rest.some(
            (a) => a === '--check' || a === '--stat' || a === '--numstat' || a === '--summary' || a === '--cached',
          )
        )
          break;
        const reverse = rest.includes('-R') || rest.includes('--reverse');
        const file = rest.find((a) => !a.startsWith('-'));
        const diff = file ? env.files.content(env.resolve(file)) : stdinText(cmd, env);
        out.push(...patchWrites(diff, reverse, undefined, env));
      }
      break;
    }
    case 'patch': {
      const o = getopt(args, { shortWithValue: 'pidoBDFrVYz', longWithValue: ['input', 'directory', 'output'] });
      if (o.flags.has('dry-run') || o.flags.has('C')) break;
      const reverse = o.flags.has('R') || o.flags.has('reverse');
      const input = o.flags.get('i') ?? o.flags.get('input') ?? o.positional[1];
      const diff = input !== undefined ? env.files.content(env.resolve(input)) : stdinText(cmd, env);
      out.push(...patchWrites(diff, reverse, o.positional[0], env));
      break;
    }
    case 'ed':
    case 'ex': {
      const file = args.find((a) => !a.startsWith('-'));
      if (file) out.push({ kind: 'write', path: env.resolve(file) });
      break;
    }
    default: {
      if (!PY.test(name)) break;
      const code = pythonSource(args, cmd, env);
      if (code === undefined) break;
      const targets = pythonWriteTargets(code);
      for (const t of targets) {
        const path = env.resolve(t);
        const w: WriteEffect = { kind: 'write', path };
        const changed = targets.length === 1 ? pythonChangedRanges(code, env.files.knownLines(path)) : undefined;
        if (changed) w.changed = changed as LineRange[];
        out.push(w);
      }
    }
  }
  return out;
}

/** Writes of a pipeline, in order. */
export function pipelineWrites(pipeline: Pipeline, env: WriteEnv): WriteEffect[] {
  return pipeline.commands.flatMap((c) => commandWrites(c, env));
}

/** Commands that print nothing when they succeed (their output cannot be confused with a view). */
export function isSilent(pipeline: Pipeline): boolean {
  const last = pipeline.commands[pipeline.commands.length - 1];
  if (!last) return true;
  if (last.redirects.some((r) => (r.fd === 1 && (r.op === '>' || r.op === '>>')) || r.op === '&>' || r.op === '&>>'))
    return true;
  if (pipeline.commands.length !== 1) return false;
  const [name = '', ...args] = last.argv;
  if (
    [
      'cd',
      'pushd',
      'popd',
      'export',
      'unset',
      'true',
      ':',
      'mkdir',
      'touch',
      'rm',
      'cp',
      'mv',
      'chmod',
      'ln',
      'rmdir',
      'set',
    ].includes(name)
  )
    return name !== 'pushd' && name !== 'popd';
  if (name === '' && last.env.length) return true;
  if (name === 'sed' && args.some((a) => a.startsWith('-i') || a === '--in-place' || /^-[a-zA-Z]*i/.test(a)))
    return true;
  if (name === 'git' && (args[0] === 'add' || args[0] === 'apply')) return true;
  return false;
}
