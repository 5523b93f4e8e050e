/**
 * The `context-ledger` command: argument dispatch, so tests run it in-process. Returns the exit
 * code: 0 done, 2 bad arguments (usage printed).
 */
import { readFileSync } from 'node:fs';

export interface CliIO {
  stdout(text: string): void;
  stderr: { write(text: string): void; isTTY: boolean };
  /** Relative paths resolve against it. */
  cwd: string;
}

export const USAGE = `Usage: context-ledger <command> [options]

  -h, --help     this text
  -v, --version  the package version

The evaluations (replay, retrieval) run from a clone of the repository: npm run eval:replay,
npm run eval:retrieval.
`;

/** dist/cli/ and src/cli/ both sit two levels under the package root. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const first = argv[0];
  if (first === '-h' || first === '--help') {
    io.stdout(USAGE);
    return 0;
  }
  if (first === '-v' || first === '--version') {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  io.stderr.write(
    `context-ledger: ${first === undefined ? 'a command is required' : `unknown command ${JSON.stringify(first)}`}\n\n${USAGE}`,
  );
  return 2;
}
