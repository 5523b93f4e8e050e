/**
 * A small unified-diff reader shared by gold-line extraction (eval) and the write recognisers
 * (`patch`, `git apply`). It reads git-style and plain unified diffs and keeps every hunk line with
 * its old/new line number, which is all either caller needs.
 */
import type { LineRange } from '../../schema/types.js';

export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
  /** Line number in the old file (context and removed lines). */
  oldLine?: number | undefined;
  /** Line number in the new file (context and added lines). */
  newLine?: number | undefined;
}

export interface DiffHunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: DiffLine[];
}

export interface DiffFile {
  /** Old path without the `a/` prefix; undefined for a new file. */
  oldPath?: string | undefined;
  /** New path without the `b/` prefix; undefined for a deleted file. */
  newPath?: string | undefined;
  status: 'modified' | 'added' | 'deleted' | 'renamed';
  hunks: DiffHunk[];
}

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Strips a leading `a/` / `b/` and the quoting git uses for unusual names; `/dev/null` → undefined. */
function cleanPath(raw: string, stripPrefix: boolean): string | undefined {
  let p = raw.replace(/\t.*$/, '').trim(); // `--- file\t2020-01-01 …` timestamps in plain diffs
  if (p.startsWith('"') && p.endsWith('"') && p.length >= 2) p = p.slice(1, -1).replace(/\\(.)/g, '$1');
  if (p === '/dev/null' || p === '') return undefined;
  if (stripPrefix && /^[ab]\//.test(p)) p = p.slice(2);
  return p;
}

/** `diff --git a/x b/y` → [x, y]; only used when no ---/+++ headers follow (renames, mode changes). */
function gitHeaderPaths(line: string): [string | undefined, string | undefined] {
  const rest = line.slice('diff --git '.length);
  const m = /^(?:"?a\/(.+?)"?) (?:"?b\/(.+?)"?)$/.exec(rest);
  if (m) return [m[1], m[2]];
  const half = rest.split(' ');
  return [cleanPath(half[0] ?? '', true), cleanPath(half[1] ?? '', true)];
}

/** Parses every file of a unified diff. Never throws; unreadable parts are skipped. */
export function parseUnifiedDiff(patch: string): DiffFile[] {
  const lines = patch.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const files: DiffFile[] = [];
  let cur: DiffFile | undefined;
  let i = 0;
  const finish = (): void => {
    if (!cur) return;
    if (!cur.oldPath && !cur.newPath) {
      cur = undefined;
      return;
    }
    if (cur.status === 'modified' && cur.oldPath && cur.newPath && cur.oldPath !== cur.newPath) cur.status = 'renamed';
    if (!cur.oldPath && cur.status !== 'renamed') cur.status = 'added';
    if (!cur.newPath && cur.status !== 'renamed') cur.status = 'deleted';
    files.push(cur);
    cur = undefined;
  };
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.startsWith('diff --git ')) {
      finish();
      const [a, b] = gitHeaderPaths(line);
      cur = { oldPath: a, newPath: b, status: 'modified', hunks: [] };
      i++;
      continue;
    }
    if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      // A plain unified diff starts a file here; in a git diff this refines the header's paths.
      const oldP = cleanPath(line.slice(4), true);
      const newP = cleanPath((lines[i + 1] as string).slice(4), true);
      if (!cur || cur.hunks.length > 0) {
        finish();
        cur = { oldPath: oldP, newPath: newP, status: 'modified', hunks: [] };
      } else {
        cur.oldPath = oldP;
        cur.newPath = newP;
      }
      i += 2;
      continue;
    }
    if (cur && line.startsWith('new file mode')) {
      cur.status = 'added';
      cur.oldPath = undefined;
    } else if (cur && line.startsWith('deleted file mode')) {
      cur.status = 'deleted';
      cur.newPath = undefined;
    } else if (cur && line.startsWith('rename from ')) {
      cur.status = 'renamed';
      cur.oldPath = line.slice('rename from '.length);
    } else if (cur && line.startsWith('rename to ')) {
      cur.status = 'renamed';
      cur.newPath = line.slice('rename to '.length);
    } else if (cur && HUNK_RE.test(line)) {
      const m = HUNK_RE.exec(line) as RegExpExecArray;
      const hunk: DiffHunk = {
        oldStart: Number(m[1]),
        oldCount: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newCount: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      };
      // `-N,0` means "insert after old line N", so the first old line of the hunk is N + 1.
      let oldNo = hunk.oldCount === 0 ? hunk.oldStart + 1 : hunk.oldStart;
      let newNo = hunk.newCount === 0 ? hunk.newStart + 1 : hunk.newStart;
      let oldLeft = hunk.oldCount;
      let newLeft = hunk.newCount;
      i++;
      // The counts, not the line prefixes, end a hunk: a removed line may itself start with `--`.
      while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
        const l = lines[i] as string;
        if (l.startsWith('\\')) {
          i++; // "\ No newline at end of file"
          continue;
        }
        const op = l[0];
        if (op === '-' && oldLeft > 0) {
          hunk.lines.push({ op: '-', text: l.slice(1), oldLine: oldNo++ });
          oldLeft--;
        } else if (op === '+' && newLeft > 0) {
          hunk.lines.push({ op: '+', text: l.slice(1), newLine: newNo++ });
          newLeft--;
        } else if ((op === ' ' || l === '') && oldLeft > 0 && newLeft > 0) {
          // Some tools drop the space of an empty context line.
          hunk.lines.push({ op: ' ', text: l.slice(1), oldLine: oldNo++, newLine: newNo++ });
          oldLeft--;
          newLeft--;
        } else {
          break; // truncated or malformed hunk: keep what was read
        }
        i++;
      }
      cur.hunks.push(hunk);
      continue;
    }
    i++;
  }
  finish();
  return files;
}

