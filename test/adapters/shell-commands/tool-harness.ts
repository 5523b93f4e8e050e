/** Calls one shell tool's roles directly, on a command line parsed as the adapters parse it. */
import type { LiveStream, ShellTool, WriteEnv } from '../../../src/adapters/shell/commands/shell-tool.js';
import { parseShell, type SimpleCommand } from '../../../src/adapters/shell/shell-parse.js';
import type { Stream, ViewContext } from '../../../src/adapters/shell/stream.js';
import { knowledge } from '../../helpers/file-knowledge.js';

export function command(line: string): SimpleCommand {
  const cmd = parseShell(line).items[0]?.pipeline.commands[0];
  if (!cmd) throw new Error(`no command in ${JSON.stringify(line)}`);
  return cmd;
}

const context = (files: Record<string, string>): ViewContext & WriteEnv => ({
  resolve: (p) => p.replace(/^\.\//, ''),
  files: knowledge(files),
});

export const sourceOf = (tool: ShellTool, line: string, files: Record<string, string> = {}): Stream =>
  tool.source!(command(line).argv.slice(1), context(files));

export const filterOf = (tool: ShellTool, prev: LiveStream, line: string, files: Record<string, string> = {}) =>
  tool.filter!(prev, command(line).argv.slice(1), context(files), (reason) => ({ t: 'uncertain', reason }));

export const writesOf = (tool: ShellTool, line: string, files: Record<string, string> = {}) => {
  const cmd = command(line);
  return tool.writes!(cmd.argv.slice(1), cmd, context(files));
};

export const verifierOf = (tool: ShellTool, line: string) => {
  const [name, ...args] = command(line).argv;
  return tool.verifier!(name!, args);
};

/** A plain stream of a whole file, what `cat f` gives a filter. */
export const whole = (path: string): LiveStream => ({ t: 'plain', path, start: 1, whole: true, toEnd: true });
