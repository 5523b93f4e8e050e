import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: { write: (s) => (stderr += s), isTTY: false },
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}

describe('context-ledger', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it.each([
    [[], 'a command is required'],
    [['frobnicate'], 'unknown command "frobnicate"'],
  ])('%j: usage on stderr, exit 2', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('Usage: context-ledger');
  });
});
