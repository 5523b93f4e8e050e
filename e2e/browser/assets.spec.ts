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
      ['a 404 wasm', { duckdbWasmUrl: '/missing/duckdb-eh.wasm' }, 'duckdbWasmUrl'],
      ['an unreachable host', { duckdbWasmUrl: 'http://127.0.0.1:9/duckdb-eh.wasm' }, 'duckdbWasmUrl'],
      ['a wasm that is not DuckDB', { duckdbWasmUrl: urls.tiktokenWasmUrl }, 'duckdbWasmUrl'],
      ['an HTML page as the worker', { duckdbWorkerUrl: '/harness.html' }, 'duckdbWorkerUrl'],
      ['a wasm as the worker', { duckdbWorkerUrl: urls.tiktokenWasmUrl }, 'duckdbWorkerUrl'],
      ['JSON as tiktoken', { tiktokenWasmUrl: urls.cl100kRanksUrl }, 'tiktokenWasmUrl'],
      ['a 404 ranks file', { ranksUrl: '/missing/o200k_base.json' }, 'ranksUrl'],
      ["another encoding's ranks", { ranksUrl: urls.cl100kRanksUrl }, 'ranksUrl'],
      ['an encoding with no default ranks', { encoding: 'cl100k_base' }, 'ranksUrl'],
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
      duckdbWasmUrl: elsewhere(urls.duckdbWasmUrl),
      duckdbWorkerUrl: elsewhere(urls.duckdbWorkerUrl),
      tiktokenWasmUrl: elsewhere(urls.tiktokenWasmUrl),
      encoding: 'cl100k_base',
      ranksUrl: elsewhere(urls.cl100kRanksUrl),
    } satisfies BrowserLedgerOptions);
    expect(outcome).toMatchObject({ code: 'OK' });
  });
});
