import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import { openLedger } from '../../src/entries/node.js';
import { CHUNK_BYTES, durableObjectStorage } from '../../src/storage/durable-object.js';
import { MemoryKv } from '../helpers/memory-kv.js';

/**
 * The Durable Object adapter against an in-memory stand-in for `ctx.storage` that enforces the
 * documented limits (values ≤ 128 KiB, ≤ 128 keys per put or delete) and rolls transactions
 * back on failure. The real storage runs in ledger-in-workerd and durable-object-restart tests.
 */

const VALUE_LIMIT = 128 * 1024;
const KEYS_PER_CALL = 128;

const LIMITS = { valueBytes: VALUE_LIMIT, keysPerCall: KEYS_PER_CALL };
const limitedKv = (data?: Map<string, unknown>) => new MemoryKv(data, LIMITS);

function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + seed) & 255;
  return out;
}

/** Loaded state as hex digests of sizes and bytes: vitest's deep equality walks every index of a
 * typed array and runs out of memory on megabytes. */
function summary(state: { snapshot: Uint8Array | null; log: Uint8Array[] }): {
  snapshot: string | null;
  log: string[];
} {
  const digest = (b: Uint8Array) => `${b.length}:${createHash('sha256').update(b).digest('hex')}`;
  return { snapshot: state.snapshot && digest(state.snapshot), log: state.log.map(digest) };
}

const ledgers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const l of ledgers) await l.close();
});

describe('durableObjectStorage', () => {
  it('stores records and snapshots of many values, each within the limits, and loads them back', async () => {
    const kv = limitedKv();
    const storage = durableObjectStorage(kv);
    expect(await storage.load()).toEqual({ snapshot: null, log: [] });
    const small = bytes(10, 1);
    const large = bytes(3 * CHUNK_BYTES + 5, 2);
    // More chunks than one put may carry: written in a transaction instead.
    const huge = bytes((KEYS_PER_CALL + 2) * CHUNK_BYTES, 3);
    for (const record of [small, large, huge, new Uint8Array()]) await storage.append(record);
    expect(storage.logRecords).toBe(4);

    const reloaded = durableObjectStorage(kv);
    expect(summary(await reloaded.load())).toEqual(
      summary({ snapshot: null, log: [small, large, huge, new Uint8Array()] }),
    );
    await reloaded.append(small);
    expect([...kv.data.keys()].at(-1)).toBe('log:000000000005:0000');

    const snapshot = bytes(KEYS_PER_CALL * CHUNK_BYTES + 1, 4);
    await reloaded.compact(snapshot);
    expect(reloaded.logRecords).toBe(0);
    expect(summary(await durableObjectStorage(kv).load())).toEqual(summary({ snapshot, log: [] }));

    // A smaller snapshot leaves none of the larger one's chunks behind.
    await reloaded.compact(small);
    expect([...kv.data.keys()].sort()).toEqual(['snapshot', 'snapshot:000000']);
    expect(summary(await durableObjectStorage(kv).load())).toEqual(summary({ snapshot: small, log: [] }));
  });

  it('keeps storage as it was when the compaction transaction fails', async () => {
    const kv = limitedKv();
    const storage = durableObjectStorage(kv);
    await storage.load();
    await storage.append(bytes(5, 1));
    await storage.compact(bytes(2 * CHUNK_BYTES, 2));
    await storage.append(bytes(7, 3));
    const before = new Map(kv.data);
    kv.failTransactions = true;
    await expect(storage.compact(bytes(9, 4))).rejects.toThrow('injected fault');
    expect([...kv.data.keys()]).toEqual([...before.keys()]);
    expect([...kv.data].every(([key, value]) => before.get(key) === value)).toBe(true);
    expect(storage.logRecords).toBe(1);
    expect(summary(await durableObjectStorage(kv).load())).toEqual(
      summary({ snapshot: bytes(2 * CHUNK_BYTES, 2), log: [bytes(7, 3)] }),
    );
  });

  it('reports lost values as SNAPSHOT_CORRUPT', async () => {
    const kv = limitedKv();
    const storage = durableObjectStorage(kv);
    await storage.load();
    await storage.compact(bytes(2 * CHUNK_BYTES, 1));
    for (const n of [1, 2, 3]) await storage.append(bytes(n, n));

    const lostRecord = limitedKv(new Map(kv.data));
    lostRecord.data.delete('log:000000000002:0000');
    await expect(durableObjectStorage(lostRecord).load()).rejects.toMatchObject({
      code: 'SNAPSHOT_CORRUPT',
      details: { field: 'storage', key: 'log:000000000003:0000' },
    });

    const lostChunk = limitedKv(new Map(kv.data));
    lostChunk.data.delete('snapshot:000001');
    await expect(durableObjectStorage(lostChunk).load()).rejects.toMatchObject({
      code: 'SNAPSHOT_CORRUPT',
      details: { field: 'storage', key: 'snapshot:000001' },
    });
  });

  it('rejects a compactEvery that is not a positive integer', () => {
    expect(() => durableObjectStorage(limitedKv(), { compactEvery: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', details: { field: 'compactEvery', value: 0 } }),
    );
  });

  it('carries a ledger across reopening, through compactions and the log after them', async () => {
    const kv = limitedKv();
    const storage = durableObjectStorage(kv, { compactEvery: 3 });
    const ledger = await openLedger({ storage });
    ledgers.push(ledger);
    for (const tx of RMDX_SESSION.slice(0, 7)) {
      await ledger.commit(tx);
      await ledger.compact();
    }
    // Seven commits, compacted after the third and the sixth: a snapshot and one log record.
    expect(storage.logRecords).toBe(1);
    const reopened = await openLedger({ storage: durableObjectStorage(kv) });
    ledgers.push(reopened);
    expect(Buffer.from(await reopened.snapshot()).equals(Buffer.from(await ledger.snapshot()))).toBe(true);
  });
});
