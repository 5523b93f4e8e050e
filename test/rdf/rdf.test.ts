import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { CL, nodeIri, PROV, type Quad, rdfView, sparql, toRdf } from '../../src/rdf/index.js';
import { codeOf, LedgerPool } from '../helpers/ledgers.js';
import { commitFixture } from './fixture.js';

const pool = new LedgerPool();
let ledger: Ledger;
beforeAll(async () => {
  ledger = await pool.ledger();
  await commitFixture(ledger);
});
afterAll(() => pool.close());

/** One line per quad, datatype included, sorted: two quad lists compare as sets. */
type AnyQuad = { subject: { value: string }; predicate: { value: string }; object: unknown };
const canon = (quads: readonly AnyQuad[]): string[] =>
  quads
    .map((q) => {
      const o = q.object as { termType: string; value: string; datatype?: { value: string } };
      return `${q.subject.value} ${q.predicate.value} ${o.termType} ${o.value} ${o.termType === 'Literal' ? o.datatype?.value : ''}`;
    })
    .sort();

const has = (quads: readonly Quad[], s: string, p: string, o: string) =>
  quads.some((q) => q.subject.value === s && q.predicate.value === p && q.object.value === o);
const iri = (id: string) => nodeIri(id).value;

const SUPPORTED_CLAIMS = `PREFIX cl: <${CL}>
PREFIX prov: <${PROV}>
SELECT ?claim ?evidence WHERE {
  ?claim a cl:Claim ; cl:supportedBy ?evidence .
  ?evidence a cl:Evidence .
  FILTER NOT EXISTS { ?evidence prov:wasInvalidatedBy ?closing }
} ORDER BY ?claim ?evidence`;

const pairs = (r: Awaited<ReturnType<typeof sparql>>) =>
  r.type === 'bindings' ? r.rows.map((row) => `${row.claim?.value} ${row.evidence?.value}`) : [];

describe('the RDF view', () => {
  it('types activities and entities with PROV-O and links them', async () => {
    const q = await rdfView(ledger, { epoch: 3 });
    const type = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
    for (const id of ['act:1', 'call:1', 'ver:1']) expect(has(q, iri(id), type, `${PROV}Activity`)).toBe(true);
    for (const id of ['claim:speed', 'ev:doc', 'res:1', 'rev:a2'])
      expect(has(q, iri(id), type, `${PROV}Entity`)).toBe(true);
    expect(has(q, iri('res:1'), `${PROV}wasGeneratedBy`, iri('call:1'))).toBe(true);
    expect(has(q, iri('rev:a2'), `${PROV}wasGeneratedBy`, iri('call:1'))).toBe(true);
    expect(has(q, iri('ver:1'), `${PROV}used`, iri('rev:a2'))).toBe(true);
    expect(has(q, iri('act:1'), `${PROV}used`, iri('claim:speed'))).toBe(true);
    expect(has(q, iri('claim:reply'), `${PROV}wasDerivedFrom`, iri('ev:doc'))).toBe(true);
    expect(has(q, iri('rev:a2'), `${PROV}wasRevisionOf`, iri('rev:a1'))).toBe(true);
    // The superseded views: invalidated by the transaction that wrote rev:a2, at epoch 2.
    const invalidated = q.filter((x) => x.predicate.value === `${PROV}invalidatedAtTime`).map((x) => x.subject.value);
    expect(invalidated.sort()).toEqual([iri('ev:a1:1-10'), iri('rev:a1')].sort());
    expect(has(q, iri('rev:a1'), `${PROV}wasInvalidatedBy`, 'urn:context-ledger:tx:2')).toBe(true);
    expect(has(q, iri('ev:a1:1-10'), `${PROV}wasDerivedFrom`, iri('rev:a1'))).toBe(true);
  });

  it('as of epoch 1 nothing is superseded yet and later nodes are absent', async () => {
    const q = await rdfView(ledger, { epoch: 1 });
    expect(q.some((x) => x.predicate.value === `${PROV}wasInvalidatedBy`)).toBe(false);
    expect(q.some((x) => x.subject.value === iri('act:1'))).toBe(false);
  });

  it('is deterministic: the same export twice is byte-identical', async () => {
    expect(await toRdf(ledger, { epoch: 3, format: 'n-quads' })).toBe(
      await toRdf(ledger, { epoch: 3, format: 'n-quads' }),
    );
  });
});

