/** Opening the durable ledger a command names with `--ledger DIR`. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openLedger } from '../entries/node.js';
import { isLedgerError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { type NodeDirectoryStorage, nodeDirectoryStorage } from '../storage/node-directory.js';
import { InputError } from './args.js';
import type { CliIO } from './io.js';

export interface OpenedLedger {
  ledger: Ledger;
  storage: NodeDirectoryStorage;
}

/** Opens DIR's ledger; a missing one is an input error, never an empty ledger created by accident. */
export async function openLedgerDir(dir: string, io: CliIO): Promise<OpenedLedger> {
  const full = resolve(io.cwd, dir);
  if (!existsSync(join(full, 'snapshot.bin')) && !existsSync(join(full, 'log.bin'))) {
    throw new InputError(`no ledger in ${dir} (create one with: context-ledger ingest <transcript...> --out ${dir})`);
  }
  return createLedgerDir(full, io);
}

/**
 * Opens DIR's ledger, creating the directory and an empty ledger when there is none. A log tail
 * that opening had to cut off is printed as a warning: it may have held an acknowledged
 * transaction.
 */
export async function createLedgerDir(full: string, io: CliIO): Promise<OpenedLedger> {
  let storage: NodeDirectoryStorage;
  try {
    storage = await nodeDirectoryStorage(full, { compactEvery: 1000 });
  } catch (e) {
    if (isLedgerError(e, 'INVALID_OPTION')) throw new InputError(`${full}: ${String(e.details.reason)}`);
    throw e;
  }
  try {
    const ledger = await openLedger({ storage });
    if (ledger.recovered) io.stderr.write(`warning: ${ledger.recovered.reason}\n`);
    return { ledger, storage };
  } catch (e) {
    await storage.close();
    throw e;
  }
}
