import { LedgerError } from '../../errors.js';
import { ENGINE_TABLES, TABLES } from '../../schema/ddl.js';
import { tableCountsSql } from '../../sql/snapshot-sql.js';
import type { LedgerCore } from '../ledger-core.js';
import { loadIndexFromSnapshot } from './index-from-snapshot.js';
import { type DecodedSnapshot, decodeSnapshot, isDecodedSnapshot } from './snapshot-format.js';
import { verifyBodyHashes } from './verify-bodies.js';

/**
 * Restores a snapshot (bytes, or already decoded and verified) into a fresh core;
 * SNAPSHOT_CORRUPT on any inconsistency. The index is read from the snapshot's own sections,
 * the engine ingests the same sections (all but `transactions`, which only the index holds),
 * and one query checks every engine table's count. Every body
 * is checked against its hash first.
 */
export async function restoreSnapshot(core: LedgerCore, snapshot: Uint8Array | DecodedSnapshot): Promise<void> {
  const { engine, counter } = core.config;
  const { manifest, sections } = isDecodedSnapshot(snapshot) ? snapshot : await decodeSnapshot(snapshot);
  if (manifest.encoding !== counter.encoding) {
    throw new LedgerError('SNAPSHOT_ENCODING_MISMATCH', {
      field: 'encoding',
      snapshot: manifest.encoding,
      requested: counter.encoding,
    });
  }
  try {
    for (const name of TABLES) {
      const rows = manifest.tables.find((t) => t.name === name)?.rows;
      if (rows !== manifest.counts[name]) throw new Error(`${name}: manifest counts disagree`);
    }
    await verifyBodyHashes(sections.get('bodies'), core.config.hashTexts);
    loadIndexFromSnapshot(core.index, manifest, sections);
    for (const name of ENGINE_TABLES) if (manifest.counts[name] > 0) await engine.insertIPC(name, sections.get(name)!);
    const counts = await engine.query(tableCountsSql());
    for (const name of TABLES) {
      const n = name === 'transactions' ? core.index.transactionRows().length : counts.getChild(name)?.get(0);
      if (n !== manifest.counts[name])
        throw new Error(`${name}: ${n} rows restored, manifest says ${manifest.counts[name]}`);
    }
  } catch (cause) {
    throw new LedgerError(
      'SNAPSHOT_CORRUPT',
      { field: 'snapshot', reason: String((cause as Error)?.message ?? cause) },
      cause,
    );
  }
  if (core.index.lastTx !== manifest.lastTx || core.index.lastEpoch !== manifest.lastEpoch) {
    throw new LedgerError('SNAPSHOT_CORRUPT', {
      field: 'snapshot',
      reason: 'transaction counters disagree with the manifest',
    });
  }
}
