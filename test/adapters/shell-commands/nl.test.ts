import { describe, expect, it } from 'vitest';
import { nl } from '../../../src/adapters/shell/commands/nl.js';
import { filterOf, sourceOf } from './tool-harness.js';

describe('nl', () => {
  it('is a numbered source only with -ba (every line numbered)', () => {
    expect(sourceOf(nl, 'nl -ba a.py')).toEqual({ t: 'numbered', path: 'a.py', offset: 0, prefixes: 0, seps: false });
    expect(sourceOf(nl, 'nl a.py')).toMatchObject({
      t: 'uncertain',
      reason: 'nl numbers non-empty lines only (use -ba)',
    });
    expect(sourceOf(nl, 'nl -ba -v 10 a.py')).toMatchObject({ t: 'numbered', offset: -9 });
  });

  it('numbers a plain stream from where it starts', () => {
    expect(filterOf(nl, { t: 'plain', path: 'a.py', start: 20 }, 'nl -ba')).toMatchObject({
      t: 'numbered',
      offset: 19,
    });
  });
});
