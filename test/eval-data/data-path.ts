import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The shared evaluation data: CONTEXT_LEDGER_DATA, or ../shared/data from the project root. */
export function dataPath(relative: string): string {
  const root = process.env.CONTEXT_LEDGER_DATA ?? '../shared/data';
  const path = resolve(root, relative);
  if (!existsSync(path)) throw new Error(`${path} is missing: set CONTEXT_LEDGER_DATA to the shared data directory`);
  return path;
}
