import { describe, expect, it } from 'vitest';
import { sed } from '../../../src/adapters/shell/commands/sed.js';
import { filterOf, sourceOf, whole, writesOf } from './tool-harness.js';

describe('sed', () => {
  it('is a source of the fixed spans it prints with -n', () => {
    expect(sourceOf(sed, "sed -n '10,20p' a.py")).toEqual({ t: 'plain', path: 'a.py', start: 10, maxLen: 11 });
    expect(sourceOf(sed, "sed -n -e '1,2p' -e '5,6p' a.py")).toMatchObject({
      segments: [
        [1, 2],
        [5, 6],
      ],
    });
    expect(sourceOf(sed, "sed '10,20p' a.py")).toMatchObject({ t: 'uncertain', reason: 'sed without -n' });
  });

  it('selects a span of a plain stream as a filter', () => {
    expect(filterOf(sed, whole('a.py'), "sed -n '3,4p'")).toMatchObject({ t: 'plain', start: 3, maxLen: 2 });
  });

  it('writes in place with -i, and is then neither a view nor output', () => {
    expect(sourceOf(sed, "sed -i 's/a/b/' a.py")).toEqual({ t: 'none' });
    expect(writesOf(sed, "sed -i '2d' a.py", { 'a.py': 'x\ny\nz\n' })).toEqual([
      { kind: 'write', path: 'a.py', changed: [[2, 2]] },
    ]);
    expect(sed.silent!(['-i', 's/a/b/', 'a.py'])).toBe(true);
    expect(sed.silent!(['-n', '1p', 'a.py'])).toBe(false);
  });

  it('reads a script file given with -f as no script, in every role', () => {
    expect(sourceOf(sed, 'sed -n -f s.sed a.py')).toEqual({ t: 'none' });
    expect(writesOf(sed, 'sed -i -f s.sed a.py')).toEqual([{ kind: 'write', path: 'a.py' }]);
  });
});
