import { describe, expect, it } from 'vitest';
import { head, tail } from '../../../src/adapters/shell/commands/head-tail.js';
import { filterOf, sourceOf, whole } from './tool-harness.js';

describe('head', () => {
  it('is a source of at most its count from line 1, and caps a stream as a filter', () => {
    expect(sourceOf(head, 'head -n 5 a.py')).toEqual({ t: 'plain', path: 'a.py', start: 1, maxLen: 5 });
    expect(sourceOf(head, 'head -c 10 a.py')).toMatchObject({ t: 'uncertain', reason: 'head -c' });
    expect(filterOf(head, { t: 'plain', path: 'a.py', start: 3, maxLen: 50 }, 'head -20')).toMatchObject({
      start: 3,
      maxLen: 20,
    });
  });
});

describe('tail', () => {
  it('needs the file length for its last lines; +K starts at line K', () => {
    expect(sourceOf(tail, 'tail -n 2 a.py', { 'a.py': 'a\nb\nc\nd\n' })).toMatchObject({ start: 3, exactLen: 2 });
    expect(sourceOf(tail, 'tail -n 2 a.py')).toMatchObject({ t: 'uncertain' });
    expect(sourceOf(tail, 'tail -n +7 a.py')).toMatchObject({ t: 'plain', start: 7, toEnd: true });
    expect(filterOf(tail, whole('a.py'), 'tail -n 1', { 'a.py': 'a\nb\n' })).toMatchObject({ start: 2, exactLen: 1 });
  });
});
