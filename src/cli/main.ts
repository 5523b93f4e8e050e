#!/usr/bin/env node
/** The `context-ledger` command. Logic lives in run.ts so tests can run it in-process. */
import { runCli } from './run.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: { write: (s) => process.stderr.write(s), isTTY: process.stderr.isTTY === true },
  cwd: process.cwd(),
});
