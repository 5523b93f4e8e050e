import { describe, expect, it } from 'vitest';
import { patch } from '../../../src/adapters/shell/commands/patch.js';
import { writesOf } from './tool-harness.js';

const diff = '--- a/a.py\n+++ b/a.py\n@@ -1,1 +1,1 @@\n-x\n+X\n';

describe('patch', () => {
  it('writes what its diff changes, from a file or stdin, and nothing on a dry run', () => {
    expect(writesOf(patch, 'patch -p1 -i fix.diff', { 'fix.diff': diff })).toEqual([
      { kind: 'write', path: 'a.py', changed: [[1, 1]] },
    ]);
    expect(writesOf(patch, 'patch -p1 < fix.diff', { 'fix.diff': diff })).toHaveLength(1);
    expect(writesOf(patch, 'patch --dry-run -p1 < fix.diff', { 'fix.diff': diff })).toEqual([]);
  });
});
