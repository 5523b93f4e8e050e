/**
 * Benchmark Worker. Ledgers live in module scope by name (an isolate keeps them between requests).
 *
 *   POST /open?name=N                    opens an in-memory ledger
 *   POST /warm?name=N&i=I                one agent step: commit 2 nodes + asOf + materialize
 *   POST /ingest?name=N&n=K              commits K bulk nodes (built inside the isolate)
 *   POST /noop                           answers at once: the HTTP round trip with no ledger work
 *   GET  /memory?name=N                  DuckDB's memory figures, read inside the isolate (engineMemory)
 *   POST /close?name=N
 *
 * workerd exposes no JS heap figures to a Worker (performance.memory is absent and, under
 * nodejs_compat, process.memoryUsage() answers zeros), so /memory reports what the isolate can
 * read: the size of DuckDB's wasm linear memory and DuckDB's own accounting.
 */
import { type Ledger, openLedger } from 'context-ledger';
import { bulkTransactions, warmStepTransaction } from '../synthetic.js';

const ledgers = new Map<string, Ledger>();

async function handle(url: URL, method: string): Promise<Response> {
  const name = url.searchParams.get('name') ?? 'default';
  const ledger = ledgers.get(name);
  switch (`${method} ${url.pathname}`) {
    case 'POST /open':
      ledgers.set(name, await openLedger());
      return Response.json({ opened: name });
    case 'POST /warm': {
      if (!ledger) break;
      const i = Number(url.searchParams.get('i'));
      const epoch = ledger.lastEpoch + 1;
      const t0 = performance.now();
      await ledger.commit(warmStepTransaction(i, epoch));
      const t1 = performance.now();
      const view = await ledger.asOf({ epoch });
      const t2 = performance.now();
      const ws = await ledger.materialize({ budget: { tokens: 4000 } });
      const t3 = performance.now();
      // workerd's clocks are coarse (whole milliseconds here) and, deployed, stand still while a
      // request computes: these parts are what the isolate reports, not a profile.
      return Response.json({ nodes: view.nodes.length, items: ws.items.length, ms: [t1 - t0, t2 - t1, t3 - t2] });
    }
    case 'POST /ingest': {
      if (!ledger) break;
      const n = Number(url.searchParams.get('n'));
      for (const tx of bulkTransactions(n)) await ledger.commit({ ...tx, epoch: ledger.lastEpoch + tx.epoch });
      return Response.json({ nodes: n });
    }
    case 'POST /noop':
      return Response.json({ ok: true });
    case 'GET /memory': {
      if (!ledger) break;
      return Response.json(await ledger.engineMemory());
    }
    case 'POST /close':
      await ledger?.close();
      ledgers.delete(name);
      return Response.json({ closed: name });
  }
  return new Response('not found', { status: 404 });
}

export default {
  async fetch(request: Request): Promise<Response> {
    try {
      return await handle(new URL(request.url), request.method);
    } catch (error) {
      const { code, details } = error as { code?: string; details?: unknown };
      return Response.json({ error: String(error), code, details }, { status: 500 });
    }
  },
};
