import { CREATE_TABLES, ENGINE_TABLES } from '../schema/ddl.js';
import type { CommitPlan } from './commit/plan-commit.js';
import type { LedgerConfig } from './ledger-config.js';
import { LedgerIndex } from './ledger-index.js';
import { OpQueue } from './op-queue.js';
import type { Recovered } from './storage.js';

/**
 * Derived state kept in step with every commit (current-edge tables, search postings, …).
 * Hooks run for live commits, archives and log replay alike, in registration order.
 */
interface CommitHook {
  /** SQL run inside the commit's engine transaction, after the plan's rows are written: the
   * statements join the commit's one batch, so they cost no extra round trip. */
  statements?(plan: CommitPlan): readonly string[];
  /** Called after the engine transaction committed (the index already holds the plan). */
  committed?(plan: CommitPlan): void;
}

/**
 * Everything a ledger holds, shared by the modules that implement its operations; the `Ledger`
 * facade keeps it private and hands it out only through `@internal` accessors.
 */
export interface LedgerCore {
  readonly config: LedgerConfig;
  /** The in-memory mirror commits validate against (see LedgerIndex). */
  readonly index: LedgerIndex;
  readonly queue: OpQueue;
  readonly hooks: CommitHook[];
  /** Records in the storage's log since its snapshot: the sequence number of the next one. */
  logRecords: number;
  /** What opening the storage cut off its log (`ledger.recovered`). */
  recovered: Recovered | null;
}

/** A core over a fresh database: creates the tables. */
export async function createCore(config: LedgerConfig): Promise<LedgerCore> {
  for (const name of ENGINE_TABLES) await config.engine.run(CREATE_TABLES[name]);
  return { config, index: new LedgerIndex(), queue: new OpQueue(), hooks: [], logRecords: 0, recovered: null };
}
