import { AsyncDuckDB, type AsyncDuckDBConnection, VoidLogger } from '@duckdb/duckdb-wasm';
import { LedgerError } from '../errors.js';
import {
  absoluteUrl,
  assetUnavailable,
  checkScript,
  checkWasm,
  START_TIMEOUT_MS,
  withTimeout,
} from '../runtime/browser-assets.js';
import { errorText } from './blocking-engine.js';
import type { Engine } from './engine.js';
import { KeptPlans } from './kept-plans.js';
import { HANG_SAFE_SETTINGS, PLAN_SETTINGS } from './settings.js';

export interface BrowserEngineAssets {
  /** `@duckdb/duckdb-wasm/dist/duckdb-eh.wasm`. */
  duckdbWasmUrl: string | URL;
  /** `@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js`. */
  duckdbWorkerUrl: string | URL;
}

/**
 * Opens an in-memory DuckDB-WASM database in a Web Worker (the async eh build), so queries never
 * block the page. Both assets are fetch-checked first and the start is bounded: a wrong URL
 * fails with ASSET_UNAVAILABLE naming the option instead of hanging.
 */
export async function openBrowserEngine(assets: BrowserEngineAssets): Promise<Engine> {
  const wasmUrl = absoluteUrl(assets.duckdbWasmUrl, 'assets.duckdbWasm');
  const workerUrl = absoluteUrl(assets.duckdbWorkerUrl, 'assets.duckdbWorker');
  await Promise.all([checkWasm(wasmUrl, 'assets.duckdbWasm'), checkScript(workerUrl, 'assets.duckdbWorker')]);

  const { worker, release } = startWorker(workerUrl);
  const failed = workerFailure(worker);
  const db = new AsyncDuckDB(new VoidLogger(), worker);
  let conn: AsyncDuckDBConnection;
  try {
    const started = Promise.race([
      db.instantiate(wasmUrl),
      failed.catch((f: WorkerFailure) => {
        // An uncaught error is the script's (it did not load or run); an unhandled rejection
        // is the wasm's (it did not instantiate).
        throw assetUnavailable(
          f.uncaught ? 'assets.duckdbWorker' : 'assets.duckdbWasm',
          f.uncaught ? workerUrl : wasmUrl,
          f.message,
        );
      }),
    ]);
    await withTimeout(started, START_TIMEOUT_MS, () =>
      assetUnavailable('assets.duckdbWasm', wasmUrl, `DuckDB did not start within ${START_TIMEOUT_MS} ms`),
    );
    await db.open({ path: ':memory:', query: { castBigIntToDouble: false } });
    conn = await db.connect();
    // Before anything else: an extension autoload tries the network and never returns.
    for (const sql of [...HANG_SAFE_SETTINGS, ...PLAN_SETTINGS]) await conn.query(sql);
  } catch (cause) {
    await db.terminate().catch(() => undefined);
    throw cause instanceof LedgerError
      ? cause
      : assetUnavailable('assets.duckdbWasm', wasmUrl, errorText(cause), cause);
  } finally {
    release();
  }
  return wrapAsyncConnection(conn, failed, () => db.terminate());
}

/** What the worker shim posts when a promise inside the worker rejects unhandled. */
const UNHANDLED = 'context-ledger:unhandled-rejection';

/**
 * Starts DuckDB's worker script (a classic script) from a same-origin blob that imports it. Two
 * reasons: browsers refuse worker scripts from another origin (a host's CDN), and a wasm that
 * is not DuckDB's eh build (the mvp or coi one, say) fails inside the worker in a promise nobody
 * handles — the shim posts such failures, so the start fails at once instead of at the timeout.
 * (duckdb-wasm only warns about a message it did not ask for.)
 */
function startWorker(url: string): { worker: Worker; release: () => void } {
  const source = [
    `self.addEventListener('unhandledrejection', (e) => self.postMessage({ type: '${UNHANDLED}', data: String(e.reason) }));`,
    `importScripts(${JSON.stringify(url)});`,
  ].join('\n');
  const shim = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  return { worker: new Worker(shim), release: () => URL.revokeObjectURL(shim) };
}

class WorkerFailure extends Error {
  constructor(
    message: string,
    /** An uncaught error (else an unhandled rejection). */
    readonly uncaught: boolean,
  ) {
    super(message);
  }
}

/**
 * Rejects when the worker fails. duckdb-wasm then leaves every pending request unsettled (on an
 * uncaught error it even clears them), so each request races this instead of waiting forever.
 */
function workerFailure(worker: Worker): Promise<never> {
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (e) => reject(new WorkerFailure(e.message || 'the worker failed', true)));
    worker.addEventListener('message', (e: MessageEvent<{ type?: unknown; data?: unknown }>) => {
      if (e.data?.type === UNHANDLED) reject(new WorkerFailure(String(e.data.data), false));
    });
  });
  failed.catch(() => undefined); // observed by whichever request is in flight, if any
  return failed;
}

function wrapAsyncConnection(
  conn: AsyncDuckDBConnection,
  failed: Promise<never>,
  terminate: () => Promise<void>,
): Engine {
  let closed = false;
  const guard = async <T>(fn: () => Promise<T>, sql: string): Promise<T> => {
    if (closed) throw new LedgerError('LEDGER_CLOSED');
    try {
      return await Promise.race([fn(), failed]);
    } catch (cause) {
      throw new LedgerError('ENGINE_FAILED', { reason: errorText(cause), sql: sql.slice(0, 400) }, cause);
    }
  };
  return {
    // This engine has a DuckDB instance of its own, so its plans are capped on their own.
    plans: new KeptPlans(),
    query: (sql) => guard(() => conn.query(sql), sql),
    run: (sql) => guard(() => conn.query(sql).then(() => undefined), sql),
    // duckdb-wasm transfers the view's whole ArrayBuffer to the worker, detaching it here: a
    // snapshot section is a view into the caller's snapshot bytes, so send a copy.
    insertIPC: (table, ipcStream) =>
      guard(
        () => conn.insertArrowFromIPCStream(ipcStream.slice(), { name: table, create: false }),
        `insert into ${table}`,
      ),
    async close() {
      if (closed) return;
      closed = true;
      await conn.close().catch(() => undefined);
      await terminate();
    },
  };
}
