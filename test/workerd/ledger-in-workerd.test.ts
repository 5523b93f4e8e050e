import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import { runConformance } from '../conformance/cases.js';
import {
  bundleWorker,
  ensureBuiltDist,
  HARNESS_CONFIG,
  ROOT,
  type RunningWorker,
  startWorker,
} from './worker-harness.js';

/**
 * The built bundle inside workerd (test/workerd/harness/worker.ts, importing the package through
 * its `workerd` export condition): the conformance suite, wrong wasm modules, and the example's
 * session Durable Object under an injected storage fault. One workerd start for the whole file.
 */

// A loaded 2-core machine: tsc ~30 s, wrangler ~20 s, workerd compiling duckdb-eh.wasm 10–35 s.
const BUILD_TIMEOUT_MS = 180_000;
const START_TIMEOUT_MS = 120_000;
/** Two DuckDB instantiations and the whole suite: ~16 s cold on a loaded machine. */
const CONFORMANCE_TIMEOUT_MS = 180_000;
/** A wrong module must be refused before anything is instantiated: well under this. */
const WRONG_MODULE_BOUND_MS = 5_000;
const REQUEST_TIMEOUT_MS = 60_000;

let worker: RunningWorker | undefined;
let outdir: string | undefined;

beforeAll(
  async () => {
    await ensureBuiltDist(BUILD_TIMEOUT_MS);
    outdir = await mkdtemp(join(tmpdir(), 'ledger-workerd-harness-'));
    await bundleWorker(HARNESS_CONFIG, outdir, BUILD_TIMEOUT_MS);
    worker = await startWorker({ configPath: HARNESS_CONFIG, outdir, timeoutMs: START_TIMEOUT_MS });
  },
  BUILD_TIMEOUT_MS * 2 + START_TIMEOUT_MS,
);

afterAll(async () => {
  await worker?.dispose();
  if (outdir) await rm(outdir, { recursive: true, force: true });
}, START_TIMEOUT_MS);

function running(): RunningWorker {
  if (!worker) throw new Error('the Worker did not start');
  return worker;
}

