import { IDBFactory } from 'fake-indexeddb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { LedgerError } from '../../src/errors.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { Transaction } from '../../src/schema/types.js';
import { indexedDbMedium, openIndexedDb } from '../../src/storage/browser-indexeddb.js';
import { opfsFiles } from '../../src/storage/browser-opfs.js';
import { durableObjectStorage } from '../../src/storage/durable-object.js';
import { framedLog, type InPlaceFile, type LogFiles } from '../../src/storage/framed-log.js';
import { acquireLock } from '../../src/storage/lock-file.js';
import { LogStore } from '../../src/storage/log-store.js';
import { directoryFiles } from '../../src/storage/node-directory.js';
import { bytesEqual, LedgerPool } from '../helpers/ledgers.js';
import { MemoryKv } from '../helpers/memory-kv.js';
import { MemoryOpfsDirectory } from '../helpers/memory-opfs.js';
import { transactionFor } from './fixtures/transactions.js';
import { leaveDeadLock, removeTempDirs, tempDir } from './helpers.js';

/**
 * Faults at every write boundary of the access interface under each storage adapter — the
 * Node directory's files, OPFS (page streams and worker sync access handles, on an in-memory
 * OPFS), IndexedDB (fake-indexeddb) and Durable Object storage (in-memory) — through the one log
 * store they share. A write fails (a file write after landing half its bytes, an IndexedDB
 * transaction by aborting), or the process dies just before it, just after it, or halfway
 * through a file write (a torn frame). Reopening must yield exactly the acknowledged
 * transactions, plus after a death just after a write at most the one in flight (durable before
 * its acknowledgement could be sent). The write boundaries include load's own writes (the first
 * log header, a torn tail's cut) and compaction's two replacements.
 */
const pool = new LedgerPool();
afterAll(() => pool.close());
afterEach(removeTempDirs);

const COMMITS = 8;
type Kind = 'fail' | 'die-before' | 'die-after' | 'torn';

const died = (kind: Kind, at: number): Error => new Error(`the process died (${kind}) at write ${at}`);

/** Counts write calls; the `at`-th meets the fault. */
class Fault {
  writes = 0;
  dead = false;
  constructor(
    readonly at: number,
    readonly kind: Kind,
  ) {}

  /** Runs one write; `partial` lands part of it (a file write), for `fail` and `torn`. */
  async write<T>(op: () => Promise<T>, partial?: () => Promise<void>): Promise<T> {
    if (this.dead) throw new Error('the process is dead');
    if (++this.writes !== this.at) return op();
    if (this.kind === 'fail') {
      await partial?.();
      throw Object.assign(new Error('EIO: injected write failure'), { code: 'EIO' });
    }
    if (this.kind === 'torn') await partial?.();
    if (this.kind === 'die-after') await op();
    this.dead = true;
    throw died(this.kind, this.at);
  }
}

/** `files` with every write, truncation and replacement passing through `fault`. */
function faultyFiles(files: LogFiles, fault: Fault): LogFiles {
  const inPlace = (file: InPlaceFile): InPlaceFile => ({
    write: (bytes, at) =>
      fault.write(
        () => file.write(bytes, at),
        () => file.write(bytes.subarray(0, bytes.length >> 1), at),
      ),
    truncate: (size) => fault.write(() => file.truncate(size)),
    close: () => file.close(),
  });
  return {
    ...files,
    replace: (file, bytes) => fault.write(() => files.replace(file, bytes)),
    openInPlace: async (file) => inPlace(await files.openInPlace(file)),
  };
}

/** A Durable Object's storage whose top-level writes (each atomic) pass through `fault`. */
function faultyKv(kv: MemoryKv, fault: Fault): MemoryKv {
  const wrapped = Object.create(kv) as MemoryKv;
  wrapped.put = (entries) => fault.write(() => kv.put(entries));
  wrapped.delete = (keys) => fault.write(() => kv.delete(keys));
  wrapped.transaction = (closure) => fault.write(() => kv.transaction(closure));
  return wrapped;
}

