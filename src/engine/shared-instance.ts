import { effectOnly, wrapBlockingConnection } from './blocking-engine.js';
import type { BlockingConnection, Engine } from './engine.js';
import { DEFAULT_KEPT_PLANS, KeptPlans } from './kept-plans.js';
import { EVICTION_SWEEP_SQL, HANG_SAFE_SETTINGS, memoryLimitSql, PLAN_SETTINGS } from './settings.js';

/** The part of a duckdb-wasm blocking database (Node build, browser-blocking build) used here. */
export interface BlockingDatabase {
  connect(): BlockingConnection;
}

/** The emscripten module behind a blocking database (duckdb-wasm 1.32 `bindings.mod`; not in its types). */
interface WithModule {
  mod?: { HEAPU8?: Uint8Array };
}

/**
 * How often SharedInstance.reclaim sweeps: a sweep costs about a third of a millisecond, so not
 * after every query; the dead nodes a few queries leave between sweeps cost little memory
 * (docs/guide/integrations.md, "Memory.").
 */
const QUERIES_PER_SWEEP = 4;

/**
 * One DuckDB-WASM instance serving many ledgers, each in its own attached in-memory database
 * reached through its own connection (`USE`), so unqualified table names, temp tables and
 * transactions stay per ledger.
 *
 * Why: starting an instance costs about a second of JavaScript in emscripten's dynamic linker
 * (it relocates the module's 75k exports: updateGOT, applySignatureConversions, …) on top of
 * instantiating, every time, even from a compiled module; `ATTACH ':memory:'` costs a
 * millisecond. Opening and restoring ledgers was dominated by it, and every extra instance kept
 * its own wasm memory (which never shrinks). Closing a ledger detaches its database, which frees
 * its tables inside the shared memory.
 */
export class SharedInstance {
  private readonly admin: BlockingConnection;
  private next = 0;
  /** Prepared plans kept across every ledger's connection: they share the instance's memory. */
  readonly plans: KeptPlans;

  /** The statement that sets the instance's memory limit, run again after each sweep. */
  private readonly limitSql: string;
  private readonly runAdmin: (sql: string) => void;
  /** Queries run since the last sweep of the eviction queues (see reclaim). */
  private sinceSweep = 0;

  constructor(
    private readonly db: BlockingDatabase,
    settings: readonly string[],
    memoryLimit: string,
    keptPlans: number = DEFAULT_KEPT_PLANS,
  ) {
    this.plans = new KeptPlans(keptPlans);
    this.admin = db.connect();
    this.limitSql = memoryLimitSql(memoryLimit);
    this.runAdmin = effectOnly(this.admin);
    // Before anything else: an extension autoload tries the network and never returns offline.
    for (const sql of [...HANG_SAFE_SETTINGS, ...PLAN_SETTINGS, ...settings, this.limitSql]) this.admin.query(sql);
  }

  /** A fresh, empty database of its own, as an Engine; closing it detaches the database. */
  openEngine(): Engine {
    const name = `ledger_${++this.next}`;
    this.admin.query(`ATTACH ':memory:' AS ${name}`);
    let conn: BlockingConnection;
    try {
      conn = this.db.connect();
      conn.query(`USE ${name}`);
    } catch (e) {
      this.admin.query(`DETACH DATABASE IF EXISTS ${name}`);
      throw e;
    }
    return wrapBlockingConnection(
      conn,
      () => this.admin.query(`DETACH DATABASE IF EXISTS ${name}`),
      () => (this.db as BlockingDatabase & WithModule).mod?.HEAPU8?.buffer.byteLength ?? null,
      this.plans,
      () => this.reclaim(),
    );
  }

  /**
   * Frees what DuckDB's buffer pool keeps of the buffers finished queries released, after every
   * QUERIES_PER_SWEEP-th query. A hash table, sort, window or materialised CTE that unpins a
   * buffer gives it a node in the pool's eviction queue, and the node's weak pointer keeps the
   * buffer's handle allocated after the query has dropped it; DuckDB purges such dead nodes only
   * once a queue holds 32,768 of them (buffer_pool.cpp, v1.4). Each working-set statement leaves
   * tens of KiB of them, outside `duckdb_memory()`, scattered between the free blocks the next
   * query needs whole, so without sweeps the wasm memory grows with every step of a session.
   * Refusing a memory limit below what it holds, DuckDB first walks its eviction queues, dropping
   * the dead nodes and unloading what it may; an in-memory database without a temporary
   * directory may unload nothing, and an eviction never changes a result. The refused limit is
   * left in DuckDB's settings, so the instance's own limit is set again at once.
   */
  private reclaim(): void {
    if (++this.sinceSweep < QUERIES_PER_SWEEP) return;
    this.sinceSweep = 0;
    try {
      this.runAdmin(EVICTION_SWEEP_SQL);
    } catch {
      // Refused, as intended: the sweep ran before the refusal.
    }
    this.runAdmin(this.limitSql);
  }

  /** Runs a statement on the instance (settings such as the memory limit are instance-wide). */
  run(sql: string): void {
    this.admin.query(sql);
  }
}

/**
 * Instances by key (the wasm path or module): created once, reused by every ledger of the
 * process; a failed start is forgotten so the next open tries again.
 */
export function sharedInstanceCache<K>(): (key: K, start: () => Promise<SharedInstance>) => Promise<SharedInstance> {
  const instances = new Map<K, Promise<SharedInstance>>();
  return (key, start) => {
    let instance = instances.get(key);
    if (!instance) {
      instance = start();
      instances.set(key, instance);
      instance.catch(() => instances.delete(key));
    }
    return instance;
  };
}
