import { expect, test } from '@playwright/test';
import { RMDX_SESSION } from '../../demo/traces/rmdx-can-session.js';
import { runConformance } from '../../test/conformance/cases.js';
import { HARNESS_ORIGIN } from './pages.js';

/** The first index where two strings differ, with context, for a readable failure. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at character ${i}:\n  chromium: …${a.slice(Math.max(0, i - 120), i + 120)}…\n  node:     …${b.slice(Math.max(0, i - 120), i + 120)}…`;
}

test('the conformance suite gives the same JSON in Chromium as in Node, byte for byte (built bundles)', async ({
  page,
}, testInfo) => {
  await page.goto(`${HARNESS_ORIGIN}/conformance.html`);
  await page.waitForFunction(() => window.conformance !== undefined, null, { timeout: 180_000 });
  const chromium = (await page.evaluate(() => window.conformance))!;
  expect(chromium.error).toBeUndefined();

  // Typed from the source entry, run from the built one, like the page.
  const node = (await import(
    new URL('../../dist/entries/node.js', import.meta.url).href
  )) as typeof import('../../src/entries/node.js');
  const expected = JSON.stringify(await runConformance(node.openLedger, RMDX_SESSION));
  const actual = chromium.json!;
  expect(actual === expected, firstDifference(actual, expected)).toBe(true);

  const note = `${Math.round(chromium.firstQueryMs!)} ms`;
  testInfo.annotations.push({ type: 'first query after navigation', description: note });
  console.log(`conformance: first query ${note} after navigation; ${actual.length} bytes of JSON equal`);
});
