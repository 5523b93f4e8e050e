import { describe, expect, it } from 'vitest';
import { git } from '../../../src/adapters/shell/commands/git.js';
import { writesOf } from './tool-harness.js';

const diff = '--- a/a.py\n+++ b/a.py\n@@ -2,1 +2,1 @@\n-y\n+Y\n';

describe('git', () => {
  it('reverts the paths of checkout and restore', () => {
    expect(writesOf(git, 'git checkout -- a.py')).toEqual([{ kind: 'write', path: 'a.py', revert: true }]);
    expect(writesOf(git, 'git checkout -b topic')).toEqual([]);
  });

  it('writes what git apply applies, unless it only checks', () => {
    expect(writesOf(git, 'git apply fix.diff', { 'fix.diff': diff })).toEqual([
      { kind: 'write', path: 'a.py', changed: [[2, 2]] },
    ]);
    expect(writesOf(git, 'git apply --check fix.diff', { 'fix.diff': diff })).toEqual([]);
  });

  it('prints nothing for add and apply', () => {
    expect(git.silent!(['add', '.'])).toBe(true);
    expect(git.silent!(['diff'])).toBe(false);
  });
});
