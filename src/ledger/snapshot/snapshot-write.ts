import { rowsOf } from '../../engine/rows.js';
import { TABLES } from '../../schema/ddl.js';
import { tableRowsSql } from '../../sql/snapshot-sql.js';
import { rowsToIPC } from '../arrow-rows.js';
import type { LedgerCore } from '../ledger-core.js';
import { exportTableIPC } from './snapshot-export.js';
import { encodeSnapshot, SNAPSHOT_FORMAT, type SnapshotManifest } from './snapshot-format.js';

/** Every table as Arrow IPC streams plus a manifest, in one verifiable byte array. */
export async function writeSnapshot(core: LedgerCore): Promise<Uint8Array> {
  const { engine, counter } = core.config;
  const sections: Uint8Array[] = [];
  const tables: SnapshotManifest['tables'] = [];
  const counts = {} as SnapshotManifest['counts'];
  for (const name of TABLES) {
    let bytes: Uint8Array;
    let rows: number;
    if (name === 'transactions') {
      // Not an engine table (see ENGINE_TABLES): the index holds every row, by number.
      const txs = core.index.transactionRows();
      bytes = rowsToIPC(name, txs);
      rows = txs.length;
    } else {
      const result = await engine.query(tableRowsSql(name));
      // Re-encoded by our own writer: DuckDB's Arrow export leaves uninitialised bytes under
      // null slots, which would make equal ledgers differ byte-wise.
      bytes = exportTableIPC(name, result) ?? rowsToIPC(name, rowsOf(result));
      rows = result.numRows;
    }
    sections.push(bytes);
    tables.push({ name, bytes: bytes.length, rows });
    counts[name] = rows;
  }
  const manifest: SnapshotManifest = {
    format: SNAPSHOT_FORMAT,
    library: 'context-ledger',
    encoding: counter.encoding,
    lastTx: core.index.lastTx,
    lastEpoch: core.index.lastEpoch,
    counts,
    tables,
  };
  return encodeSnapshot(manifest, sections);
}
