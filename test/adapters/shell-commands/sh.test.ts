import { describe, expect, it } from 'vitest';
import { sh } from '../../../src/adapters/shell/commands/sh.js';
import { verifierOf } from './tool-harness.js';

describe('bash and sh', () => {
  it('verify when they run a check script', () => {
    expect(verifierOf(sh, 'bash scripts/reproduce.sh')).toBe('script');
    expect(verifierOf(sh, 'sh install.sh')).toBeUndefined();
  });
});