/** Merges sorted-or-not ranges that overlap or touch into a sorted list. */
export function mergeRanges(ranges: readonly LineRange[]): LineRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Array<[number, number]> = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/**
 * Old-file line ranges a diff changes: removed lines, and for a pure-insertion hunk the old lines
 * directly around the insertion point (same convention as gold lines, so an edit supersedes the
 * evidence the evaluator counts as gold for it).
 */
export function changedRanges(file: DiffFile): LineRange[] {
  const ranges: LineRange[] = [];
  for (const hunk of file.hunks) {
    const removed = hunk.lines.filter((l) => l.op === '-');
    if (removed.length > 0) {
      for (const l of removed) ranges.push([l.oldLine as number, l.oldLine as number]);
    } else {
      for (const n of insertionNeighbours(hunk)) ranges.push([n.line, n.line]);
      if (hunk.lines.every((l) => l.op === '+')) {
        // No context (-U0): the neighbours are still known by number.
        const above = hunk.oldStart;
        if (above >= 1) ranges.push([above, above + 1]);
        else ranges.push([1, 1]);
      }
    }
  }
  return mergeRanges(ranges);
}

/** Old-file context lines directly above and below each run of added lines in a hunk. */
export function insertionNeighbours(hunk: DiffHunk): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  const ls = hunk.lines;
  for (let j = 0; j < ls.length; j++) {
    if ((ls[j] as DiffLine).op !== '+') continue;
    if (j > 0 && (ls[j - 1] as DiffLine).op === '+') continue; // not the start of a run
    let end = j;
    while (end + 1 < ls.length && (ls[end + 1] as DiffLine).op === '+') end++;
    const before = j > 0 ? ls[j - 1] : undefined;
    const after = end + 1 < ls.length ? ls[end + 1] : undefined;
    if (before && before.op === ' ') out.push({ line: before.oldLine as number, text: before.text });
    if (after && after.op === ' ') out.push({ line: after.oldLine as number, text: after.text });
  }
  return out;
}
