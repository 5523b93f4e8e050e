import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../src/entries/node.js';
import { LedgerError } from '../../src/errors.js';

const require = createRequire(import.meta.url);
const DUCKDB_WASM = require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm');

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof LedgerError ? { code: e.code, field: e.details.field } : { code: String(e) }),
  );

describe('the assets option in Node', () => {
  it("opens with DuckDB's wasm handed over as a path, a file: URL or bytes", async () => {
    const bytes = new Uint8Array(await readFile(DUCKDB_WASM));
    for (const duckdbWasm of [DUCKDB_WASM, pathToFileURL(DUCKDB_WASM), bytes]) {
      const ledger = await openLedger({ assets: { duckdbWasm } });
      await ledger.commit({ epoch: 1, nodes: [{ id: 'a', kind: 'message', body: 'hello' }] });
      expect((await ledger.asOf()).nodes.map((n) => n.body)).toEqual(['hello']);
      await ledger.close();
    }
  });

  it('refuses a missing file, a form Node cannot load, and assets Node does not load, naming the field', async () => {
    expect(await failure(openLedger({ assets: { duckdbWasm: '/nonexistent/duckdb-eh.wasm' } }))).toEqual({
      code: 'ASSET_UNAVAILABLE',
      field: 'assets.duckdbWasm',
    });
    expect(
      await failure(openLedger({ assets: { duckdbWasm: new URL('https://example.test/duckdb-eh.wasm') } })),
    ).toEqual({ code: 'ASSET_UNAVAILABLE', field: 'assets.duckdbWasm' });
    expect(await failure(openLedger({ assets: { tiktokenWasm: 'tiktoken_bg.wasm' } }))).toEqual({
      code: 'INVALID_OPTION',
      field: 'assets.tiktokenWasm',
    });
    expect(await failure(openLedger({ assets: { duckdbWasmPath: DUCKDB_WASM } as never }))).toEqual({
      code: 'INVALID_OPTION',
      field: 'assets.duckdbWasmPath',
    });
    expect(await failure(openLedger({ assets: 'duckdb-eh.wasm' as never }))).toEqual({
      code: 'INVALID_OPTION',
      field: 'assets',
    });
  });
});
