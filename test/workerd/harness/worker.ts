/**
 * Test Worker, importing the package by name like a user's Worker (the `workerd` export
 * condition selects the built dist/entries/workerd.js).
 *
 *   GET /conformance               → runConformance(openLedger, RMDX_SESSION), as JSON
 *   GET /wrong-modules?case=<name> → the error openLedger rejects with when given a wrong module
 *   /sessions/<name>/…             → the example Worker; a request with `x-fail-puts: 1` runs with
 *                                    every `storage.put` of its session rejecting
 */

import duckdbModule from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm';
import { type DurableObjectKvStorage, type OpenLedgerOptions, openLedger } from 'context-ledger';
import trampolineModule from 'context-ledger/wasm/trampolines.wasm';
import tiktokenModule from 'tiktoken/lite/tiktoken_bg.wasm';
import { RMDX_SESSION } from '../../../demo/traces/rmdx-can-session.js';
import exampleWorker, { LedgerSession, type SessionEnv, type SessionState } from '../../../demo/worker/worker.js';
import { type OpenLedger, runConformance } from '../../conformance/cases.js';

/** The modules handed over explicitly, as a host with its own pipeline passes them. */
const MODULES = { duckdbWasm: duckdbModule, trampolines: trampolineModule, tiktokenWasm: tiktokenModule };

const FAIL_PUTS_HEADER = 'x-fail-puts';

/** Each case swaps one option for something that is not the expected wasm module. */
const WRONG_MODULES: Record<string, Record<string, unknown>> = {
  'tiktoken as duckdb': { assets: { ...MODULES, duckdbWasm: tiktokenModule } },
  'duckdb as trampolines': { assets: { ...MODULES, trampolines: duckdbModule } },
  'trampolines as tiktoken': { assets: { ...MODULES, tiktokenWasm: trampolineModule } },
  'duckdb null': { assets: { ...MODULES, duckdbWasm: null } },
  'wasm bytes, not a module': { assets: { ...MODULES, tiktokenWasm: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]) } },
  'a URL, which Workers cannot compile': {
    assets: { ...MODULES, duckdbWasm: new URL('https://example.test/duckdb-eh.wasm') },
  },
};

/** The example's session object, its storage puts rejecting while a request asks for it. */
export class FaultInjectingSession extends LedgerSession {
  private readonly faults: { failPuts: boolean };

  constructor(state: SessionState, env: SessionEnv) {
    const faults = { failPuts: false };
    super({ storage: failingPuts(state.storage, faults) }, env);
    this.faults = faults;
  }

  override async fetch(request: Request): Promise<Response> {
    this.faults.failPuts = request.headers.get(FAIL_PUTS_HEADER) === '1';
    try {
      return await super.fetch(request);
    } finally {
      this.faults.failPuts = false;
    }
  }
}

function failingPuts(storage: DurableObjectKvStorage, faults: { failPuts: boolean }): DurableObjectKvStorage {
  return {
    get: (key) => storage.get(key),
    list: (options) => storage.list(options),
    delete: (keys) => storage.delete(keys),
    transaction: (closure) => storage.transaction(closure),
    put: (entries) =>
      faults.failPuts ? Promise.reject(new Error('injected fault: storage.put failed')) : storage.put(entries),
  };
}

async function openWrongModules(name: string): Promise<Response> {
  const options = WRONG_MODULES[name];
  if (!options) return new Response(`no case ${name}`, { status: 404 });
  try {
    // Deliberately ill-typed: what a JavaScript caller or a misconfigured bundler hands over.
    const ledger = await openLedger(options as unknown as Parameters<typeof openLedger>[0]);
    await ledger.close();
    return Response.json({ opened: true });
  } catch (error) {
    const { code, details } = error as { code?: string; details?: unknown };
    return Response.json({ opened: false, code, details, message: String(error) });
  }
}

export default {
  async fetch(request: Request, env: SessionEnv): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/conformance') {
      // The built bundle's Ledger and the source's are the same class, but TypeScript keeps two
      // declarations with private fields apart.
      const open = ((options?: OpenLedgerOptions) =>
        openLedger({ ...options, assets: MODULES })) as unknown as OpenLedger;
      return Response.json(await runConformance(open, RMDX_SESSION));
    }
    if (url.pathname === '/wrong-modules') return openWrongModules(url.searchParams.get('case') ?? '');
    return exampleWorker.fetch(request, env);
  },
};
