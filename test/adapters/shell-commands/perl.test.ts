import { describe, expect, it } from 'vitest';
import { perl } from '../../../src/adapters/shell/commands/perl.js';
import { writesOf } from './tool-harness.js';

describe('perl', () => {
  it('writes the files it edits in place, and none without -i', () => {
    expect(writesOf(perl, "perl -pi -e 's/a/b/' a.py")).toEqual([{ kind: 'write', path: 'a.py' }]);
    expect(writesOf(perl, "perl -pe 's/a/b/' a.py")).toEqual([]);
  });
});