describe('the built Workers bundle in workerd', () => {
  it(
    'runs the conformance suite to the same JSON as the built Node bundle, byte for byte',
    async () => {
      // The Node side runs the built dist/entries/node.js too, concurrently with the Worker.
      const node = import(pathToFileURL(join(ROOT, 'dist/entries/node.js')).href).then(
        (entry: typeof import('../../src/entries/node.js')) => runConformance(entry.openLedger, RMDX_SESSION),
      );
      const response = await running().fetch('/conformance', {}, CONFORMANCE_TIMEOUT_MS);
      const inWorkerd = await response.text();
      expect(response.status, inWorkerd.slice(0, 2000)).toBe(200);
      const inNode = await node;
      expect(inNode.rejected.map((r) => r.code)).toEqual([
        'INVALID_NODE_KIND',
        'DANGLING_EDGE',
        'DUPLICATE_ID',
        'INVALID_RANGE',
      ]);
      // A structural diff first, readable when it fails; then the bytes.
      expect(JSON.parse(inWorkerd)).toEqual(JSON.parse(JSON.stringify(inNode)));
      expect(inWorkerd).toBe(JSON.stringify(inNode));
    },
    CONFORMANCE_TIMEOUT_MS * 2,
  );

  it.each([
    { name: 'tiktoken as duckdb', field: 'assets.duckdbWasm' },
    { name: 'duckdb as trampolines', field: 'assets.trampolines' },
    { name: 'trampolines as tiktoken', field: 'assets.tiktokenWasm' },
    { name: 'duckdb null', field: 'assets.duckdbWasm' },
    { name: 'wasm bytes, not a module', field: 'assets.tiktokenWasm' },
    { name: 'a URL, which Workers cannot compile', field: 'assets.duckdbWasm' },
  ])(
    'refuses $name with ASSET_UNAVAILABLE naming $field, within seconds',
    async ({ name, field }) => {
      const started = performance.now();
      const response = await running().fetch(
        `/wrong-modules?case=${encodeURIComponent(name)}`,
        {},
        WRONG_MODULE_BOUND_MS,
      );
      const body = (await response.json()) as { opened: boolean; code?: string; details?: { field?: string } };
      expect(performance.now() - started).toBeLessThan(WRONG_MODULE_BOUND_MS);
      expect(body).toMatchObject({ opened: false, code: 'ASSET_UNAVAILABLE', details: { field } });
    },
    WRONG_MODULE_BOUND_MS * 2,
  );

  it(
    'answers a commit whose storage put rejects with 400 STORAGE_FAILED and keeps the ledger as it was',
    async () => {
      const w = running();
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        w.fetch(path, { method: 'POST', body: JSON.stringify(body), headers }, REQUEST_TIMEOUT_MS);
      const snapshot = async () => {
        const response = await w.fetch('/sessions/faulty/snapshot', {}, REQUEST_TIMEOUT_MS);
        expect(response.status).toBe(200);
        return new Uint8Array(await response.arrayBuffer());
      };

      const first = await post('/sessions/faulty/commit', RMDX_SESSION[0]);
      expect(first.status).toBe(200);
      expect(await first.json()).toMatchObject({ tx: 1 });

      const invalid = await post('/sessions/faulty/commit', { epoch: 1, nodes: [{ id: 'x', kind: 'thought' }] });
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toMatchObject({ code: 'INVALID_NODE_KIND', details: { field: 'nodes[0].kind' } });

      const before = await snapshot();
      const refused = await post('/sessions/faulty/commit', RMDX_SESSION[1], { 'x-fail-puts': '1' });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'STORAGE_FAILED', details: { field: 'storage' } });
      expect(Buffer.from(await snapshot()).equals(Buffer.from(before))).toBe(true);

      // The refused commit used no transaction number: the same transaction now lands as tx 2.
      const retried = await post('/sessions/faulty/commit', RMDX_SESSION[1]);
      expect(retried.status).toBe(200);
      expect(await retried.json()).toMatchObject({ tx: 2 });
    },
    REQUEST_TIMEOUT_MS * 6,
  );

  it.each([
    {
      what: 'a body over MAX_BODY_BYTES',
      path: '/sessions/v/commit',
      method: 'POST',
      body: `{"pad":"${'x'.repeat(70_000)}"}`,
      status: 413,
      field: 'body',
    },
    {
      what: 'a body that is not JSON',
      path: '/sessions/v/commit',
      method: 'POST',
      body: '{"epoch": 1,',
      status: 400,
      field: 'body',
    },
    {
      what: 'a JSON array',
      path: '/sessions/v/materialize',
      method: 'POST',
      body: '[1, 2]',
      status: 400,
      field: 'body',
    },
    { what: 'JSON null', path: '/sessions/v/retrieve', method: 'POST', body: 'null', status: 400, field: 'body' },
    {
      what: 'a body that is not UTF-8',
      path: '/sessions/v/commit',
      method: 'POST',
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
      status: 400,
      field: 'body',
    },
    { what: 'a wrong method', path: '/sessions/v/commit', method: 'GET', status: 405, field: 'method' },
    { what: 'an unknown route', path: '/sessions/v/delete', method: 'POST', body: '{}', status: 404, field: 'path' },
    {
      what: 'a bad session name',
      path: '/sessions/%E0%A4%A/commit',
      method: 'POST',
      body: '{}',
      status: 400,
      field: 'path',
    },
    {
      what: 'a transaction of the wrong shape',
      path: '/sessions/v/commit',
      method: 'POST',
      body: '{"epoch": "one"}',
      status: 400,
      field: 'epoch',
    },
  ])(
    'the example Worker refuses $what with $status and a coded JSON body, no stack trace',
    async ({ path, method, body, status, field }) => {
      const response = await running().fetch(
        path,
        { method, ...(body === undefined ? {} : { body }) },
        REQUEST_TIMEOUT_MS,
      );
      const text = await response.text();
      expect(response.status, text.slice(0, 500)).toBe(status);
      expect(text).not.toMatch(/\bat .*:\d+:\d+|Error:/);
      expect(JSON.parse(text)).toMatchObject({ details: { field } });
      expect(JSON.parse(text).code).toMatch(/^[A-Z_]+$/);
    },
    REQUEST_TIMEOUT_MS,
  );
});
