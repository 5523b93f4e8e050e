import { afterEach, expect, it, vi } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { codeOf, type LedgerPool } from '../helpers/ledgers.js';

// Each test resets the module registry to mock a package away, so its ledger comes from the same
// fresh module graph as the rdf functions it is read by (one Ledger class, as in an install).
let pool: LedgerPool | null = null;
async function freshLedger(): Promise<Ledger> {
  const { LedgerPool } = await import('../helpers/ledgers.js');
  pool = new LedgerPool();
  const ledger = await pool.ledger();
  await ledger.commit({ epoch: 1, nodes: [{ id: 'task:a', kind: 'task', body: 'a' }] });
  return ledger;
}
afterEach(async () => {
  await pool?.close();
  pool = null;
});

// What a user without the optional packages sees: the import fails, the error names the package.
const absent = (pkg: string) => () => {
  throw new Error(`Cannot find package '${pkg}'`);
};

it('without Comunica, SPARQL is DEPENDENCY_MISSING naming it; the view and the exports still work', async () => {
  vi.resetModules();
  vi.doMock('@comunica/query-sparql-rdfjs-lite', absent('@comunica/query-sparql-rdfjs-lite'));
  const { rdfView, sparql, toRdf } = await import('../../src/rdf/index.js');
  const ledger = await freshLedger();
  expect((await rdfView(ledger)).length).toBeGreaterThan(0);
  expect(await toRdf(ledger, { format: 'turtle' })).toContain('cl:Task');
  const e = await sparql(ledger, 'ASK {}').catch((x: unknown) => x);
  expect(e).toMatchObject({ code: 'DEPENDENCY_MISSING', details: { package: '@comunica/query-sparql-rdfjs-lite' } });
  vi.doUnmock('@comunica/query-sparql-rdfjs-lite');
});

it('without n3, Turtle and SPARQL are DEPENDENCY_MISSING naming it; JSON-LD needs no package', async () => {
  vi.resetModules();
  vi.doMock('n3', absent('n3'));
  const { sparql, toRdf } = await import('../../src/rdf/index.js');
  const ledger = await freshLedger();
  expect(await toRdf(ledger, { format: 'json-ld' })).toContain('task%3Aa');
  const e = await sparql(ledger, 'ASK {}').catch((x: unknown) => x);
  expect(e).toMatchObject({ code: 'DEPENDENCY_MISSING', details: { package: 'n3' } });
  expect(await codeOf(() => toRdf(ledger, { format: 'n-quads' }))).toBe('DEPENDENCY_MISSING');
  vi.doUnmock('n3');
});
