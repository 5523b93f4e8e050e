/** Opening the durable ledger a command names with `--ledger DIR`. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openLedger } from '../entries/node.js';
import type { Ledger } from '../ledger/ledger.js';
import { type NodeDirectoryStorage, nodeDirectoryStorage } from '../storage/node-directory.js';
import { InputError } from './args.js';

export interface OpenedLedger {
  ledger: Ledger;
  storage: NodeDirectoryStorage;
}

/** Opens DIR's ledger; a missing one is an input error, never an empty ledger created by accident. */
export async function openLedgerDir(dir: string, cwd: string): Promise<OpenedLedger> {
  const full = resolve(cwd, dir);
  if (!existsSync(join(full, 'snapshot.bin')) && !existsSync(join(full, 'log.bin'))) {
    throw new InputError(`no ledger in ${dir} (create one with: context-ledger ingest <transcript...> --out ${dir})`);
  }
  return createLedgerDir(full);
}

/** Opens DIR's ledger, creating the directory and an empty ledger when there is none. */
export async function createLedgerDir(full: string): Promise<OpenedLedger> {
  const storage = await nodeDirectoryStorage(full, { compactEvery: 1000 });
  try {
    return { ledger: await openLedger({ storage }), storage };
  } catch (e) {
    await storage.close();
    throw e;
  }
}
