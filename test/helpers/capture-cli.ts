import type { CliIO } from '../../src/cli/io.js';

/** What a command-line run printed and returned, captured instead of written to the process. */
export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a `runCli`-shaped entry (the package's CLI or an evaluation script's) with its output
 * captured, from `cwd`, as a non-TTY so progress lines stay off.
 */
export async function captureCli(
  runCli: (argv: readonly string[], io: CliIO) => Promise<number>,
  argv: string[],
  cwd: string,
): Promise<CapturedRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: { write: (s) => (stderr += s), isTTY: false },
    cwd,
  });
  return { code, stdout, stderr };
}
