import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import type { DrawnGraph } from '../../demo/explorer/graph-view.js';
import { EXPLORER_ORIGIN } from './pages.js';

/**
 * The trace explorer driven as a person would, at 1440×900: every assertion is about what the
 * page shows. Screenshots of each state land in test-results/e2e/<test>/.
 */

/** A real shared trajectory of 436 records (MIT, see e2e/fixtures/README.md). */
const TRAJECTORY = fileURLToPath(new URL('../fixtures/sympy__sympy-13031.traj.json', import.meta.url));
const SMALL = fileURLToPath(new URL('../../test/fixtures/transcripts/mini-swe-agent.traj.json', import.meta.url));

declare global {
  interface Window {
    explorerGraph?: () => DrawnGraph;
    explorerCell?: (epoch: number, id: string) => { x: number; y: number } | null;
  }
}

test.use({ viewport: { width: 1440, height: 900 } });

const ready = (page: Page) => expect(page.locator('body')).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
const tab = (page: Page, name: string) => page.getByRole('tab', { name }).click();
const shot = (page: Page, path: string) => page.screenshot({ path });

/** Drops a file on the drop zone the way a browser delivers it (a DataTransfer with a File). */
async function dropFile(page: Page, path: string, name: string): Promise<void> {
  const b64 = readFileSync(path).toString('base64');
  const data = await page.evaluateHandle(
    ({ b64, name }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type: 'application/json' }));
      return dt;
    },
    { b64, name },
  );
  await page.locator('#drop-zone').dispatchEvent('dragover', { dataTransfer: data });
  await expect(page.locator('#drop-overlay')).toBeVisible();
  await page.locator('#drop-zone').dispatchEvent('drop', { dataTransfer: data });
}

/** The page never grows past the viewport: every panel scrolls inside it. */
async function expectViewportHigh(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeLessThanOrEqual(900);
}

