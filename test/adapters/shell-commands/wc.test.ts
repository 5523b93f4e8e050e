import { describe, expect, it } from 'vitest';
import { wc } from '../../../src/adapters/shell/commands/wc.js';
import { filterOf, whole } from './tool-harness.js';

describe('wc', () => {
  it('ends a view: it prints counts, not lines', () => {
    expect(filterOf(wc, whole('a.py'), 'wc -l')).toEqual({ t: 'none' });
    expect(wc.source).toBeUndefined();
  });
});