/**
 * A database whose read-write transactions meet `fault`: `fail` aborts the transaction after
 * its requests are queued (as a full quota does), `die-before` never starts it, `die-after`
 * lets it commit and marks the process dead as it completes.
 */
function faultyDb(db: IDBDatabase, fault: Fault): IDBDatabase {
  const transaction = (stores: string[], mode: IDBTransactionMode, options?: IDBTransactionOptions) => {
    if (mode !== 'readwrite') return db.transaction(stores, mode, options);
    if (fault.dead) throw new Error('the process is dead');
    if (++fault.writes !== fault.at) return db.transaction(stores, mode, options);
    if (fault.kind === 'die-before' || fault.kind === 'torn') {
      fault.dead = true;
      throw died(fault.kind, fault.at);
    }
    const tx = db.transaction(stores, mode, options);
    if (fault.kind === 'fail') queueMicrotask(() => tx.abort());
    else tx.addEventListener('complete', () => (fault.dead = true));
    return tx;
  };
  return new Proxy(db, {
    get: (target, prop) => {
      if (prop === 'transaction') return transaction;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The store as the ledger sees it: a write that resolves after the process died was never acknowledged. */
class Process {
  constructor(
    readonly store: LogStore,
    readonly fault: Fault,
  ) {}
  get compactionDue(): boolean {
    return this.store.compactionDue;
  }
  load(): ReturnType<LogStore['load']> {
    return this.gate(() => this.store.load());
  }
  append(record: Uint8Array): Promise<void> {
    return this.gate(() => this.store.append(record));
  }
  compact(snapshot: Uint8Array): Promise<void> {
    return this.gate(() => this.store.compact(snapshot));
  }
  /** A dead process closes nothing: the backend's `crashed` stands for what the OS does. */
  async close(): Promise<void> {
    if (!this.fault.dead) await this.store.close();
  }
  private async gate<T>(op: () => Promise<T>): Promise<T> {
    if (this.fault.dead) throw new Error('the process is dead');
    const result = await op();
    if (this.fault.dead) throw died(this.fault.kind, this.fault.at);
    return result;
  }
}

interface Medium {
  /** A store over the medium as a process starting on it would open it; `fault` wraps its writes. */
  open(fault: Fault): Promise<LogStore>;
  /** What the OS or browser does when the process dies holding `store`. */
  crashed(store: LogStore): Promise<void>;
}

interface Backend {
  name: string;
  kinds: Kind[];
  create(): Promise<Medium>;
}

const ALL: Kind[] = ['fail', 'die-before', 'die-after', 'torn'];
/** Atomic media have no torn writes. */
const ATOMIC: Kind[] = ['fail', 'die-before', 'die-after'];

const opfsBackend = (withSyncAccess: boolean): Backend => ({
  name: `OPFS (${withSyncAccess ? 'worker: sync access handles' : 'page: writable streams'})`,
  kinds: ALL,
  async create() {
    const dir = new MemoryOpfsDirectory(withSyncAccess);
    return {
      open: async (fault) =>
        new LogStore(
          framedLog(
            faultyFiles(
              opfsFiles(dir.handle, 'ledger', () => undefined),
              fault,
            ),
          ),
          3,
        ),
      // The browser closes a dead worker's sync access handles (and drops its Web Lock).
      crashed: async () => dir.syncLocked.clear(),
    };
  },
});

const BACKENDS: Backend[] = [
  {
    name: 'Node directory',
    kinds: ALL,
    async create() {
      const dir = await tempDir();
      return {
        open: async (fault) =>
          new LogStore(framedLog(faultyFiles(directoryFiles(dir, await acquireLock(dir, 10_000)), fault)), 3),
        // What a dead process leaves: its lock naming it, its descriptors closed by the OS.
        async crashed(store) {
          await store.close();
          await leaveDeadLock(dir);
        },
      };
    },
  },
  opfsBackend(false),
  opfsBackend(true),
  {
    name: 'IndexedDB',
    kinds: ATOMIC,
    async create() {
      const factory = new IDBFactory();
      const dbs: IDBDatabase[] = [];
      return {
        async open(fault) {
          const db = await openIndexedDb(factory, 'ledger');
          dbs.push(db);
          return new LogStore(
            indexedDbMedium(faultyDb(db, fault), 'ledger', () => undefined),
            3,
          );
        },
        // The browser closes a dead page's connections.
        crashed: async () => dbs.at(-1)?.close(),
      };
    },
  },
  {
    name: 'Durable Object',
    kinds: ATOMIC,
    async create() {
      const kv = new MemoryKv();
      return {
        open: async (fault) => durableObjectStorage(faultyKv(kv, fault), { compactEvery: 3 }) as LogStore,
        crashed: async () => undefined,
      };
    },
  },
];

const counts = { scenarios: 0, faults: 0, acknowledged: 0, inFlightKept: 0 };
afterAll(() => console.log(`[log-store faults] ${JSON.stringify(counts)}`));

const reference = async (txs: Transaction[]): Promise<Uint8Array> => {
  const ledger = await pool.ledger(2);
  for (const tx of txs) await ledger.commit(tx);
  return ledger.snapshot();
};

async function scenario(backend: Backend, at: number, kind: Kind): Promise<{ wrote: number }> {
  const medium = await backend.create();
  const fault = new Fault(at, kind);
  const store = await medium.open(fault);
  const process = new Process(store, fault);
  const acked: Transaction[] = [];
  let inFlight: Transaction | null = null;
  const opened = await pool.open(0, { storage: process }).catch((e: LedgerError) => e);
  if ('code' in opened) {
    // The fault met load's own writes: the ledger never opened, nothing was acknowledged.
    expect(opened.code).toBe('STORAGE_FAILED');
    if (!fault.dead) await store.close();
  } else {
    const ledger: Ledger = opened;
    for (let i = 1; i <= COMMITS && !fault.dead; i++) {
      const tx = transactionFor(i);
      const r = await ledger.commit(tx).catch((e: LedgerError) => e);
      if ('code' in r) {
        // After a failed write, a later transaction may name a node the failed one would have made.
        expect(['STORAGE_FAILED', 'UNKNOWN_NODE', 'DANGLING_EDGE']).toContain(r.code);
        if (fault.dead && r.code === 'STORAGE_FAILED') inFlight = tx;
      } else acked.push(tx);
      if (!fault.dead) {
        const c = await ledger.compact().catch((e: LedgerError) => e);
        if (typeof c !== 'boolean') expect(c.code).toBe('STORAGE_FAILED');
      }
    }
    if (!fault.dead) await ledger.close();
  }
  if (fault.dead) await medium.crashed(store);
  counts.scenarios++;
  if (fault.writes >= at) counts.faults++;

  const again = await medium.open(new Fault(0, kind));
  const reopened = await pool.open(1, { storage: again });
  const bytes = await reopened.snapshot();
  const exact = bytesEqual(bytes, await reference(acked));
  const withInFlight =
    !exact && kind === 'die-after' && inFlight !== null && bytesEqual(bytes, await reference([...acked, inFlight]));
  expect(exact || withInFlight, `${backend.name}, ${kind} at write ${at}: reopened ledger differs`).toBe(true);
  counts.acknowledged += acked.length;
  if (withInFlight) counts.inFlightKept++;
  await reopened.close();
  return { wrote: fault.writes };
}

describe.each(BACKENDS)('$name: a fault at every write boundary of its access interface', (backend) => {
  it.each(backend.kinds)(
    '%s',
    async (kind) => {
      let boundaries = 0;
      // Walk the boundaries until the workload ends before reaching the fault.
      for (let at = 1; ; at++) {
        const { wrote } = await scenario(backend, at, kind);
        if (wrote < at) break;
        boundaries++;
      }
      // The workload has more write boundaries than its commits: the walk really went through them.
      expect(boundaries).toBeGreaterThan(COMMITS);
    },
    600_000,
  );
});