test('the bundled session: the conversation at a step, presets, scrubbing, SPARQL and a reload', async ({
  page,
}, info) => {
  await page.goto(`${EXPLORER_ORIGIN}/`);
  await ready(page);
  await expect(page.locator('#source')).toContainText('bundled session');
  // The default view is the conversation: role-labelled messages with labelled parts.
  await expect(page.getByRole('tab', { name: 'Conversation' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#conversation .msg header').first()).toContainText('user');
  await expect(page.locator('#conversation .msg.assistant').first()).toBeVisible();
  // Each part names its item, tier and tokens.
  await expect(page.locator('#conversation .part-label').first()).toHaveText(/^\S+ \w+ · [a-z-]+ · \d+ tok/);
  await expect(page.locator('#conversation .part-label[data-id="task:rmdx"]')).toHaveText(
    /task:rmdx task · steering-and-tasks · \d+ tok/,
  );
  // The step list is numbered, one row per step.
  await expect(page.locator('#steps li')).toHaveCount(12);
  await expect(page.locator('#steps li').nth(5).locator('.n')).toHaveText('5');
  await expect(page.locator('#steps li.current .n')).toHaveText('11');
  await expectViewportHigh(page);
  await shot(page, info.outputPath('bundled-conversation.png'));

  // A preset budget: the budget bar and the summary follow it.
  await page.getByRole('button', { name: '4k', exact: true }).click();
  await ready(page);
  await expect(page.locator('#ws-summary')).toContainText('of 4000 tokens');
  await expect(page.getByRole('button', { name: '4k', exact: true })).toHaveAttribute('aria-pressed', 'true');

  // A small budget leaves records out: grey stubs say how big they are, their rank and the room.
  await page.locator('#budget').fill('300');
  await page.locator('#budget').press('Enter');
  await ready(page);
  await expect(page.locator('#ws-summary')).toContainText('of 300 tokens');
  const stub = page.locator('#conversation .stub').first();
  await expect(stub).toHaveText(/^✗ \S+ · \d+ tok( · rank \d+ of \d+)? · needs \d+, \d+ free$/);

  // Clicking a step in the list moves to it; the step's diff names what entered.
  await page.locator('#steps li[data-epoch="5"]').click();
  await ready(page);
  await expect(page.locator('#epoch-value')).toHaveText('step 5 of 11');
  await expect(page.locator('#steps li.current .n')).toHaveText('5');
  await shot(page, info.outputPath('bundled-step-5.png'));

  // SPARQL: the superseded-records query lists as many rows as the graph's legend counts.
  await page.locator('#steps li[data-epoch="11"]').click();
  await ready(page);
  await tab(page, 'Graph');
  const superseded = Number(await page.locator('#graph-legend').getAttribute('data-superseded'));
  expect(superseded).toBeGreaterThan(0);
  await tab(page, 'SPARQL');
  await page.getByRole('button', { name: 'superseded records' }).click();
  await ready(page);
  await expect(page.locator('#sparql-summary')).toContainText(`${superseded} rows at epoch 11`);
  await page.locator('#sparql-query').fill('SELECT ?x WHERE { ?x');
  await page.locator('#sparql-run').click();
  await ready(page);
  await expect(page.locator('#sparql-results')).toContainText('INVALID_QUERY');

  // The request as sent, in both shapes.
  await page.getByRole('button', { name: '4k', exact: true }).click();
  await ready(page);
  await tab(page, 'Request JSON');
  await expect(page.locator('#messages')).toContainText('"tool_calls"');
  await page.locator('#shape').selectOption('anthropic');
  await expect(page.locator('#messages')).toContainText('"tool_use"');

  // Stored: a reload restores the ledger instead of committing again.
  await expect(page.locator('#status')).toContainText('saved (OPFS)');
  await page.reload();
  await ready(page);
  await expect(page.locator('#status')).toContainText('restored 12 transactions from OPFS');
  await expect(page.locator('#source')).toContainText('bundled session');
});

test('a real 436-record trajectory: drop it, read step N, see why a record is out, matrix, cost, graph, retrieve', async ({
  page,
}, info) => {
  // Every step's working set is computed in the background for the matrix and the cost chart:
  // about a minute on two idle cores, several on a loaded machine.
  test.setTimeout(600_000);
  await page.goto(`${EXPLORER_ORIGIN}/`);
  await ready(page);

  // Drop the file on the page: it loads, and says how long loading and drawing took.
  await dropFile(page, TRAJECTORY, 'sympy__sympy-13031.traj.json');
  await expect(page.locator('#source')).toContainText('sympy__sympy-13031.traj.json (mini-swe-agent: 115 steps');
  await ready(page);
  await expect(page.locator('#status')).toContainText('436 records · loaded and drawn in');
  info.annotations.push({ type: 'load', description: (await page.locator('#status').textContent()) ?? '' });
  // The budget defaults from the trace (not 1,000 for every trace), and is one of the presets.
  await expect(page.locator('[aria-pressed="true"]')).toHaveText('8k');
  await expect(page.locator('#steps li')).toHaveCount(116);
  // The adapter's warnings are listed, each linking to its step.
  await expect(page.locator('#warnings')).toHaveText('⚠ 2 adapter warnings');
  await expect(page.locator('#warning-list li')).toHaveCount(2);
  await expect(page.locator('#warning-list li').first()).toContainText('step 103: format error');
  await expectViewportHigh(page);
  await shot(page, info.outputPath('trajectory-loaded.png'));

  // Select step 60 in the list and read the conversation: commands and outputs keep their lines.
  await page.locator('#steps li[data-epoch="60"]').click();
  await ready(page);
  await expect(page.locator('#epoch-value')).toHaveText('step 60 of 115');
  const toolOutput = page.locator('#conversation .block.tool_result pre.code').first();
  await expect(toolOutput).toBeVisible();
  expect(((await toolOutput.textContent()) ?? '').split('\n').length).toBeGreaterThan(1);
  await expect(page.locator('#conversation')).not.toContainText('\\n');
  const call = page.locator('#conversation .block.tool_use').first();
  await expect(call.locator('.block-kind')).toHaveText(/tool call: /);
  await expect(call.locator('.part-label')).toHaveText(/call:\d+ tool_call · \S+ · \d+ tok/);
  await shot(page, info.outputPath('trajectory-step-60.png'));

  // Click a record the budget left out: the drawer, on screen, says why, with size and room.
  const stub = page.locator('#conversation .stub').first();
  await expect(stub).toHaveText(/^✗ \S+ · \d+ tok · rank \d+ of \d+ · needs \d+, \d+ free$/);
  const stubId = ((await stub.textContent()) ?? '').split(' ')[1] ?? '';
  await stub.click();
  const drawer = page.locator('#node-details');
  await expect(drawer.locator('.title code')).toHaveText(stubId);
  await expect(drawer.locator('.why')).toHaveText(/^Out: budget \(.+\) — tier \d .* · rank \d+ of \d+ in its tier/);
  await expect(drawer.locator('.why')).toContainText('free');
  // The reason names its tier once (no "budget (recent history) (recent-history)").
  const why = (await drawer.locator('.why').textContent()) ?? '';
  expect(why).not.toMatch(/\(([a-z ]+)\) \(\1\)/);
  expect(why).not.toMatch(/\(recent history\) \(recent-history\)/);
  const box = await drawer.boundingBox();
  expect(box && box.y + 40).toBeLessThan(900);
  // Selected everywhere: the stub is marked, and the explanation table's row too.
  await expect(page.locator(`#conversation .stub.selected[data-id="${stubId}"]`)).toBeVisible();
  await tab(page, 'Why in, why out');
  await expect(page.locator(`#explanation-rows .vrow.selected[data-id="${stubId}"]`)).toBeVisible();
  // The table is virtualised: it holds every row but draws only the rows in view.
  const [shownRows, total] = await Promise.all([
    page.locator('#explanation-rows .vrow').count(),
    page.locator('#explanation-count').textContent(),
  ]);
  const all = Number(/of (\d+) rows/.exec(total ?? '')?.[1]);
  expect(all).toBeGreaterThan(shownRows);
  await expectViewportHigh(page);
  await shot(page, info.outputPath('trajectory-why-out.png'));

  // The presence matrix: computed for every step, and a click sets both the step and the record.
  await tab(page, 'Presence');
  await expect(page.locator('body')).toHaveAttribute('data-sweep', 'done', { timeout: 240_000 });
  await expect(page.locator('#matrix-summary')).toContainText('436 records × 116 steps');
  const canvas = await page.locator('#matrix').boundingBox();
  expect(canvas && canvas.y + canvas.height).toBeLessThanOrEqual(900);
  const cell = await page.evaluate(() => window.explorerCell?.(90, 'act:80'));
  if (!cell || !canvas) throw new Error('no matrix cell for act:80 at step 90');
  await page.mouse.click(canvas.x + cell.x, canvas.y + cell.y);
  await ready(page);
  await expect(page.locator('#epoch-value')).toHaveText('step 90 of 115');
  await expect(page.locator('#node-details .title code')).toHaveText('act:80');
  await shot(page, info.outputPath('trajectory-presence.png'));

  // What each request cost: totals against a recency window, a bar per step.
  await tab(page, 'Cost');
  await expect(page.locator('#cost-summary')).toContainText('116 of 116 steps computed');
  await expect(page.locator('#cost-summary .total.ledger')).toHaveText(/ledger working sets: [\d,]+ token-equivalents/);
  await expect(page.locator('#cost-summary .total.window')).toHaveText(/recency window .*: [\d,]+ token-equivalents/);
  await expect(page.locator('#cost-ratio')).toHaveText(/costs \d+\.\d\d× the recency window's/);
  await expect(page.locator('#cost-chart .col')).toHaveCount(116);
  await expect(page.locator('#cost-chart .col i.cached').first()).toBeAttached();
  await shot(page, info.outputPath('trajectory-cost.png'));

  // The graph: above 200 nodes it shows the selection's neighbourhood, with lane headers.
  await tab(page, 'Graph');
  await expect(page.locator('#graph-notice')).toContainText("showing the selection's neighbourhood");
  await expect(page.locator('#lane-headers span').first()).toBeVisible();
  let g = (await page.evaluate(() => window.explorerGraph?.())) as DrawnGraph;
  expect(g.nodes.some((n) => n.id === 'act:80')).toBe(true);
  expect(g.nodes.length).toBeLessThan(30);
  // Zoom in, scrub to another step: the zoom stays.
  const graphBox = await page.locator('#graph-canvas').boundingBox();
  if (!graphBox) throw new Error('no graph canvas');
  await page.mouse.move(graphBox.x + graphBox.width / 2, graphBox.y + graphBox.height / 2);
  await page.mouse.wheel(0, -400);
  const zoomed = ((await page.evaluate(() => window.explorerGraph?.())) as DrawnGraph).zoom;
  await page.locator('#steps li[data-epoch="91"]').click();
  await ready(page);
  g = (await page.evaluate(() => window.explorerGraph?.())) as DrawnGraph;
  expect(g.zoom).toBeCloseTo(zoomed, 5);
  await shot(page, info.outputPath('trajectory-graph.png'));

  // Retrieve: results with a snippet of their text, and a link that selects the record.
  await tab(page, 'Retrieve');
  await page.locator('#query').fill('hstack zero rows sparse matrix');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await ready(page);
  await expect(page.locator('#retrieval .verdict')).toContainText('hstack zero rows sparse matrix');
  const hit = page.locator('#retrieval .evidence li').first();
  await expect(hit.locator('pre.snippet')).not.toBeEmpty();
  const hitId = (await hit.locator('button.link').textContent()) ?? '';
  await hit.locator('button.link').click();
  await expect(page.locator('#node-details .title code')).toHaveText(hitId);
  await shot(page, info.outputPath('trajectory-retrieve.png'));
});

test('a file chosen with the drop zone replaces the trace; a wrong file is refused', async ({ page }, info) => {
  await page.goto(`${EXPLORER_ORIGIN}/`);
  await ready(page);
  await page.locator('#file').setInputFiles(SMALL);
  await ready(page);
  await expect(page.locator('#source')).toContainText('mini-swe-agent.traj.json (mini-swe-agent');
  await expect(page.locator('#conversation .msg').first()).toBeVisible();
  await page
    .locator('#file')
    .setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":1}') });
  await expect(page.locator('#status')).toContainText('notes.json: not a transcript');
  await shot(page, info.outputPath('wrong-file.png'));
});
