import { describe, expect, it } from 'vitest';
import { tee } from '../../../src/adapters/shell/commands/tee.js';
import { writesOf } from './tool-harness.js';

describe('tee', () => {
  it('writes each file it names; -a appends, changing no old line; /dev/null is no file', () => {
    expect(writesOf(tee, 'tee a.py /dev/null')).toEqual([{ kind: 'write', path: 'a.py' }]);
    expect(writesOf(tee, 'tee -a a.py')).toEqual([{ kind: 'write', path: 'a.py', changed: [] }]);
  });
});
