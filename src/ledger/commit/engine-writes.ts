import type { Engine } from '../../engine/engine.js';
import { asLedgerError } from '../../errors.js';
import type { EngineTable } from '../../schema/ddl.js';
import { closeVersionsSql } from '../../sql/close-versions.js';
import { beginTransactionSql, commitSql, rollbackSql } from '../../sql/transaction-sql.js';
import { commitRowsIPC } from './commit-ipc.js';
import { literalInsertSql, smallTextInsertSql } from './literal-rows.js';
import type { CommitPlan } from './plan-commit.js';

/**
 * Writes the rows of `plans`, in commit order, inside one engine transaction; runs `beforeCommit`
 * (the durable log append) between the writes and COMMIT when given. Anything that fails rolls
 * the engine back and is rethrown, engine failures as ENGINE_FAILED.
 *
 * Each round trip and each Arrow insert has a fixed cost in DuckDB-WASM, so the plans' rows are
 * written table by table: one SQL batch (BEGIN, small inserts as literals), one Arrow stream per
 * remaining table, then COMMIT (in that last batch unless something runs before it). The validity
 * UPDATE of several plans comes after every insert, because a plan may close a version that an
 * earlier plan of the same write inserted. (The index closes its row objects in place, and those
 * are the plans' rows, so such a version is usually written closed already; the order keeps the
 * write right without relying on that.)
 */
export async function writePlans(
  engine: Engine,
  plans: readonly CommitPlan[],
  beforeCommit: (() => Promise<void>) | null,
): Promise<void> {
  const batch = [beginTransactionSql()];
  const streams: Array<[EngineTable, readonly object[]]> = [];
  for (const [name, rows] of rowsByTable(plans)) {
    if (rows.length === 0) continue;
    const sql = literalInsertSql(name, rows) ?? smallTextInsertSql(name, rows);
    if (sql !== null) batch.push(sql);
    else streams.push([name, rows]);
  }
  const after: string[] = [];
  const closes = olderVersionsClosed(plans);
  // One plan's UPDATE only reaches versions already in the engine, so it can open the batch.
  if (closes.length > 0) (plans.length === 1 ? batch : after).push(closeVersionsSql(closes));
  // With nothing to run before COMMIT, COMMIT ends the last SQL batch rather than costing a round
  // trip of its own; with no Arrow stream either (a small step: see literal-rows.ts), the whole
  // write is one batch. A failing statement stops its batch before COMMIT, and the catch below
  // rolls back, so the write is applied whole or not at all.
  if (beforeCommit === null) {
    after.push(commitSql());
    if (streams.length === 0) batch.push(...after.splice(0));
  }
  try {
    try {
      await engine.run(batch.join(';\n'));
      for (const [name, rows] of streams) await engine.insertIPC(name, commitRowsIPC(name, rows));
      if (after.length > 0) await engine.run(after.join(';\n'));
    } catch (cause) {
      throw asLedgerError(cause, 'ENGINE_FAILED');
    }
    if (beforeCommit !== null) {
      await beforeCommit();
      try {
        await engine.run(commitSql());
      } catch (cause) {
        throw asLedgerError(cause, 'ENGINE_FAILED');
      }
    }
  } catch (e) {
    await engine.run(rollbackSql()).catch(() => undefined);
    throw e;
  }
}

/**
 * Marks the versions a plan both writes and closes as written closed (they are the plan's own
 * rows, not the index's, so this changes nothing if the commit fails), leaving only older
 * versions to the UPDATE. Called once per plan, before it is written or kept for later.
 */
export function closeOwnVersions(plan: CommitPlan): void {
  const epoch = plan.transaction.epoch;
  const closed = new Set<number>();
  for (const c of plan.closures) if (c.target === 'node') closed.add(c.key);
  if (closed.size > 0) for (const row of plan.nodes) if (closed.has(row.vkey)) row.valid_to = epoch;
}

/** (vkey, epoch) of every version a plan closes that it did not write itself. */
function olderVersionsClosed(plans: readonly CommitPlan[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const plan of plans) {
    const epoch = plan.transaction.epoch;
    const own = new Set<number>();
    for (const row of plan.nodes) own.add(row.vkey);
    for (const c of plan.closures) if (c.target === 'node' && !own.has(c.key)) out.push([c.key, epoch]);
  }
  return out;
}

/** The plans' rows table by table, in commit order. The transaction's own row goes to the index
 * only (see ENGINE_TABLES). */
function rowsByTable(plans: readonly CommitPlan[]): Array<[EngineTable, readonly object[]]> {
  // One plan (every bulk commit) hands over its own arrays: no copy of its rows.
  const join = <R>(pick: (p: CommitPlan) => readonly R[]): readonly R[] =>
    plans.length === 1 ? pick(plans[0]!) : plans.flatMap(pick);
  return [
    ['bodies', join((p) => p.bodies)],
    ['nodes', join((p) => p.nodes)],
    ['edges', join((p) => p.edges)],
    ['closures', join((p) => p.closures)],
  ];
}
