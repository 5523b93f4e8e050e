import { changedRanges, parseUnifiedDiff } from '../diff/unified-diff.js';
import type { WriteEffect } from '../types.js';
import type { WriteEnv } from './commands/shell-tool.js';

/** The files a unified diff writes when applied (`patch`, `git apply`); `only` forces the path. */
export function patchWrites(
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
