import { expect, type Page, test } from '@playwright/test';
import { openHarness } from './pages.js';

const reopen = async (page: Page, name: string, kind: 'browser' | 'indexeddb') => {
  await page.reload();
  await page.waitForFunction(() => window.harness !== undefined, null, { timeout: 30_000 });
  return page.evaluate(([n, k]) => window.harness!.open(n, k), [name, kind] as const);
};

for (const kind of ['browser', 'indexeddb'] as const) {
  test(`${kind === 'browser' ? 'OPFS' : 'IndexedDB'}: after a reload the ledger has the same transactions`, async ({
    page,
  }) => {
    const name = `persist-${kind}`;
    await openHarness(page);
    await page.evaluate((n) => window.harness!.remove(n), name);
    const empty = await page.evaluate(([n, k]) => window.harness!.open(n, k), [name, kind] as const);
    expect(empty).toMatchObject({ kind: kind === 'browser' ? 'opfs' : 'indexeddb', lastTx: 0 });
    const six = await page.evaluate((n) => window.harness!.commit(n, 6), name);
    expect(six.lastTx).toBe(6);

    // Reloaded without closing, as a user would: the log alone restores it.
    expect(await reopen(page, name, kind)).toEqual(six);

    // Compacted, then more commits: snapshot plus log.
    expect(await page.evaluate((n) => window.harness!.compact(n), name)).toEqual({
      before: 6,
      compacted: true,
      after: 0,
    });
    const all = await page.evaluate((n) => window.harness!.commit(n, 6), name);
    expect(all.lastTx).toBe(12);
    const restored = await reopen(page, name, kind);
    expect(restored).toEqual(all);
    expect({ ...restored, kind: null }).toEqual(await page.evaluate(() => window.harness!.reference(12)));
    await page.evaluate((n) => window.harness!.close(n), name);
  });
}

test('a storage failure fails the commit with STORAGE_FAILED and leaves the ledger unchanged', async ({ page }) => {
  const name = 'faults';
  await openHarness(page);
  await page.evaluate((n) => window.harness!.remove(n), name);
  await page.evaluate((n) => window.harness!.open(n, 'browser'), name);
  const before = await page.evaluate((n) => window.harness!.commit(n, 4), name);

  const { failure, after } = await page.evaluate((n) => window.harness!.commitWithFailingStorage(n), name);
  expect(failure).toMatchObject({ code: 'STORAGE_FAILED', field: 'storage', cause: 'QuotaExceededError' });
  expect(after).toEqual(before);

  // The ledger goes on; a reload shows exactly the acknowledged commits.
  const next = await page.evaluate((n) => window.harness!.commit(n, 1), name);
  expect(next.lastTx).toBe(5);
  expect(await reopen(page, name, 'browser')).toEqual(next);
  await page.evaluate((n) => window.harness!.close(n), name);
});

for (const kind of ['browser', 'indexeddb'] as const) {
  const label = kind === 'browser' ? 'OPFS' : 'IndexedDB';

  test(`${label}: a ledger open in one tab is refused in another (STORAGE_FAILED), and free once closed`, async ({
    page,
    context,
  }) => {
    const name = `two-tabs-${kind}`;
    await openHarness(page);
    await page.evaluate((n) => window.harness!.remove(n), name);
    await page.evaluate(([n, k]) => window.harness!.open(n, k), [name, kind] as const);
    const other = await context.newPage();
    await openHarness(other);
    const refused = await other.evaluate(([n, k]) => window.harness!.open(n, k).catch((e) => e.code as string), [
      name,
      kind,
    ] as const);
    expect(refused).toBe('STORAGE_FAILED');
    await page.evaluate((n) => window.harness!.close(n), name);
    expect(await other.evaluate(([n, k]) => window.harness!.open(n, k), [name, kind] as const)).toMatchObject({
      lastTx: 0,
    });
    await other.evaluate((n) => window.harness!.close(n), name);
  });

  test(`${label}: a crashed tab leaves no stale lock; another tab reopens exactly the acknowledged commits`, async ({
    page,
    context,
  }) => {
    const name = `crash-${kind}`;
    await openHarness(page);
    await page.evaluate((n) => window.harness!.remove(n), name);
    await page.evaluate(([n, k]) => window.harness!.open(n, k), [name, kind] as const);
    const acknowledged = await page.evaluate((n) => window.harness!.commit(n, 5), name);
    expect(acknowledged.lastTx).toBe(5);

    // The renderer dies holding the ledger open: no close(), no unload handlers.
    const cdp = await context.newCDPSession(page);
    const crashed = page.waitForEvent('crash', { timeout: 30_000 });
    // The command never gets its answer from a renderer it kills: not awaited.
    void cdp.send('Page.crash').catch(() => undefined);
    await crashed;

    const other = await context.newPage();
    await openHarness(other);
    // The browser frees the dead tab's Web Lock and handles as it reaps the renderer.
    await expect
      .poll(
        () =>
          other.evaluate(([n, k]) => window.harness!.open(n, k).catch((e) => e.code as string), [name, kind] as const),
        { timeout: 30_000 },
      )
      .toEqual(acknowledged);
    await other.evaluate((n) => window.harness!.close(n), name);
  });
}

