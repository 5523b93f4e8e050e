import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import type { DrawnGraph } from '../../demo/explorer/graph-view.js';
import { EXPLORER_ORIGIN } from './pages.js';

const FIXTURE = fileURLToPath(new URL('../../test/fixtures/transcripts/mini-swe-agent.traj.json', import.meta.url));
/** A user's clone has no ../shared: the shared-trajectory test skips there. */
const SHARED = fileURLToPath(new URL('../../../shared/data/trajectories/swe-agent-demos/', import.meta.url));

declare global {
  interface Window {
    explorerGraph?: () => DrawnGraph;
  }
}

const ready = (page: Page) => expect(page.locator('body')).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
const graphOf = (page: Page) => page.evaluate(() => window.explorerGraph?.() as DrawnGraph);
const count = (g: DrawnGraph, state: string) => g.nodes.filter((n) => n.state === state).length;
/** `N items · T of B tokens · epoch E` */
async function summary(page: Page) {
  const text = (await page.locator('#ws-summary').textContent()) ?? '';
  const m = /(\d+) items · (\d+) of (\d+) tokens · epoch (\d+)/.exec(text);
  if (!m) throw new Error(`unexpected summary: ${text}`);
  return { items: Number(m[1]), tokens: Number(m[2]), budget: Number(m[3]), epoch: Number(m[4]) };
}
async function budgetBar(page: Page) {
  return page.locator('#budget-bar .segment').evaluateAll((els) =>
    els.map((e) => ({
      tier: (e as HTMLElement).dataset.tier ?? '',
      tokens: Number((e as HTMLElement).dataset.tokens),
    })),
  );
}
/** Graph, budget bar and explanation agree with the working set the page reports. */
async function expectConsistent(page: Page) {
  const s = await summary(page);
  const g = await graphOf(page);
  expect(count(g, 'included')).toBe(s.items);
  const bar = await budgetBar(page);
  const used = bar.filter((b) => b.tier !== 'free').reduce((sum, b) => sum + b.tokens, 0);
  expect(used).toBe(s.tokens);
  expect(bar.find((b) => b.tier === 'free')?.tokens).toBe(s.budget - s.tokens);
  await page.locator('#explanation-filter').fill('');
  await page.locator('#explanation-side').selectOption('all');
  const out = await page.locator('#explanation-rows tr.out td:nth-child(2)').allTextContents();
  const notIncluded = g.nodes.filter((n) => n.state !== 'included').map((n) => n.id);
  expect([...notIncluded].sort()).toEqual([...out].sort());
  return { s, g, bar };
}

