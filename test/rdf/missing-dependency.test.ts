import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { codeOf, LedgerPool } from '../helpers/ledgers.js';

const pool = new LedgerPool();
let ledger: Ledger;
beforeAll(async () => {
  ledger = await pool.ledger();
  await ledger.commit({ epoch: 1, nodes: [{ id: 'task:a', kind: 'task', body: 'a' }] });
});
afterAll(() => pool.close());

// What a user without the optional packages sees: the import fails, the error names the package.
const absent = (pkg: string) => () => {
  throw new Error(`Cannot find package '${pkg}'`);
};

it('without Comunica, SPARQL is DEPENDENCY_MISSING naming it; the view and the exports still work', async () => {
  vi.resetModules();
  vi.doMock('@comunica/query-sparql-rdfjs-lite', absent('@comunica/query-sparql-rdfjs-lite'));
  const { rdfView, sparql, toRdf } = await import('../../src/rdf/index.js');
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
  expect(await toRdf(ledger, { format: 'json-ld' })).toContain('task%3Aa');
  const e = await sparql(ledger, 'ASK {}').catch((x: unknown) => x);
  expect(e).toMatchObject({ code: 'DEPENDENCY_MISSING', details: { package: 'n3' } });
  expect(await codeOf(() => toRdf(ledger, { format: 'n-quads' }))).toBe('DEPENDENCY_MISSING');
  vi.doUnmock('n3');
});
