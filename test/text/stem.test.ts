import { describe, expect, it } from 'vitest';
import { stem, textTerms } from '../../src/text/text-terms.js';

describe('stem', () => {
  it('meet a -ied past tense with its -y base, as the -ies form already does', () => {
    for (const base of ['try', 'study', 'carry', 'reply', 'apply', 'worry', 'marry', 'embody']) {
      const root = base.slice(0, -1);
      expect(stem(`${root}ied`), `${root}ied`).toBe(stem(base));
      expect(stem(`${root}ies`), `${root}ies`).toBe(stem(base));
      expect(stem(`${root}ying`), `${root}ying`).toBe(stem(base));
    }
    expect(textTerms('She tried and studied')).toEqual(textTerms('she tries and studies'));
  });

  it('leave four-letter -ied words alone', () => {
    expect(stem('died')).toBe('died');
    expect(stem('tied')).toBe('tied');
  });
});
