/**
 * GET /rdf → what `context-ledger/rdf` does inside workerd, step by step, as JSON: each step is
 * `{ ok: true, value }` or `{ ok: false, code, message, ledgerError }`, so the test (and the
 * README) can say exactly what works there. `ledgerError` is `instanceof LedgerError` with the
 * class the package root exports: the Workers entry, the core and the rdf subpath share it.
 */
import { LedgerError, openLedger } from 'context-ledger';
import { rdfView, sparql, toRdf } from 'context-ledger/rdf';
import { commitFixture } from '../fixture.js';

const CL = 'https://w3id.org/context-ledger/vocab#';
const PROV = 'http://www.w3.org/ns/prov#';
const SUPPORTED = `PREFIX cl: <${CL}> PREFIX prov: <${PROV}>
SELECT ?claim ?evidence WHERE {
  ?claim a cl:Claim ; cl:supportedBy ?evidence .
  FILTER NOT EXISTS { ?evidence prov:wasInvalidatedBy ?closing }
} ORDER BY ?claim ?evidence`;

async function step(fn) {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    return {
      ok: false,
      code: e?.code ?? null,
      message: String(e?.message ?? e),
      ledgerError: e instanceof LedgerError,
    };
  }
}

export default {
  async fetch(request) {
    if (new URL(request.url).pathname !== '/rdf') return new Response('not found', { status: 404 });
    const ledger = await openLedger();
    try {
      await commitFixture(ledger);
      const out = {
        view: await step(async () => (await rdfView(ledger, { epoch: 3, authority: ['agent'] })).length),
        jsonld: await step(async () => (await toRdf(ledger, { epoch: 3, format: 'json-ld' })).length),
        turtle: await step(async () => (await toRdf(ledger, { epoch: 3, format: 'turtle' })).length),
        nquads: await step(async () => (await toRdf(ledger, { epoch: 3, format: 'n-quads' })).split('\n').length - 1),
        sparql: await step(async () => {
          const r = await sparql(ledger, SUPPORTED, { epoch: 2, authority: ['agent'] });
          return r.type === 'bindings' ? r.rows.map((row) => `${row.claim?.value} ${row.evidence?.value}`) : r;
        }),
        badSparql: await step(() => sparql(ledger, 'SELECT ?x WHERE { ?x')),
        // Thrown by the Workers entry's own code, and by the core under it.
        badOptions: await step(() => openLedger(null)),
        badModule: await step(() => openLedger({ assets: { duckdbWasm: null } })),
        badCommit: await step(() => ledger.commit({ epoch: 9, nodes: [{ id: 'x', kind: 'thought' }] })),
      };
      return Response.json(out);
    } finally {
      await ledger.close();
    }
  },
};
