/**
 * Gold evidence for next-action evaluation: for each file a patch touches, the old-file lines the
 * patch removes or replaces; for a hunk that only inserts, the old-file context lines directly
 * above and below each insertion point (what an agent must have looked at to place it).
 */
import { type DiffLine, insertionNeighbours, parseUnifiedDiff } from '../../src/adapters/diff/unified-diff.js';

export interface GoldFile {
  /** Old path (the file the agent saw before the edit); the new path for an added file. */
  path: string;
  /** Old-file lines, sorted by line, without the diff's leading `-`/` `. */
  lines: Array<{ line: number; text: string }>;
  /** `modified` when the file has removed/replaced lines, `inserted-context` when it only gains lines. */
  kind: 'modified' | 'inserted-context';
}

/**
 * Reads a unified diff (git format: several files and hunks, new/deleted files, renames) and
 * returns every file with its gold lines, ordered by path then line. A rename without hunks and an
 * added file have no gold lines (nothing of the old file is involved). A pure insertion whose hunk
 * carries no context (`-U0`) has no known neighbour text and so no gold lines either.
 */
export function goldLines(patch: string): GoldFile[] {
  const byPath = new Map<string, { lines: Map<number, string>; modified: boolean }>();
  for (const file of parseUnifiedDiff(patch)) {
    const path = file.oldPath ?? file.newPath;
    if (path === undefined) continue;
    const entry = byPath.get(path) ?? { lines: new Map<number, string>(), modified: false };
    byPath.set(path, entry);
    for (const hunk of file.hunks) {
      const removed = hunk.lines.filter((l: DiffLine) => l.op === '-');
      if (removed.length > 0) {
        entry.modified = true;
        for (const l of removed) entry.lines.set(l.oldLine as number, l.text);
      } else if (file.status !== 'added') {
        for (const n of insertionNeighbours(hunk)) entry.lines.set(n.line, n.text);
      }
    }
  }
  return [...byPath.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, e]) => ({
      path,
      lines: [...e.lines.entries()].sort((a, b) => a[0] - b[0]).map(([line, text]) => ({ line, text })),
      kind: e.modified ? 'modified' : 'inserted-context',
    }));
}
