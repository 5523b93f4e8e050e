import { describe, expect, it } from 'vitest';
import { ed } from '../../../src/adapters/shell/commands/ed.js';
import { writesOf } from './tool-harness.js';

describe('ed and ex', () => {
  it('write the file they open', () => {
    expect(writesOf(ed, 'ed -s a.py')).toEqual([{ kind: 'write', path: 'a.py' }]);
    expect(writesOf(ed, 'ex')).toEqual([]);
  });
});
