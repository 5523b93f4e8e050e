import type { WriteEnv } from './commands/shell-tool.js';
import type { SimpleCommand } from './shell-parse.js';

/** The here-doc body, here-string or known file a command reads as stdin. */
export function stdinText(cmd: SimpleCommand, env: WriteEnv): string | undefined {
  for (const r of cmd.redirects) {
    if (r.op === '<<' && r.heredoc !== undefined) return r.heredoc;
    if (r.op === '<<<') return `${r.target}\n`;
    if (r.op === '<' && r.fd === 0) return env.files.content(env.resolve(r.target));
  }
  return undefined;
}
