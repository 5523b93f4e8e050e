import { wrapBlockingConnection } from './blocking-engine.js';
import type { BlockingConnection, Engine } from './engine.js';
import { DEFAULT_KEPT_PLANS, KeptPlans } from './kept-plans.js';
import { HANG_SAFE_SETTINGS, PLAN_SETTINGS } from './settings.js';

/** The part of a duckdb-wasm blocking database (Node build, browser-blocking build) used here. */
export interface BlockingDatabase {
  connect(): BlockingConnection;
}

/** The emscripten module behind a blocking database (duckdb-wasm 1.32 `bindings.mod`; not in its types). */
interface WithModule {
  mod?: { HEAPU8?: Uint8Array };
}

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

  constructor(
    private readonly db: BlockingDatabase,
    settings: readonly string[],
    keptPlans: number = DEFAULT_KEPT_PLANS,
  ) {
    this.plans = new KeptPlans(keptPlans);
    this.admin = db.connect();
    // Before anything else: an extension autoload tries the network and never returns offline.
    for (const sql of [...HANG_SAFE_SETTINGS, ...PLAN_SETTINGS, ...settings]) this.admin.query(sql);
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
    );
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
