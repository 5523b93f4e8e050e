import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Ledger } from '../../src/ledger/ledger.js';
import { nodeIri, rdfView, toRdf } from '../../src/rdf/index.js';
import { LedgerPool } from '../helpers/ledgers.js';
import { bundleWorker, ensureBuiltDist, ROOT, type RunningWorker, startWorker } from '../workerd/worker-harness.js';
import { commitFixture } from './fixture.js';

/**
 * `context-ledger/rdf` in workerd (test/rdf/workerd/worker.js, built from dist/ by wrangler), with
 * and without `nodejs_compat`: the same view, exports and SPARQL answers as in Node.
 */
const BUILD_TIMEOUT_MS = 180_000;
const START_TIMEOUT_MS = 120_000;
const CONFIGS = {
  'with nodejs_compat': join(ROOT, 'test/rdf/workerd/wrangler.jsonc'),
  'without nodejs_compat': join(ROOT, 'test/rdf/workerd/wrangler.no-compat.jsonc'),
};

type Step<T> = { ok: true; value: T } | { ok: false; code: string | null; message: string; ledgerError: boolean };
interface Outcome {
  view: Step<number>;
  jsonld: Step<number>;
  turtle: Step<number>;
  nquads: Step<number>;
  sparql: Step<string[]>;
  badSparql: Step<unknown>;
  badOptions: Step<unknown>;
  badModule: Step<unknown>;
  badCommit: Step<unknown>;
}

const workers = new Map<string, RunningWorker>();
const outdirs: string[] = [];
const pool = new LedgerPool();
let ledger: Ledger;

beforeAll(
  async () => {
    ledger = await pool.ledger();
    await commitFixture(ledger);
    await ensureBuiltDist(BUILD_TIMEOUT_MS);
    for (const [name, configPath] of Object.entries(CONFIGS)) {
      const outdir = await mkdtemp(join(tmpdir(), 'ledger-rdf-workerd-'));
      outdirs.push(outdir);
      await bundleWorker(configPath, outdir, BUILD_TIMEOUT_MS);
      workers.set(name, await startWorker({ configPath, outdir, timeoutMs: START_TIMEOUT_MS }));
    }
  },
  BUILD_TIMEOUT_MS * 3 + START_TIMEOUT_MS * 2,
);

afterAll(async () => {
  for (const w of workers.values()) await w.dispose();
  await pool.close();
  for (const dir of outdirs) await rm(dir, { recursive: true, force: true });
}, START_TIMEOUT_MS);

it.each(Object.keys(CONFIGS))(
  '%s, the RDF view, every export and SPARQL give what they give in Node',
  async (name) => {
    const worker = workers.get(name);
    if (!worker) throw new Error('the Worker did not start');
    const res = await worker.fetch('/rdf', {}, 180_000);
    const out = (await res.json()) as Outcome;
    expect(out.view).toEqual({ ok: true, value: (await rdfView(ledger, { epoch: 3, authority: ['agent'] })).length });
    expect(out.jsonld).toEqual({ ok: true, value: (await toRdf(ledger, { epoch: 3, format: 'json-ld' })).length });
    expect(out.turtle).toEqual({ ok: true, value: (await toRdf(ledger, { epoch: 3, format: 'turtle' })).length });
    expect(out.nquads).toEqual({ ok: true, value: (await rdfView(ledger, { epoch: 3 })).length });
    expect(out.sparql).toEqual({ ok: true, value: [`${nodeIri('claim:reply').value} ${nodeIri('ev:doc').value}`] });
    // One LedgerError class per runtime: thrown by the rdf subpath, the Workers entry or the core,
    // an error is `instanceof` the class the package root exports (the entry once bundled its own).
    expect(out.badSparql).toMatchObject({ ok: false, code: 'INVALID_QUERY', ledgerError: true });
    expect(out.badOptions).toMatchObject({ ok: false, code: 'INVALID_OPTION', ledgerError: true });
    expect(out.badModule).toMatchObject({ ok: false, code: 'ASSET_UNAVAILABLE', ledgerError: true });
    expect(out.badCommit).toMatchObject({ ok: false, code: 'INVALID_NODE_KIND', ledgerError: true });
  },
  240_000,
);
