import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { LedgerError } from '../../src/errors.js';
import type { CompactableStorage, StorageAdapter } from '../../src/ledger/storage.js';
import type { Transaction } from '../../src/schema/types.js';
import { durableObjectStorage } from '../../src/storage/durable-object.js';
import { nodeDirectoryStorage } from '../../src/storage/node-directory.js';
import { bytesEqual, LedgerPool } from '../helpers/ledgers.js';
import { MemoryKv } from '../helpers/memory-kv.js';
import { transactionFor } from './fixtures/transactions.js';
import { leaveDeadLock, removeTempDirs, tempDir } from './helpers.js';

/**
 * A fault at every write boundary (each append and each compaction) of a workload, for each
 * storage adapter that runs in Node: the write fails (and the workload goes on), or the process
 * dies just before or just after it. Reopening must yield exactly the acknowledged transactions
 * (after a death just after a write, plus at most the one in flight, which the write made
 * durable before its acknowledgement could be sent). The Node directory reopens past a stale
 * lock left by a dead process.
 *
 * These faults sit above the adapters; log-store-faults.test.ts injects them at every write of
 * the access interface under all four adapters (OPFS and IndexedDB included), and
 * e2e/browser/storage.spec.ts runs the real OPFS and IndexedDB in Chromium.
 */
const pool = new LedgerPool();
afterAll(() => pool.close());
afterEach(removeTempDirs);

const COMMITS = 8;
type Kind = 'fail' | 'die-before' | 'die-after';

/** Wraps an adapter; the `at`-th write (append or compact) meets the fault. */
class FaultyStorage implements CompactableStorage {
  writes = 0;
  dead = false;
  constructor(
    readonly inner: CompactableStorage & { close?(): Promise<void> },
    readonly at: number,
    readonly kind: Kind,
  ) {}
  get compactionDue(): boolean {
    return this.inner.compactionDue;
  }
  load(): ReturnType<StorageAdapter['load']> {
    return this.inner.load();
  }
  append(record: Uint8Array): Promise<void> {
    return this.write(() => this.inner.append(record));
  }
  compact(snapshot: Uint8Array): Promise<void> {
    return this.write(() => this.inner.compact(snapshot));
  }
  /** A dead process closes nothing: the backend's `crashed` stands for what the OS does. */
  async close(): Promise<void> {
    if (!this.dead) await this.inner.close?.();
  }
  private async write(op: () => Promise<void>): Promise<void> {
    if (this.dead) throw new Error('the process is dead');
    if (++this.writes !== this.at) return op();
    if (this.kind === 'fail') throw Object.assign(new Error('EIO: injected write failure'), { code: 'EIO' });
    if (this.kind === 'die-after') await op();
    this.dead = true;
    throw new Error(`the process died ${this.kind === 'die-after' ? 'after' : 'before'} write ${this.at}`);
  }
}

interface Backend {
  name: string;
  /** A fresh store; `open` gives an adapter over it (like a process starting on it). */
  create(): Promise<{
    open(): Promise<CompactableStorage & { close?(): Promise<void> }>;
    crashed?(s: unknown): Promise<void>;
  }>;
}

const BACKENDS: Backend[] = [
  {
    name: 'Node directory',
    async create() {
      const dir = await tempDir();
      return {
        open: () => nodeDirectoryStorage(dir, { compactEvery: 3 }),
        // What a dead process leaves: its lock naming it, its descriptors closed by the OS.
        async crashed(s) {
          await (s as { close(): Promise<void> }).close();
          await leaveDeadLock(dir);
        },
      };
    },
  },
  {
    name: 'Durable Object',
    async create() {
      const kv = new MemoryKv();
      return { open: async () => durableObjectStorage(kv, { compactEvery: 3 }) };
    },
  },
];

const counts = { scenarios: 0, faults: 0, acknowledged: 0, inFlightKept: 0 };
afterAll(() => console.log(`[faults] ${JSON.stringify(counts)}`));

async function scenario(backend: Backend, at: number, kind: Kind): Promise<{ wrote: number }> {
  const store = await backend.create();
  const inner = await store.open();
  const faulty = new FaultyStorage(inner, at, kind);
  const ledger = await pool.open(0, { storage: faulty });
  const acked: Transaction[] = [];
  let inFlight: Transaction | null = null;
  for (let i = 1; i <= COMMITS && !faulty.dead; i++) {
    const tx = transactionFor(i);
    const r = await ledger.commit(tx).catch((e: LedgerError) => e);
    if ('code' in r) {
      // After a failed write, a later transaction may name a node the failed one would have made.
      expect(['STORAGE_FAILED', 'UNKNOWN_NODE', 'DANGLING_EDGE']).toContain(r.code);
      if (faulty.dead && r.code === 'STORAGE_FAILED') inFlight = tx;
    } else acked.push(tx);
    if (!faulty.dead) {
      const c = await ledger.compact().catch((e: LedgerError) => e);
      if (typeof c !== 'boolean') expect(c.code).toBe('STORAGE_FAILED');
    }
  }
  if (faulty.dead) await store.crashed?.(inner);
  else await ledger.close();
  counts.scenarios++;
  if (faulty.writes >= at) counts.faults++;

  const reopenedStorage = await store.open();
  const reopened = await pool.open(1, { storage: reopenedStorage });
  const bytes = await reopened.snapshot();
  const reference = async (txs: Transaction[]) => {
    const l = await pool.ledger(2);
    for (const tx of txs) await l.commit(tx);
    return l.snapshot();
  };
  const exact = bytesEqual(bytes, await reference(acked));
  const withInFlight =
    !exact && kind === 'die-after' && inFlight !== null && bytesEqual(bytes, await reference([...acked, inFlight]));
  expect(exact || withInFlight, `${backend.name}, ${kind} at write ${at}: reopened ledger differs`).toBe(true);
  counts.acknowledged += acked.length;
  if (withInFlight) counts.inFlightKept++;
  await reopened.close();
  await reopenedStorage.close?.();
  return { wrote: faulty.writes };
}

describe.each(BACKENDS)('$name: a fault at every write boundary', (backend) => {
  it.each<Kind>(['fail', 'die-before', 'die-after'])(
    '%s',
    async (kind) => {
      // Walk the boundaries until the workload ends before reaching the fault.
      for (let at = 1; ; at++) {
        const { wrote } = await scenario(backend, at, kind);
        if (wrote < at) break;
      }
    },
    600_000,
  );
});

describe('Node directory: two writers', () => {
  it('a second opener is refused while the first holds the directory, and served after it closes', async () => {
    const dir = await tempDir();
    const first = await nodeDirectoryStorage(dir);
    const code = await nodeDirectoryStorage(dir).catch((e: LedgerError) => e.code);
    expect(code).toBe('STORAGE_FAILED');
    await first.close();
    const second = await nodeDirectoryStorage(dir);
    await second.close();
  });
});
