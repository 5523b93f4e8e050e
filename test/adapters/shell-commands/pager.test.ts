import { describe, expect, it } from 'vitest';
import { pager } from '../../../src/adapters/shell/commands/pager.js';
import { filterOf, whole } from './tool-harness.js';

describe('less and more', () => {
  it('pass lines through as cat does, and lose them on another file', () => {
    expect(pager.names).toEqual(['less', 'more']);
    expect(filterOf(pager, whole('a.py'), 'less')).toEqual(whole('a.py'));
    expect(filterOf(pager, whole('a.py'), 'more b.py')).toMatchObject({
      t: 'uncertain',
      reason: 'cat of another file',
    });
  });
});
