/**
 * Durable storage in a Cloudflare Durable Object's transactional key-value storage
 * (`ctx.storage`). Keys:
 *
 *   `snapshot`                → `{chunks, bytes}` of the latest snapshot (absent until the first compaction)
 *   `snapshot:000000` …       → the snapshot's bytes, in chunks
 *   `log:000000000001:0000` … → log record 1 (parts 0, 1, …), and so on in commit order
 *
 * Zero-padded numbers make the storage's key order the numeric order. Values are capped at
 * 128 KiB (the key-value backend's limit), so every value is a chunk of at most CHUNK_BYTES.
 */
import { LedgerError } from '../errors.js';
import type { StorageAdapter } from '../ledger/storage.js';
import { type LogMedium, LogStore, resolveCompactEvery } from './log-store.js';

/** The part of `DurableObjectTransaction` the adapter uses (the Workers types' names and shapes). */
export interface DurableObjectKvTransaction {
  /** Reads one value. */
  get(key: string): Promise<unknown>;
  /** Reads every value under a key prefix. */
  list(options: { prefix: string }): Promise<Map<string, unknown>>;
  /** Writes values. */
  put(entries: Record<string, unknown>): Promise<void>;
  /** Deletes keys; resolves to how many existed. */
  delete(keys: string[]): Promise<number>;
}

/** The part of `DurableObjectStorage` (a Durable Object's `ctx.storage`) the adapter uses. */
export interface DurableObjectKvStorage extends DurableObjectKvTransaction {
  /** Runs `closure` in one storage transaction. */
  transaction<T>(closure: (txn: DurableObjectKvTransaction) => Promise<T>): Promise<T>;
}

/** Options of `durableObjectStorage`: when compaction is due. */
export interface DurableObjectStorageOptions {
  /** `ledger.compact()` compacts only once the log holds this many records; without it, on every call. */
  compactEvery?: number;
}

/** A ledger in a Durable Object's transactional storage, chunked under its value cap. */
export interface DurableObjectLedgerStorage extends StorageAdapter {
  /** Records in the log, i.e. appended since the snapshot. */
  readonly logRecords: number;
  /** Whether `ledger.compact()` would compact now. */
  readonly compactionDue: boolean;
}

/** 1 KiB under the 128 KiB value cap: room for the structured-clone header of a Uint8Array. @internal Exported for its unit tests. */
export const CHUNK_BYTES = 127 * 1024;
/** Keys per `put`/`delete` call allowed by Durable Object storage. */
const KEYS_PER_CALL = 128;

const SNAPSHOT_META = 'snapshot';
const SNAPSHOT_CHUNK = 'snapshot:';
const LOG = 'log:';