test('the explorer: graph, timeline, budget bar, messages, SPARQL, filter on the bundled session', async ({
  page,
}, info) => {
  await page.goto(`${EXPLORER_ORIGIN}/`);
  await ready(page);
  await expect(page.locator('#status')).toContainText('committed 12 transactions · OPFS');
  let { s, g } = await expectConsistent(page);
  expect(s).toMatchObject({ budget: 1000, epoch: 11 });
  // At the last epoch the session has revised files and recorded one contradiction.
  expect(count(g, 'superseded')).toBeGreaterThan(0);
  expect(g.edges.some((e) => e.kind === 'contradicts')).toBe(true);
  expect(g.edges.some((e) => e.kind === 'supersedes')).toBe(true);
  await expect(page.locator('#timeline-strip .tick')).toHaveCount(12);
  await expect(page.locator('#timeline-strip .m.supersession').first()).toBeVisible();
  await page.screenshot({ path: info.outputPath('explorer-epoch-11.png'), fullPage: true });

  // A tighter budget leaves nodes out: drawn dashed, listed as out, and the bar still adds up.
  await page.locator('#budget').fill('300');
  await ready(page);
  ({ s, g } = await expectConsistent(page));
  expect(s.budget).toBe(300);
  expect(count(g, 'excluded')).toBeGreaterThan(0);

  // Scrub the timeline to epoch 5: the diff names what entered and left since epoch 4.
  await page.locator('#timeline-strip .tick[data-epoch="5"]').click();
  await ready(page);
  await expect(page.locator('#epoch-value')).toHaveText('5 of 11');
  ({ s, g } = await expectConsistent(page));
  expect(s.epoch).toBe(5);
  await expect(page.locator('#diff')).toContainText('since epoch 4');
  const entered = await page.locator('#diff code.entered').allTextContents();
  const included = new Set(g.nodes.filter((n) => n.state === 'included').map((n) => n.id));
  for (const id of entered) expect(included.has(id)).toBe(true);
  // Nothing is superseded yet at epoch 5.
  expect(count(g, 'superseded')).toBe(0);
  // Drag across the strip back to the end.
  const strip = await page.locator('#timeline-strip').boundingBox();
  if (!strip) throw new Error('no timeline strip');
  await page.mouse.move(strip.x + strip.width * 0.45, strip.y + strip.height / 2);
  await page.mouse.down();
  await page.mouse.move(strip.x + strip.width - 3, strip.y + strip.height / 2, { steps: 6 });
  await page.mouse.up();
  await ready(page);
  await expect(page.locator('#epoch-value')).toHaveText('11 of 11');

  // Click a node on the canvas: its body and explanation appear.
  g = await graphOf(page);
  const node = g.nodes.find((n) => n.kind === 'claim') ?? g.nodes[0];
  if (!node) throw new Error('empty graph');
  const canvas = await page.locator('#graph-canvas').boundingBox();
  if (!canvas) throw new Error('no canvas');
  await page.mouse.click(canvas.x + node.x, canvas.y + node.y);
  await expect(page.locator('#node-details')).toContainText(node.id);
  await expect(page.locator('#node-details .why')).toContainText(node.state === 'included' ? 'In:' : 'Out:');
  await page.screenshot({ path: info.outputPath('explorer-node.png'), fullPage: true });

  // The explanation filter, and ids in natural order (act:2 before act:10).
  await page.locator('#explanation-filter').fill('budget');
  const reasons = await page.locator('#explanation-rows td:nth-child(4)').allTextContents();
  expect(reasons.length).toBeGreaterThan(0);
  for (const r of reasons) expect(r).toContain('budget');
  await page.locator('#explanation-filter').fill('');
  await page.locator('#explanation-side').selectOption('out');
  const outIds = await page.locator('#explanation-rows td:nth-child(2)').allTextContents();
  const natural = [...outIds].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  expect(outIds).toEqual(natural);

  // The rendered messages, in both shapes (at 1000 tokens the working set holds tool calls).
  await page.locator('#budget').fill('1000');
  await ready(page);
  await page.getByRole('tab', { name: 'Messages' }).click();
  await expect(page.locator('#messages')).toContainText('"tool_calls"');
  await page.locator('#shape').selectOption('anthropic');
  await expect(page.locator('#messages')).toContainText('"tool_use"');

  // SPARQL over the RDF view: the default query lists claims with valid support.
  await page.getByRole('tab', { name: 'SPARQL' }).click();
  await page.locator('#sparql-run').click();
  await ready(page);
  await expect(page.locator('#sparql-summary')).toContainText('rows at epoch 11');
  await expect(page.locator('#sparql-results tbody tr').first()).toContainText('claim');
  await page.locator('#sparql-query').fill('SELECT ?x WHERE { ?x');
  await page.locator('#sparql-run').click();
  await ready(page);
  await expect(page.locator('#sparql-results')).toContainText('INVALID_QUERY');

  // Retrieval, with example queries derived from the trace.
  await expect(page.locator('#examples .chip')).not.toHaveCount(0);
  await page.locator('#examples .chip').first().click();
  await ready(page);
  await expect(page.locator('#retrieval .verdict')).toContainText('RmdxMotor.read status 2');
  // Every channel the library scores has its bar, the temporal one included.
  await expect(page.locator('#retrieval .evidence li').first().locator('.channel')).toHaveText([
    /^exact/,
    /^lexical/,
    /^vector/,
    /^graph/,
    /^temporal/,
  ]);

  // Stored in OPFS: a reload restores instead of committing again; a dropped transcript replaces it.
  await page.reload();
  await ready(page);
  await expect(page.locator('#status')).toContainText('restored 12 transactions · OPFS');
  await page.locator('#file').setInputFiles(FIXTURE);
  await ready(page);
  await expect(page.locator('#source')).toContainText('mini-swe-agent.traj.json (mini-swe-agent');
  await expectConsistent(page);
});

test('a shared SWE-agent trajectory: detected, drawn, scrubbed', async ({ page }, info) => {
  test.skip(!existsSync(SHARED), 'no ../shared/data (a user clone): the shared trajectory is not there');
  // The smallest .traj keeps the test short.
  const file = readdirSync(SHARED)
    .filter((f) => f.endsWith('.traj'))
    .map((f) => `${SHARED}${f}`)
    .sort((a, b) => statSync(a).size - statSync(b).size)[0];
  if (!file) throw new Error('no .traj in the shared data');
  await page.goto(`${EXPLORER_ORIGIN}/`);
  await ready(page);
  const bundledExamples = await page.locator('#examples .chip').allTextContents();
  await page.locator('#file').setInputFiles(file);
  await ready(page);
  await expect(page.locator('#source')).toContainText('(swe-agent:');
  const { s, g } = await expectConsistent(page);
  expect(g.nodes.length).toBeGreaterThan(s.items - 1);
  expect(g.nodes.some((n) => n.kind === 'tool_call')).toBe(true);
  // Example queries now come from this trace, not the bundled session.
  const examples = await page.locator('#examples .chip').allTextContents();
  expect(examples.length).toBeGreaterThan(0);
  expect(examples).not.toEqual(bundledExamples);
  const ticks = await page.locator('#timeline-strip .tick').count();
  expect(ticks).toBeGreaterThan(2);
  const middle = Math.floor(ticks / 2);
  await page.locator(`#timeline-strip .tick[data-epoch="${middle}"]`).click();
  await ready(page);
  const at = await expectConsistent(page);
  expect(at.s.epoch).toBe(middle);
  await expect(page.locator('#diff')).toContainText(`since epoch ${middle - 1}`);
  await page.screenshot({ path: info.outputPath('explorer-swe-agent.png'), fullPage: true });
});
