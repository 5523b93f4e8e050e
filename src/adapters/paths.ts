/**
 * Path normalisation: every evidence and revision of one file must carry the same path whatever
 * spelling the agent used (`./x.py`, `/testbed/x.py`, `cd sub && cat ../x.py`), or supersession
 * and gold-line matching silently miss.
 */
import { LIMITS } from '../schema/limits.js';
import type { PathNormaliser } from './types.js';

/** Resolves `.`/`..` segments of a POSIX path; keeps a leading `/` and leading `..` of relative paths. */
function resolvePosix(path: string): string {
  const abs = path.startsWith('/');
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!abs) out.push('..');
      continue;
    }
    out.push(seg);
  }
  return (abs ? '/' : '') + out.join('/');
}

/** Joins a path written in a command onto the command's working directory. */
export function joinPath(cwd: string | undefined, path: string): string {
  if (path.startsWith('/') || !cwd) return resolvePosix(path);
  return resolvePosix(`${cwd}/${path}`);
}

/**
 * A normaliser that strips any of `roots` (e.g. `/testbed`) from absolute paths, so paths are
 * repository-relative; paths outside every root stay absolute.
 */
export function makeNormaliser(roots: readonly string[]): PathNormaliser {
  const clean = [...new Set(roots.map((r) => resolvePosix(r)).filter((r) => r.length > 1))].sort(
    (a, b) => b.length - a.length,
  );
  return (path: string, cwd?: string): string => {
    const p = joinPath(cwd, path.trim());
    for (const root of clean) {
      if (p === root) return '.';
      if (p.startsWith(`${root}/`)) return p.slice(root.length + 1);
    }
    return p === '' ? '.' : p;
  };
}

/** A path the ledger accepts: non-empty, no control characters, not a bare directory marker. */
export const isUsablePath = (p: string): boolean =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
  p.length > 0 && p.length <= LIMITS.maxPathChars && p !== '.' && p !== '/' && !/[\x00-\x1f\x7f]/.test(p);

/** The extra root an adapter's options name, tolerating a missing or non-object options value. */
export const rootsOf = (options: unknown): string[] => {
  const root =
    typeof options === 'object' && options !== null ? (options as { repoRoot?: unknown }).repoRoot : undefined;
  return typeof root === 'string' && root.startsWith('/') ? [root] : [];
};