interface SnapshotMeta {
  chunks: number;
  bytes: number;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const chunkKey = (i: number): string => `${SNAPSHOT_CHUNK}${pad(i, 6)}`;
const logKey = (seq: number, part: number): string => `${LOG}${pad(seq, 12)}:${pad(part, 4)}`;

/**
 * A StorageAdapter over a Durable Object's storage. Storage errors propagate, so a failed append
 * fails its commit with STORAGE_FAILED and leaves the ledger unchanged. One ledger per Durable
 * Object: the adapter assumes it is the only writer of these keys.
 */
export function durableObjectStorage(
  storage: DurableObjectKvStorage,
  options: DurableObjectStorageOptions = {},
): DurableObjectLedgerStorage {
  return new LogStore(durableObjectMedium(storage), resolveCompactEvery(options.compactEvery));
}

/** What the medium knows of the stored keys after `recover`, so compaction never reads values back. */
interface StoredKeys {
  /** Sequence number of the next log record. */
  nextSeq: number;
  /** Keys of every part of every record in the log. */
  logKeys: string[];
  snapshotChunks: number;
}

/**
 * The Durable Object medium. Every write is one atomic `put` or one `transaction`, so a failed
 * write leaves nothing behind and recovery is a plain read that checks no record is missing.
 */
function durableObjectMedium(storage: DurableObjectKvStorage): LogMedium {
  let stored: StoredKeys | null = null;
  const loaded = (): StoredKeys => {
    if (stored === null) throw new Error('durable object storage: load() must run before append() or compact()');
    return stored;
  };
  return {
    where: 'durable object storage',
    async recover() {
      stored = null;
      const meta = await storage.get(SNAPSHOT_META);
      const snapshotChunks =
        meta === undefined ? new Map<string, unknown>() : await storage.list({ prefix: SNAPSHOT_CHUNK });
      const snapshot = meta === undefined ? null : joinSnapshot(meta, snapshotChunks);
      const log = await storage.list({ prefix: LOG });
      const { records, lastSeq } = groupLog(log);
      stored = { nextSeq: lastSeq + 1, logKeys: [...log.keys()], snapshotChunks: snapshotChunks.size };
      return { snapshot, log: records };
    },
    async append(record) {
      const keys = loaded();
      const entries = chunks(record).map((part, i): [string, Uint8Array] => [logKey(keys.nextSeq, i), part]);
      if (entries.length <= KEYS_PER_CALL) {
        // One put is atomic: the record is stored whole or not at all.
        await storage.put(Object.fromEntries(entries));
      } else {
        await storage.transaction(async (txn) => {
          for (const group of groupsOf(entries)) await txn.put(Object.fromEntries(group));
        });
      }
      keys.nextSeq++;
      for (const [key] of entries) keys.logKeys.push(key);
    },
    async compact(snapshot) {
      const keys = loaded();
      const parts = chunks(snapshot);
      const stale = [...keys.logKeys];
      for (let i = parts.length; i < keys.snapshotChunks; i++) stale.push(chunkKey(i));
      const written: Array<[string, unknown]> = parts.map((part, i) => [chunkKey(i), part]);
      written.push([SNAPSHOT_META, { chunks: parts.length, bytes: snapshot.length } satisfies SnapshotMeta]);
      await storage.transaction(async (txn) => {
        for (const group of groupsOf(stale)) await txn.delete(group);
        for (const group of groupsOf(written)) await txn.put(Object.fromEntries(group));
      });
      stored = { nextSeq: keys.nextSeq, logKeys: [], snapshotChunks: parts.length };
    },
    // One ledger per Durable Object and no lock to release: the object itself is the single writer.
    close: async () => undefined,
  };
}

/** `bytes` cut into CHUNK_BYTES pieces (one empty piece for empty bytes, so a record always has a key). */
function chunks(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length || out.length === 0; at += CHUNK_BYTES) {
    // A copy, not a view: structured clone would store the whole underlying buffer.
    out.push(bytes.slice(at, at + CHUNK_BYTES));
  }
  return out;
}

function* groupsOf<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += KEYS_PER_CALL) yield items.slice(i, i + KEYS_PER_CALL);
}

const corrupt = (key: string, reason: string): LedgerError =>
  new LedgerError('SNAPSHOT_CORRUPT', { field: 'storage', key, reason: `${key}: ${reason}` });

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function joinSnapshot(meta: unknown, stored: Map<string, unknown>): Uint8Array {
  const { chunks: count, bytes } = (meta ?? {}) as Partial<SnapshotMeta>;
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(bytes)) throw corrupt(SNAPSHOT_META, 'not {chunks, bytes}');
  const parts: Uint8Array[] = [];
  for (let i = 0; i < count!; i++) {
    const part = stored.get(chunkKey(i));
    if (!(part instanceof Uint8Array)) throw corrupt(chunkKey(i), 'missing or not bytes');
    parts.push(part);
  }
  const snapshot = concat(parts);
  if (stored.size !== count || snapshot.length !== bytes)
    throw corrupt(
      SNAPSHOT_META,
      `${stored.size} chunks of ${snapshot.length} bytes stored, expected ${count} of ${bytes}`,
    );
  return snapshot;
}

/** Log records in sequence order; a gap in sequences or parts means records were lost. */
function groupLog(stored: Map<string, unknown>): { records: Uint8Array[]; lastSeq: number } {
  const records: Uint8Array[][] = [];
  let lastSeq = 0;
  // Keys arrive in storage order, which the zero padding makes (sequence, part) order.
  for (const [key, value] of stored) {
    const match = /^log:(\d{12}):(\d{4})$/.exec(key);
    if (!match || !(value instanceof Uint8Array)) throw corrupt(key, 'not a log record part');
    const seq = Number(match[1]);
    const part = Number(match[2]);
    const current = records.at(-1);
    if (part === 0) {
      if (current !== undefined && seq !== lastSeq + 1) throw corrupt(key, `follows record ${lastSeq}`);
      records.push([value]);
      lastSeq = seq;
    } else {
      if (current === undefined || seq !== lastSeq || part !== current.length)
        throw corrupt(key, 'a part out of order');
      current.push(value);
    }
  }
  return { records: records.map(concat), lastSeq };
}
