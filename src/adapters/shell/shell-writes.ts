/**
 * File writes in shell pipelines: redirects (with the content when the command prints it
 * literally) here; what each tool writes — `tee`, `sed -i`, `cp`/`mv`, reverts, `patch`/`git
 * apply`, Python edit scripts — in its own module (commands/). `changed` is given only when the
 * command fixes it (line addresses, hunks, located replacements); the new content only when the
 * command spells it out whole.
 */
import type { WriteEffect } from '../types.js';
import { toolNamed } from './commands/registry.js';
import type { WriteEnv } from './commands/shell-tool.js';
import type { Pipeline, SimpleCommand } from './shell-parse.js';
import { isFd, isNull } from './special-files.js';

export type { WriteEnv } from './commands/shell-tool.js';

/** The text a command prints, when it spells it out literally (a cat here-doc, a plain echo). */
export function printedText(cmd: SimpleCommand): string | undefined {
  const [name = '', ...args] = cmd.argv;
  if (cmd.dynamic) return undefined;
  return toolNamed(name)?.prints?.(args, cmd);
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
  const tool = toolNamed(name);
  if (!tool?.writes || (cmd.dynamic && !tool.writesWhenDynamic)) return out;
  out.push(...tool.writes(args, cmd, env));
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
  return toolNamed(name)?.silent?.(args) ?? false;
}
