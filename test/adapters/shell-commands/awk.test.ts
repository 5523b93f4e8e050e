import { describe, expect, it } from 'vitest';
import { awk } from '../../../src/adapters/shell/commands/awk.js';
import { sourceOf } from './tool-harness.js';

describe('awk', () => {
  it('is a source of a fixed NR span, uncertain for any other program', () => {
    expect(sourceOf(awk, "awk 'NR>=3 && NR<=9' a.py")).toEqual({ t: 'plain', path: 'a.py', start: 3, maxLen: 7 });
    expect(sourceOf(awk, "awk 'NR==3,NR==4' a.py")).toMatchObject({ start: 3, maxLen: 2 });
    expect(sourceOf(awk, "awk '{print $1}' a.py")).toMatchObject({ t: 'uncertain', reason: 'awk program' });
  });
});
