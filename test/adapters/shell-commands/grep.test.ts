import { describe, expect, it } from 'vitest';
import { grep } from '../../../src/adapters/shell/commands/grep.js';
import { filterOf, sourceOf } from './tool-harness.js';

describe('grep', () => {
  it('is a source when it numbers lines, of one file or of several with names', () => {
    expect(sourceOf(grep, 'grep -n def a.py')).toMatchObject({ t: 'grep', path: 'a.py', multi: false });
    expect(sourceOf(grep, 'grep -rn def src')).toMatchObject({ t: 'grep', multi: true });
    expect(sourceOf(grep, 'grep def a.py')).toMatchObject({ t: 'uncertain', reason: 'grep without -n' });
    expect(sourceOf(grep, 'grep -l def a.py')).toEqual({ t: 'none' });
  });

  it('keeps numbered lines through a filter and numbers a plain stream from its start', () => {
    const numbered = { t: 'numbered' as const, path: 'a.py', offset: 0, prefixes: 0, seps: false };
    expect(filterOf(grep, numbered, 'grep -n x')).toMatchObject({ t: 'numbered', prefixes: 1 });
    expect(filterOf(grep, { t: 'plain', path: 'a.py', start: 11 }, 'grep -n x')).toMatchObject({
      t: 'grep',
      offset: 10,
    });
    expect(grep.names).toEqual(['grep', 'egrep', 'fgrep']);
  });
});
