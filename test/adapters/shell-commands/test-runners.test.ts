import { describe, expect, it } from 'vitest';
import { testRunners } from '../../../src/adapters/shell/commands/test-runners.js';
import { verifierOf } from './tool-harness.js';

describe('test runners', () => {
  it('tox, nox, runtests.py and a project bin/test run tests; the test builtin does not', () => {
    expect(verifierOf(testRunners, 'tox -e py39')).toBe('runner');
    expect(verifierOf(testRunners, './runtests.py')).toBe('runner');
    expect(testRunners.verifier!('bin/test', [])).toBe('runner');
    expect(verifierOf(testRunners, 'test -f a.py')).toBeUndefined();
  });
});
