import { LedgerError } from '../../errors.js';
import type { Transaction } from '../../schema/types.js';

/** A durable log record: the caller's input, replayed through `commit` on recovery (planning is
 * deterministic, so replay writes the same rows). */
export type LogRecord =
  | { op: 'commit'; tx: Transaction }
  | { op: 'archive'; tx: number; epoch: number }
  /** The record just before, which was to write transaction `tx`, never took effect. */
  | { op: 'void'; tx: number };

/**
 * A record as stored: `seq` is its position in the log since the snapshot, so a frame that went
 * missing, was duplicated, reordered or injected breaks the sequence and is found on replay,
 * whatever the medium (a frame checksum cannot see a whole frame removed or repeated).
 */
export function encodeLogRecord(record: LogRecord, seq: number): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ seq, ...record }));
}

/**
 * The log records that took effect, with the transaction number each writes. A `void` record
 * cancels the record before it when that record was to write the transaction it names (it is
 * appended only right after such a record; one naming anything else is ignored). Record i must
 * carry `seq` i; records of context-ledger 0.1 carry none and may only come first (a 0.1 log
 * continued by 0.2).
 */
export function liveRecords(
  records: readonly Uint8Array[],
  lastTx: number,
): Array<{ tx: number; record: Exclude<LogRecord, { op: 'void' }> }> {
  const live: Array<{ tx: number; record: Exclude<LogRecord, { op: 'void' }> }> = [];
  for (const [i, bytes] of records.entries()) {
    let record: LogRecord;
    try {
      record = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as LogRecord;
    } catch (cause) {
      throw new LedgerError('SNAPSHOT_CORRUPT', { field: `log[${i}]`, reason: 'log record is not JSON' }, cause);
    }
    const seq = (record as { seq?: unknown } | null)?.seq;
    if (seq === undefined ? i > 0 && sequenced(records, i - 1) : seq !== i)
      throw new LedgerError('SNAPSHOT_CORRUPT', {
        field: `log[${i}].seq`,
        reason: `log record ${i} carries sequence number ${String(seq)}: a record is missing, repeated, out of order or foreign`,
      });
    const op = (record as { op?: unknown } | null)?.op;
    if (op === 'void') {
      if (live.at(-1)?.tx === (record as { tx: unknown }).tx) live.pop();
    } else if (op === 'commit' || op === 'archive') {
      live.push({ tx: lastTx + live.length + 1, record: record as Exclude<LogRecord, { op: 'void' }> });
    } else {
      throw new LedgerError('SNAPSHOT_CORRUPT', { field: `log[${i}].op`, reason: `unknown op ${String(op)}` });
    }
  }
  return live;
}

/** Whether record i (already parsed once, so valid JSON) carries a sequence number. */
function sequenced(records: readonly Uint8Array[], i: number): boolean {
  return (JSON.parse(new TextDecoder().decode(records[i])) as { seq?: unknown }).seq !== undefined;
}
