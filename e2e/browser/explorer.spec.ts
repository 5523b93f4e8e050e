import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { EXPLORER_ORIGIN } from './pages.js';

const SCREENSHOT = fileURLToPath(new URL('../../test-results/explorer.png', import.meta.url));
const TRAJECTORY = fileURLToPath(new URL('../../test/fixtures/transcripts/mini-swe-agent.traj.json', import.meta.url));

test('the explorer: bundled session, epoch slider, budget, working set, explanation, retrieval', async ({ page }) => {
  const ready = () => expect(page.locator('body')).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
  const summary = page.locator('#ws-summary');
  await page.goto(`${EXPLORER_ORIGIN}/`);
  await ready();
  await expect(page.locator('#status')).toContainText('committed 12 transactions · OPFS');
  await expect(summary).toContainText('of 1000 tokens · epoch 11');

  await page.locator('#epoch').fill('5');
  await ready();
  await expect(page.locator('#epoch-value')).toHaveText('5 of 11');
  await expect(summary).toContainText('epoch 5');
  await expect(page.locator('#graph')).toContainText('valid at epoch 5');

  await page.locator('#budget').fill('300');
  await ready();
  await expect(summary).toContainText('of 300 tokens · epoch 5');
  await expect(page.locator('#explanation-rows tr.out').first()).toBeVisible();

  await page.locator('#epoch').fill('11');
  await page.locator('#budget').fill('1500');
  await ready();
  await expect(summary).toContainText('of 1500 tokens · epoch 11');
  const first = page.locator('#tiers details').first();
  await first.locator('summary').click();
  await expect(first.locator('pre, p')).toBeVisible();

  await page.locator('#query').fill('speed decoded as signed int16');
  await page.locator('#retrieve').click();
  await ready();
  await expect(page.locator('.verdict')).toContainText('supported');
  await expect(page.locator('#retrieval .evidence li').first()).toContainText('lexical');
  await page.screenshot({ path: SCREENSHOT, fullPage: true });

  await page.getByRole('button', { name: 'firmware update over bluetooth' }).click();
  await ready();
  await expect(page.locator('.verdict')).toContainText('abstains');
  await expect(page.locator('#retrieval .missing li').first()).toBeVisible();

  // Stored in OPFS: a reload restores instead of committing again.
  await page.reload();
  await ready();
  await expect(page.locator('#status')).toContainText('restored 12 transactions · OPFS');

  // A dropped transcript replaces the ledger; Reset brings the bundled session back.
  await page.locator('#file').setInputFiles(TRAJECTORY);
  await ready();
  await expect(page.locator('#source')).toContainText('mini-swe-agent.traj.json (mini-swe-agent');
  await expect(summary).toContainText('items');
  await page.locator('#reset').click();
  await ready();
  await expect(page.locator('#status')).toContainText('committed 12 transactions');
  await expect(page.locator('#source')).toContainText('RMD-X');
});
