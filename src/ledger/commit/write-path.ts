import { asLedgerError, LedgerError } from '../../errors.js';
import type { EngineTable } from '../../schema/ddl.js';
import type { Transaction } from '../../schema/types.js';
import { validateShape } from '../../schema/validate-shape.js';
import { closeVersionsSql } from '../../sql/close-versions.js';
import { beginTransactionSql, commitSql, rollbackSql } from '../../sql/transaction-sql.js';
import type { LedgerCore } from '../ledger-core.js';
import type { StorageAdapter } from '../storage.js';
import { commitRowsIPC } from './commit-ipc.js';
import { countNewBodies } from './count-bodies.js';
import { literalInsertSql, smallTextInsertSql } from './literal-rows.js';
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
 * Writes a plan inside one engine transaction; the durable log append of `record` runs inside
 * it, so a storage failure rolls the engine back too. When the engine's COMMIT fails after the
 * append succeeded, the log holds a record this ledger does not: a `void` record naming its
 * transaction is appended so that replay skips it (and if even that append fails, the ledger
 * refuses every later call until reopened).
 *
 * Each round trip and each Arrow insert has a fixed cost in DuckDB-WASM, so a commit is
 * one SQL batch (BEGIN, the validity UPDATE, small inserts as literals, the hooks' statements),
 * one Arrow stream per remaining table, and COMMIT (in the last batch when nothing is logged).
 */
async function applyPlan(core: LedgerCore, plan: CommitPlan, record: LogRecord | null): Promise<void> {
  const { engine } = core.config;
  const epoch = plan.transaction.epoch;
  // Versions written and closed by this same commit are written closed (they are the plan's
  // own rows, not the index's, so setting valid_to early changes nothing if the commit fails);
  // only older versions need the UPDATE.
  const closed = new Set<number>();
  for (const c of plan.closures) if (c.target === 'node') closed.add(c.key);
  if (closed.size > 0) for (const row of plan.nodes) if (closed.delete(row.vkey)) row.valid_to = epoch;
  const batch = [beginTransactionSql()];
  if (closed.size > 0) batch.push(closeVersionsSql(epoch, [...closed]));
  // Rows each written as an Arrow stream just before its insert: commitRowsIPC reuses one buffer.
  // The transaction's own row goes to the index only (see ENGINE_TABLES).
  const streams: Array<[EngineTable, readonly object[]]> = [];
  const inserts: Array<[EngineTable, readonly object[]]> = [
    ['bodies', plan.bodies],
    ['nodes', plan.nodes],
    ['edges', plan.edges],
    ['closures', plan.closures],
  ];
  for (const [name, rows] of inserts) {
    if (rows.length === 0) continue;
    const sql = literalInsertSql(name, rows) ?? smallTextInsertSql(name, rows);
    if (sql !== null) batch.push(sql);
    else streams.push([name, rows]);
  }
  const after: string[] = [];
  for (const hook of core.hooks) if (hook.statements) after.push(...hook.statements(plan));
  const storage = record === null ? null : core.config.storage;
  // Without a log append between the writes and COMMIT, COMMIT ends the last SQL batch rather
  // than costing a round trip of its own; with no Arrow stream either (a small step: see
  // literal-rows.ts), the whole commit is one batch. A failing statement stops the batch before
  // COMMIT and the catch below rolls back, so the commit is still applied whole or not at all.
  if (storage === null) {
    after.push(commitSql());
    if (streams.length === 0) batch.push(...after.splice(0));
  }
  let appended = false;
  try {
    try {
      await engine.run(batch.join(';\n'));
      for (const [name, rows] of streams) await engine.insertIPC(name, commitRowsIPC(name, rows));
      if (after.length > 0) await engine.run(after.join(';\n'));
    } catch (cause) {
      throw asLedgerError(cause, 'ENGINE_FAILED');
    }
    if (storage !== null) {
      try {
        await storage.append(encodeLogRecord(record!, core.logRecords));
      } catch (cause) {
        throw asLedgerError(cause, 'STORAGE_FAILED', 'storage');
      }
      core.logRecords++;
      appended = true;
      try {
        await engine.run(commitSql());
      } catch (cause) {
        throw asLedgerError(cause, 'ENGINE_FAILED');
      }
    }
  } catch (e) {
    await engine.run(rollbackSql()).catch(() => undefined);
    if (appended) await voidRecord(core, storage!, plan.transaction.tx, e);
    throw e;
  }
  applyToIndex(core, plan);
  for (const hook of core.hooks) hook.committed?.(plan);
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
