import { describe, expect, it } from 'vitest';
import { make } from '../../../src/adapters/shell/commands/make.js';
import { verifierOf } from './tool-harness.js';

describe('make', () => {
  it('is a runner for test targets and check, nothing else', () => {
    expect(verifierOf(make, 'make test-unit')).toBe('runner');
    expect(verifierOf(make, 'make check')).toBe('runner');
    expect(verifierOf(make, 'make build')).toBeUndefined();
  });
});
