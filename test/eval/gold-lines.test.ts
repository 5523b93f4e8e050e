import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goldLines } from '../../scripts/eval/gold-lines.js';

const modify = `diff --git a/pkg/calc.py b/pkg/calc.py
index 1111111..2222222 100644
--- a/pkg/calc.py
+++ b/pkg/calc.py
@@ -6,4 +6,4 @@ def area(r):
 
 
 def div(a, b):
-    return a / b
+    return a / b if b else 0
`;

describe('goldLines', () => {
  it('a modification: the old lines it replaces, numbered in the old file', () => {
    expect(goldLines(modify)).toEqual([
      { path: 'pkg/calc.py', kind: 'modified', lines: [{ line: 9, text: '    return a / b' }] },
    ]);
  });

  it('a pure insertion: the old context lines directly above and below', () => {
    const patch = `diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -10,6 +10,8 @@ class A:
     def f(self):
         return 1
 
+    def g(self):
+        return 2
     def h(self):
         return 3
 
`;
    expect(goldLines(patch)).toEqual([
      {
        path: 'm.py',
        kind: 'inserted-context',
        lines: [
          { line: 12, text: '' },
          { line: 13, text: '    def h(self):' },
        ],
      },
    ]);
  });

  it('insertion at the start or end of the file has one neighbour', () => {
    const top = `--- a/t.py\n+++ b/t.py\n@@ -1,2 +1,3 @@\n+import os\n first\n second\n`;
    expect(goldLines(top)[0]?.lines).toEqual([{ line: 1, text: 'first' }]);
    const end = `--- a/t.py\n+++ b/t.py\n@@ -4,2 +4,3 @@\n four\n five\n+six\n`;
    expect(goldLines(end)[0]?.lines).toEqual([{ line: 5, text: 'five' }]);
  });

  it('a deletion: every removed line', () => {
    const patch = `--- a/d.py\n+++ b/d.py\n@@ -3,4 +3,1 @@\n keep\n-drop1\n-drop2\n-drop3\n`;
    expect(goldLines(patch)).toEqual([
      {
        path: 'd.py',
        kind: 'modified',
        lines: [
          { line: 4, text: 'drop1' },
          { line: 5, text: 'drop2' },
          { line: 6, text: 'drop3' },
        ],
      },
    ]);
  });

  it('several hunks and several files, ordered by path then line; hunk counts, not prefixes, end a hunk', () => {
    const patch = `diff --git a/z.py b/z.py
--- a/z.py
+++ b/z.py
@@ -20,3 +20,3 @@
 a
--- this removed line starts with dashes
+++ this added line starts with pluses
 b
@@ -2,2 +2,2 @@
-old two
+new two
 three
diff --git a/a.py b/a.py
--- a/a.py
+++ b/a.py
@@ -1 +1 @@
-x = 1
+x = 2
`;
    expect(goldLines(patch)).toEqual([
      { path: 'a.py', kind: 'modified', lines: [{ line: 1, text: 'x = 1' }] },
      {
        path: 'z.py',
        kind: 'modified',
        lines: [
          { line: 2, text: 'old two' },
          { line: 21, text: '-- this removed line starts with dashes' },
        ],
      },
    ]);
  });

  it('new, deleted and renamed files; a rename without hunks has no gold lines', () => {
    const patch = `diff --git a/new.py b/new.py
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/new.py
@@ -0,0 +1,2 @@
+a
+b
diff --git a/gone.py b/gone.py
deleted file mode 100644
index 1111111..0000000
--- a/gone.py
+++ /dev/null
@@ -1,2 +0,0 @@
-a
-b
diff --git a/old/name.py b/new/name.py
similarity index 100%
rename from old/name.py
rename to new/name.py
diff --git a/src/x.py b/src/y.py
similarity index 90%
rename from src/x.py
rename to src/y.py
index 1..2 100644
--- a/src/x.py
+++ b/src/y.py
@@ -3,1 +3,1 @@
-v = 1
+v = 2
`;
    expect(goldLines(patch)).toEqual([
      {
        path: 'gone.py',
        kind: 'modified',
        lines: [
          { line: 1, text: 'a' },
          { line: 2, text: 'b' },
        ],
      },
      { path: 'new.py', kind: 'inserted-context', lines: [] },
      { path: 'old/name.py', kind: 'inserted-context', lines: [] },
      { path: 'src/x.py', kind: 'modified', lines: [{ line: 3, text: 'v = 1' }] },
    ]);
  });

  it('handles CRLF patches, "No newline" markers and empty input', () => {
    const patch =
      '--- a/w.txt\r\n+++ b/w.txt\r\n@@ -1,2 +1,2 @@\r\n keep\r\n-last\r\n\\ No newline at end of file\r\n+last!\r\n\\ No newline at end of file\r\n';
    expect(goldLines(patch)).toEqual([{ path: 'w.txt', kind: 'modified', lines: [{ line: 2, text: 'last' }] }]);
    expect(goldLines('')).toEqual([]);
    expect(goldLines('not a diff at all')).toEqual([]);
  });

  it('is deterministic', () => {
    expect(goldLines(modify)).toEqual(goldLines(modify));
  });
});

/** A one-hunk git diff replacing old[start .. start+del) (0-based) with `add`, 3 lines of context. */
function makeDiff(old: string[], start: number, del: number, add: string[]): string {
  const from = Math.max(0, start - 3);
  const to = Math.min(old.length, start + del + 3);
  const body = [
    ...old.slice(from, start).map((l) => ` ${l}`),
    ...old.slice(start, start + del).map((l) => `-${l}`),
    ...add.map((l) => `+${l}`),
    ...old.slice(start + del, to).map((l) => ` ${l}`),
  ];
  const oldCount = to - from;
  const newCount = oldCount - del + add.length;
  const oldStart = oldCount === 0 ? from : from + 1;
  const newStart = newCount === 0 ? from : from + 1;
  return `diff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n${body.join('\n')}\n`;
}

describe('goldLines (property)', () => {
  const line = fc.stringMatching(/^[a-z =+-]{0,8}$/);
  it('gold lines are old-file lines at their old numbers: the removed ones, or the insertion neighbours', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.nat({ max: 4 }),
        fc.array(line, { maxLength: 4 }),
        (old, s, d, add) => {
          const start = s % (old.length + 1);
          const del = Math.min(d, old.length - start);
          fc.pre(del > 0 || add.length > 0);
          const [g] = goldLines(makeDiff(old, start, del, add));
          expect(g?.path).toBe('f.py');
          for (const l of g?.lines ?? []) expect(l.text).toBe(old[l.line - 1]);
          const lines = (g?.lines ?? []).map((l) => l.line);
          if (del > 0) {
            expect(g?.kind).toBe('modified');
            expect(lines).toEqual(Array.from({ length: del }, (_, i) => start + i + 1));
          } else {
            expect(g?.kind).toBe('inserted-context');
            expect(lines).toEqual([start, start + 1].filter((n) => n >= 1 && n <= old.length));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