test('OPFS from a worker (sync access handles): the page then finds the same ledger', async ({ page }) => {
  const name = 'worker';
  await openHarness(page);
  await page.evaluate((n) => window.harness!.remove(n), name);
  const outcome = await page.evaluate((n) => window.harness!.inWorker(n, 8), name);
  expect(outcome.error).toBeUndefined();
  expect(outcome).toMatchObject({ syncAccess: true, state: { kind: 'opfs', lastTx: 8 } });
  expect(await page.evaluate((n) => window.harness!.open(n, 'browser'), name)).toEqual(outcome.state);
  await page.evaluate((n) => window.harness!.close(n), name);
});

test('a full OPFS quota fails the commit with STORAGE_FAILED (QuotaExceededError) and keeps the log intact', async ({
  page,
  context,
}) => {
  const name = 'quota';
  await openHarness(page);
  await page.evaluate((n) => window.harness!.remove(n), name);
  await page.evaluate((n) => window.harness!.open(n, 'browser'), name);
  const before = await page.evaluate((n) => window.harness!.commit(n, 3), name);

  // A real quota, not a mock: Chromium's DevTools protocol caps this origin's storage.
  const cdp = await context.newCDPSession(page);
  const origin = new URL(page.url()).origin;
  const { usage } = (await cdp.send('Storage.getUsageAndQuota', { origin })) as { usage: number };
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 100_000 });
  const { failure, after } = await page.evaluate((n) => window.harness!.commitLargeBody(n, 1_000_000), name);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  expect(failure).toMatchObject({ code: 'STORAGE_FAILED', field: 'storage', cause: 'QuotaExceededError' });
  expect(after).toEqual(before);

  const next = await page.evaluate((n) => window.harness!.commit(n, 1), name);
  expect(next.lastTx).toBe(4);
  expect(await reopen(page, name, 'browser')).toEqual(next);
  await page.evaluate((n) => window.harness!.close(n), name);
});

test('without OPFS, browserStorage falls back to IndexedDB', async ({ page }) => {
  // As in browsers and contexts that lack OPFS.
  await page.addInitScript(() => Object.defineProperty(StorageManager.prototype, 'getDirectory', { value: undefined }));
  await openHarness(page);
  await page.evaluate(() => window.harness!.remove('fallback'));
  expect(await page.evaluate(() => window.harness!.open('fallback', 'browser'))).toMatchObject({
    kind: 'indexeddb',
    lastTx: 0,
  });
  await page.evaluate(() => window.harness!.close('fallback'));
});

test('ledgers opened one after another share the page’s DuckDB instance, each seeing only its own data', async ({
  page,
}) => {
  await openHarness(page);
  const { a, b, c, openMs } = await page.evaluate(() => window.harness!.sideBySide());
  expect([a.lastTx, b.lastTx, c.lastTx]).toEqual([5, 2, 1]);
  // Same transactions, same state as a ledger alone (nothing leaked between the databases).
  expect({ ...b, kind: null }).toEqual(await page.evaluate(() => window.harness!.reference(2)));
  expect({ ...c, kind: null }).toEqual(await page.evaluate(() => window.harness!.reference(1)));
  // Only the first open started DuckDB (seconds); the later ones attached a database to it.
  console.log(`openLedger ms: ${openMs.map(Math.round).join(', ')}`);
});