describe('SPARQL through Comunica', () => {
  it('every claim with its supporting evidence still valid at epoch e', async () => {
    expect(pairs(await sparql(ledger, SUPPORTED_CLAIMS, { epoch: 1, authority: ['agent'] }))).toEqual([
      `${iri('claim:reply')} ${iri('ev:doc')}`,
      `${iri('claim:speed')} ${iri('ev:a1:1-10')}`,
    ]);
    // At epoch 2 the revision a2 made the range cut from a1 stale: claim:speed lost its support.
    expect(pairs(await sparql(ledger, SUPPORTED_CLAIMS, { epoch: 2, authority: ['agent'] }))).toEqual([
      `${iri('claim:reply')} ${iri('ev:doc')}`,
    ]);
    // Every scope: the web claim is there too.
    expect(pairs(await sparql(ledger, SUPPORTED_CLAIMS, { epoch: 2 }))).toEqual([
      `${iri('claim:reply')} ${iri('ev:doc')}`,
      `${iri('claim:web')} ${iri('ev:doc')}`,
    ]);
  });

  it('answers ASK and CONSTRUCT', async () => {
    const ask = await sparql(ledger, `ASK { <${iri('rev:a2')}> <${PROV}wasRevisionOf> <${iri('rev:a1')}> }`);
    expect(ask).toEqual({ type: 'boolean', value: true });
    const built = await sparql(
      ledger,
      `CONSTRUCT { ?r <${PROV}wasGeneratedBy> ?c } WHERE { ?r <${PROV}wasGeneratedBy> ?c }`,
      { epoch: 3 },
    );
    expect(built.type === 'quads' ? built.quads.map((x) => x.subject.value).sort() : []).toEqual(
      [iri('res:1'), iri('rev:a2')].sort(),
    );
  });

  it('bad SPARQL and bad options are coded errors', async () => {
    expect(await codeOf(() => sparql(ledger, 'SELECT ?x WHERE { ?x'))).toBe('INVALID_QUERY');
    expect(await codeOf(() => sparql(ledger, `INSERT DATA { <urn:a> <urn:b> <urn:c> }`))).toBe('INVALID_QUERY');
    expect(await codeOf(() => sparql(ledger, ''))).toBe('INVALID_REQUEST');
    expect(await codeOf(() => sparql(ledger, 'ASK {}', { epoch: -1 }))).toBe('INVALID_REQUEST');
    expect(await codeOf(() => sparql(ledger, 'ASK {}', { authority: 'agent' as never }))).toBe('INVALID_REQUEST');
    expect(await codeOf(() => toRdf(ledger, { format: 'rdf/xml' as never }))).toBe('INVALID_OPTION');
    // Something that is not a Ledger of this copy of the package (a look-alike object).
    expect(await codeOf(() => rdfView({ ...ledger } as never))).toBe('INVALID_REQUEST');
    expect(await codeOf(() => sparql(null as never, 'ASK {}'))).toBe('INVALID_REQUEST');
  });
});

describe('authority', () => {
  it('nothing outside the scopes is ever a quad, at any epoch, in any format or query', async () => {
    const leaks = (text: string) => /claim%3Aweb|SECRET-WEB|tool:web/.test(text);
    for (const epoch of [0, 1, 2, 3]) {
      const q = await rdfView(ledger, { epoch, authority: ['agent'] });
      expect(q.some((x) => leaks(`${x.subject.value} ${x.predicate.value} ${x.object.value}`))).toBe(false);
      for (const format of ['turtle', 'n-quads', 'json-ld'] as const)
        expect(leaks(await toRdf(ledger, { epoch, authority: ['agent'], format }))).toBe(false);
      const all = await sparql(ledger, 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }', { epoch, authority: ['agent'] });
      expect(leaks(JSON.stringify(all))).toBe(false);
      expect(all.type === 'bindings' ? all.rows.length : -1).toBe(q.length);
    }
    // The control: without the filter the web claim is there, so the test can fail.
    expect(leaks(await toRdf(ledger, { epoch: 1, format: 'n-quads' }))).toBe(true);
    // A scope with nothing in it is an empty graph.
    expect(await rdfView(ledger, { authority: ['user'] })).toEqual([]);
  });
});

describe('PROV-O round trip', () => {
  it('a standard parser (n3) reads the Turtle and N-Quads back to the same quads', async () => {
    const quads = await rdfView(ledger, { epoch: 3 });
    for (const format of ['turtle', 'n-quads'] as const) {
      const text = await toRdf(ledger, { epoch: 3, format });
      const parsed = new Parser({ format: format === 'turtle' ? 'Turtle' : 'N-Quads' }).parse(text);
      expect(canon(parsed)).toEqual(canon(quads));
    }
    const turtle = await toRdf(ledger, { epoch: 3 });
    expect(turtle).toContain('@prefix prov: <http://www.w3.org/ns/prov#>');
    expect(turtle).toContain('prov:wasRevisionOf');
  });

  it('a JSON-LD parser reads the JSON-LD back to the same quads', async () => {
    const { JsonLdParser } = await import('jsonld-streaming-parser');
    const text = await toRdf(ledger, { epoch: 3, format: 'json-ld' });
    const parsed = await new Promise<Quad[]>((resolve, reject) => {
      const out: Quad[] = [];
      const parser = new JsonLdParser();
      parser.on('data', (q: Quad) => out.push(q));
      parser.on('error', reject);
      parser.on('end', () => resolve(out));
      parser.write(text);
      parser.end();
    });
    expect(canon(parsed)).toEqual(canon(await rdfView(ledger, { epoch: 3 })));
  });
});
