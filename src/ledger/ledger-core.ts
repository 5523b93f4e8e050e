import { CREATE_TABLES, ENGINE_TABLES } from '../schema/ddl.js';
import type { CommitPlan } from './commit/plan-commit.js';
import { PendingWrites } from './commit/write-behind.js';
import type { LedgerConfig } from './ledger-config.js';
import { LedgerIndex } from './ledger-index.js';
import { OpQueue } from './op-queue.js';
import type { Recovered } from './storage.js';

/**
 * Derived state kept in step with every commit (current-edge tables, search postings, …).
 * Hooks run for live commits, archives and log replay alike, in registration order.
 */
interface CommitHook {
  /** Called once the commit is acknowledged (the index already holds the plan; the engine may not
   * yet, see PendingWrites). */
  committed(plan: CommitPlan): void;
}

/**
 * Everything a ledger holds, shared by the modules that implement its operations; the `Ledger`
 * facade keeps it private and hands it out only through `@internal` accessors.
 */
export interface LedgerCore {
  /** The setup, its engine the read-through one: every statement sees every acknowledged commit. */
  readonly config: LedgerConfig;
  /** Acknowledged commits not yet in the engine, and the raw engine they are written to. */
  readonly pending: PendingWrites;
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
export async function createCore(setup: LedgerConfig): Promise<LedgerCore> {
  for (const name of ENGINE_TABLES) await setup.engine.run(CREATE_TABLES[name]);
  const queue = new OpQueue();
  const pending = new PendingWrites(setup.engine, (error) => queue.fail(error));
  const config = Object.freeze({ ...setup, engine: pending.readThrough() });
  return { config, pending, index: new LedgerIndex(), queue, hooks: [], logRecords: 0, recovered: null };
}
