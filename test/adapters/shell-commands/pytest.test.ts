import { describe, expect, it } from 'vitest';
import { pytest } from '../../../src/adapters/shell/commands/pytest.js';
import { toolNamed } from '../../../src/adapters/shell/commands/registry.js';
import { verifierOf } from './tool-harness.js';

describe('pytest', () => {
  it('is a pytest verifier under both names', () => {
    expect(verifierOf(pytest, 'pytest -x tests')).toBe('pytest');
    expect(toolNamed('py.test')).toBe(pytest);
  });
});
