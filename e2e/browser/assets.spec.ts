import { expect, test } from '@playwright/test';
import type { BrowserLedgerOptions } from '../../src/entries/browser.js';
import { HARNESS_ORIGIN, openHarness } from './pages.js';

test.describe('asset URLs', () => {
  test('a missing or wrong asset fails openLedger with ASSET_UNAVAILABLE naming its option, within seconds', async ({
    page,
  }) => {
    await openHarness(page);
    const urls = await page.evaluate(() => window.harness!.assetUrls);
    const cases: Array<[string, BrowserLedgerOptions, string]> = [
      ['a 404 wasm', { assets: { duckdbWasm: '/missing/duckdb-eh.wasm' } }, 'assets.duckdbWasm'],
      ['an unreachable host', { assets: { duckdbWasm: 'http://127.0.0.1:9/duckdb-eh.wasm' } }, 'assets.duckdbWasm'],
      ['a wasm that is not DuckDB', { assets: { duckdbWasm: urls.tiktokenWasmUrl } }, 'assets.duckdbWasm'],
      ['an HTML page as the worker', { assets: { duckdbWorker: '/harness.html' } }, 'assets.duckdbWorker'],
      ['a wasm as the worker', { assets: { duckdbWorker: urls.tiktokenWasmUrl } }, 'assets.duckdbWorker'],
      ['JSON as tiktoken', { assets: { tiktokenWasm: urls.cl100kRanksUrl } }, 'assets.tiktokenWasm'],
      ['a 404 ranks file', { assets: { ranks: '/missing/o200k_base.json' } }, 'assets.ranks'],
      ["another encoding's ranks", { assets: { ranks: urls.cl100kRanksUrl } }, 'assets.ranks'],
      ['an encoding with no default ranks', { encoding: 'cl100k_base' }, 'assets.ranks'],
    ];
    for (const [what, options, field] of cases) {
      const outcome = await page.evaluate((o) => window.harness!.tryOpen(o), options);
      expect(outcome, what).toMatchObject({ code: 'ASSET_UNAVAILABLE', field });
      // Seconds (the first case includes loading tiktoken), not the 120 s start backstop.
      expect(outcome.ms, what).toBeLessThan(20_000);
    }
  });

  test('caller-supplied URLs work, from another origin too', async ({ page }) => {
    await openHarness(page);
    const urls = await page.evaluate(() => window.harness!.assetUrls);
    // Same server, other origin: `localhost` is not `127.0.0.1` to the browser.
    const elsewhere = (path: string) => new URL(path, HARNESS_ORIGIN.replace('127.0.0.1', 'localhost')).href;
    const outcome = await page.evaluate((o) => window.harness!.tryOpen(o), {
      assets: {
        duckdbWasm: elsewhere(urls.duckdbWasmUrl),
        duckdbWorker: elsewhere(urls.duckdbWorkerUrl),
        tiktokenWasm: elsewhere(urls.tiktokenWasmUrl),
        ranks: elsewhere(urls.cl100kRanksUrl),
      },
      encoding: 'cl100k_base',
    } satisfies BrowserLedgerOptions);
    expect(outcome).toMatchObject({ code: 'OK' });
  });
});
