import { describe, expect, it } from 'vitest';
import { cpMv } from '../../../src/adapters/shell/commands/cp-mv.js';
import { writesOf } from './tool-harness.js';

describe('cp and mv', () => {
  it('write the destination file, with the source content when it is known', () => {
    expect(writesOf(cpMv, 'cp a.py b.py', { 'a.py': 'x\n' })).toEqual([
      { kind: 'write', path: 'b.py', content: 'x\n' },
    ]);
    expect(writesOf(cpMv, 'mv a.py b.py')).toEqual([{ kind: 'write', path: 'b.py' }]);
  });

  it('write nothing they can name into a directory', () => {
    expect(writesOf(cpMv, 'cp a.py dir/')).toEqual([]);
    expect(writesOf(cpMv, 'cp -r src dst')).toEqual([]);
  });
});
