/** `awk`: a source when its program selects a fixed line span (`awk 'NR>=a && NR<=b' f`). */
import type { ShellTool } from './shell-tool.js';

/** `awk 'NR>=a && NR<=b' f`, `awk 'NR==a,NR==b' f`. */
function awkSpan(args: readonly string[]): { start: number; end: number; file: string } | undefined {
  if (args.length !== 2) return undefined;
  const [prog, file] = args as [string, string];
  const m =
    /^\s*NR\s*>=\s*(\d+)\s*&&\s*NR\s*<=\s*(\d+)\s*$/.exec(prog) ??
    /^\s*NR\s*==\s*(\d+)\s*,\s*NR\s*==\s*(\d+)\s*$/.exec(prog);
  if (!m) return undefined;
  const start = Number(m[1]);
  const end = Number(m[2]);
  return end >= start && start >= 1 ? { start, end, file } : undefined;
}

export const awk: ShellTool = {
  names: ['awk'],
  source(args, ctx) {
    const span = awkSpan(args);
    if (!span) return args.length >= 2 ? { t: 'uncertain', reason: 'awk program' } : { t: 'none' };
    return { t: 'plain', path: ctx.resolve(span.file), start: span.start, maxLen: span.end - span.start + 1 };
  },
};
