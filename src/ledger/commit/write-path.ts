import { asLedgerError, LedgerError } from '../../errors.js';
import type { Transaction } from '../../schema/types.js';
import { validateShape } from '../../schema/validate-shape.js';
import type { LedgerCore } from '../ledger-core.js';
import type { StorageAdapter } from '../storage.js';
import { countNewBodies } from './count-bodies.js';
import { closeOwnVersions, writePlans } from './engine-writes.js';
import { encodeLogRecord, type LogRecord, liveRecords } from './log-record.js';
import { planArchive } from './plan-archive.js';
import { type BodyHashes, type CommitPlan, planCommit } from './plan-commit.js';

/** Validates, plans and writes a transaction (its own copy); logs it when `log` is set. */
export async function commitTransaction(core: LedgerCore, tx: Transaction, log: boolean): Promise<CommitPlan> {
  validateShape(tx);
  const hashes = await hashBodies(core, tx);
  const counted = await countNewBodies(tx, core.index, hashes, core.config.counter.count);
  const plan = planCommit(tx, core.index, hashes, (text, i) => counted[i] ?? core.config.counter.count(text));
  await applyPlan(core, plan, log ? { op: 'commit', tx } : null);
  return plan;
}

/** Archives transaction `tx` from `epoch` (ARCHIVE_REFUSED when something depends on it). */
export async function archiveTransaction(
  core: LedgerCore,
  tx: number,
  epoch: number,
  log: boolean,
): Promise<CommitPlan> {
  const plan = await planArchive(core.config.engine, core.index, tx, epoch);
  await applyPlan(core, plan, log ? { op: 'archive', tx, epoch } : null);
  return plan;
}

/** Re-applies log records read from storage (recovery); they are not logged again. */
export async function replayLog(core: LedgerCore, records: readonly Uint8Array[]): Promise<void> {
  for (const { record } of liveRecords(records, core.index.lastTx)) {
    if (record.op === 'commit') await commitTransaction(core, record.tx, false);
    else await archiveTransaction(core, record.tx, record.epoch, false);
  }
}

/**
 * Applies a validated plan: a step-sized one is logged and kept for the engine's next read (see
 * write-behind.ts); a larger one is written at once, inside one engine transaction that the
 * durable log append of `record` runs in, so that a storage failure rolls the engine back too.
 * When the engine's COMMIT fails after the append succeeded, the log holds a record this ledger
 * does not: a `void` record naming its transaction is appended so that replay skips it (and if even
 * that append fails, the ledger refuses every later call until reopened).
 *
 * Either way, what already waits is written first when it must be (a bulk commit, or too much
 * waiting), before this plan is logged: if that write fails, this plan is rejected and was never
 * logged, and the ledger refuses later calls (the waiting commits were acknowledged).
 */
async function applyPlan(core: LedgerCore, plan: CommitPlan, record: LogRecord | null): Promise<void> {
  const { pending } = core;
  closeOwnVersions(plan);
  const storage = record === null ? null : core.config.storage;
  if (pending.defers(plan)) {
    if (pending.full(plan)) await pending.flush();
    if (storage !== null) await appendRecord(core, storage, record!);
    pending.add(plan);
  } else {
    await pending.flush();
    let appended = false;
    const append =
      storage === null
        ? null
        : async () => {
            await appendRecord(core, storage, record!);
            appended = true;
          };
    try {
      await writePlans(pending.engine, [plan], append);
    } catch (e) {
      if (appended) await voidRecord(core, storage!, plan.transaction.tx, e);
      throw e;
    }
  }
  applyToIndex(core, plan);
  for (const hook of core.hooks) hook.committed(plan);
}

async function appendRecord(core: LedgerCore, storage: StorageAdapter, record: LogRecord): Promise<void> {
  try {
    await storage.append(encodeLogRecord(record, core.logRecords));
  } catch (cause) {
    throw asLedgerError(cause, 'STORAGE_FAILED', 'storage');
  }
  core.logRecords++;
}

async function voidRecord(core: LedgerCore, storage: StorageAdapter, tx: number, error: unknown): Promise<void> {
  try {
    await storage.append(encodeLogRecord({ op: 'void', tx }, core.logRecords));
    core.logRecords++;
  } catch (cause) {
    core.queue.fail(
      new LedgerError(
        'STORAGE_FAILED',
        {
          field: 'storage',
          reason: `transaction ${tx} failed after its log record was written, and the record could not be voided; reopen the ledger (the transaction may reappear)`,
          error: String(error),
        },
        cause,
      ),
    );
  }
}

function applyToIndex({ index }: LedgerCore, plan: CommitPlan): void {
  const epoch = plan.transaction.epoch;
  for (const row of plan.closedNodes) index.closeNode(row, epoch);
  index.nextCkey += plan.closures.length;
  // Indexed loops: this runs once per commit, too rarely to be optimised, and `for…of` in
  // unoptimised code allocates an iterator result per row (3 MB per 20k bulk nodes).
  const { bodies, nodes, edges } = plan;
  for (let i = 0; i < bodies.length; i++) index.addBody(bodies[i]!);
  for (let i = 0; i < nodes.length; i++) index.addNodeVersion(nodes[i]!);
  for (let i = 0; i < edges.length; i++) index.addEdge(edges[i]!);
  index.addTransaction(plan.transaction);
}

/** The content hash of each node's body, by position. A text repeated within the transaction
 * is hashed again rather than deduplicated by a Set keyed on the text (see BodyHashes). */
async function hashBodies(core: LedgerCore, tx: Transaction): Promise<BodyHashes> {
  const nodes = tx.nodes ?? [];
  const texts: string[] = [];
  for (let i = 0; i < nodes.length; i++) if (nodes[i]!.body !== undefined) texts.push(nodes[i]!.body!);
  const hashes = await core.config.hashTexts(texts);
  const out = new Array<string | undefined>(nodes.length);
  for (let i = 0, k = 0; i < nodes.length; i++) if (nodes[i]!.body !== undefined) out[i] = hashes[k++];
  return out;
}
