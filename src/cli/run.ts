/**
 * The `context-ledger` command: argument dispatch, so tests run it in-process. Returns the exit
 * code: 0 done, 1 bad input or a failed check (a clear message on stderr), 2 bad arguments (the
 * command's usage printed).
 */
import { isLedgerError } from '../errors.js';
import { InputError, UsageError } from './args.js';
import { INGEST_USAGE, ingest } from './ingest.js';
import { INSPECT_USAGE, inspect } from './inspect.js';
import type { CliIO } from './io.js';
import { MATERIALIZE_USAGE, materialize } from './materialize.js';
import { MCP_USAGE, mcp } from './mcp.js';
import { REPLAY_USAGE, replay } from './replay.js';
import { RETRIEVE_USAGE, retrieve } from './retrieve.js';
import { packageVersion } from './version.js';

export type { CliIO } from './io.js';

const COMMANDS: Readonly<
  Record<string, { run: (argv: readonly string[], io: CliIO) => Promise<number>; usage: string }>
> = {
  ingest: { run: ingest, usage: INGEST_USAGE },
  materialize: { run: materialize, usage: MATERIALIZE_USAGE },
  retrieve: { run: retrieve, usage: RETRIEVE_USAGE },
  inspect: { run: inspect, usage: INSPECT_USAGE },
  replay: { run: replay, usage: REPLAY_USAGE },
  mcp: { run: mcp, usage: MCP_USAGE },
};

const USAGE = `Usage: context-ledger <command> [options]

  ingest <transcript...> --out DIR   commit agent transcripts into a durable ledger
  materialize --ledger DIR --budget N
                                     the working set the model would get, explained
  retrieve --ledger DIR --text T     support for a query, or what is missing (JSON)
  inspect --ledger DIR               as-of view, supersessions, contradictions
  replay <transcript...>             replay transcripts step by step and check every working set
  mcp --ledger DIR                   serve the ledger over MCP (stdio): retrieve, explain, inspect

  -h, --help       this text (context-ledger <command> --help: the command's)
  -v, --version    the package version
`;

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
  const command = first === undefined ? undefined : COMMANDS[first];
  if (command === undefined) {
    io.stderr.write(
      `context-ledger: ${first === undefined ? 'a command is required' : `unknown command ${JSON.stringify(first)}`}\n\n${USAGE}`,
    );
    return 2;
  }
  try {
    return await command.run(argv.slice(1), io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`context-ledger ${first}: ${e.message}\n\n${command.usage}`);
      return 2;
    }
    if (e instanceof InputError) {
      io.stderr.write(`context-ledger ${first}: ${e.message}\n`);
      return 1;
    }
    if (isLedgerError(e)) {
      io.stderr.write(`context-ledger ${first}: ${e.message} ${JSON.stringify(e.details)}\n`);
      return 1;
    }
    throw e;
  }
}
