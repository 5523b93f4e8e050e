/**
 * The trace explorer: commits the bundled RMD-X session (or a dropped transcript) into a ledger
 * kept in OPFS, then shows, for any epoch and token budget, the working set the ledger would
 * hand the model, why each candidate is in or out, and what retrieval finds for a question.
 * `document.body.dataset.state` is `ready` whenever the page shows the current controls' answer
 * (the e2e suite waits on it).
 */
import {
  browserStorage,
  deleteBrowserStorage,
  type Ledger,
  openLedger,
  type RetrievalResult,
  type RetrievedEvidence,
  type Transaction,
  type WorkingSet,
  type WorkingSetItem,
} from '../../src/entries/browser.js';
import { TIERS } from '../../src/working-set/types.js';
import { RMDX_SESSION } from '../traces/rmdx-can-session.js';
import { adaptTranscript, type TranscriptFormat } from './transcripts.js';

const STORE = 'explorer';
const SOURCE_KEY = 'context-ledger-explorer:source';
const BUNDLED = 'bundled session: an agent fixing an RMD-X servo CAN driver';
const EXAMPLES = ['speed decoded as signed int16', 'reply identifier', 'firmware update over bluetooth'];

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const epochInput = $<HTMLInputElement>('epoch');
const budgetInput = $<HTMLInputElement>('budget');
const queryInput = $<HTMLInputElement>('query');
const retrieveButton = $<HTMLButtonElement>('retrieve');

/** Builds an element; text goes in as text, never as HTML (transcripts are untrusted). */
function h(tag: string, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

let ledger: Ledger | null = null;
/** Items the reader expanded, kept open across redraws. */
const expanded = new Set<string>();
/** Ledger calls queue here so a slow answer never overwrites a newer one. */
let queue: Promise<unknown> = Promise.resolve();
let wanted = 0;

function setState(state: 'loading' | 'busy' | 'ready' | 'error', message?: string): void {
  document.body.dataset.state = state;
  if (message !== undefined) $('status').textContent = message;
}

function enable(on: boolean): void {
  for (const el of [epochInput, budgetInput, queryInput, retrieveButton]) el.disabled = !on;
}

/** Opens the stored ledger; an empty one gets `transactions` (default: the bundled session). */
async function start(transactions: readonly Transaction[] = RMDX_SESSION, label = BUNDLED): Promise<void> {
  enable(false);
  setState('loading', 'Loading DuckDB and tiktoken…');
  const started = performance.now();
  const storage = await browserStorage(STORE);
  ledger = await openLedger({ storage }).catch(async (e: unknown) => {
    await storage.close();
    throw e;
  });
  const opened = performance.now() - started;
  let note: string;
  if (ledger.lastTx === 0) {
    for (const [i, tx] of transactions.entries()) {
      setState('loading', `Committing transaction ${i + 1} of ${transactions.length}…`);
      await ledger.commit(tx);
    }
    localStorage.setItem(SOURCE_KEY, label);
    note = `committed ${transactions.length} transactions`;
  } else {
    note = `restored ${ledger.lastTx} transactions`;
  }
  $('source').textContent = localStorage.getItem(SOURCE_KEY) ?? label;
  $('status').textContent =
    `${note} · ${storage.kind === 'opfs' ? 'OPFS' : 'IndexedDB'} · ledger open in ${Math.round(opened)} ms`;
  epochInput.max = String(ledger.lastEpoch);
  epochInput.value = String(ledger.lastEpoch);
  enable(true);
  await refresh();
}

/** Replaces the stored ledger with `transactions` (or the bundled session). */
async function replace(transactions?: readonly Transaction[], label?: string): Promise<void> {
  enable(false);
  setState('loading', 'Deleting the stored ledger…');
  await queue;
  await ledger?.close();
  ledger = null;
  await deleteBrowserStorage(STORE);
  localStorage.removeItem(SOURCE_KEY);
  await start(transactions, label);
}

/** Redraws for the current controls; only the newest request is drawn. */
function refresh(): Promise<void> {
  const ticket = ++wanted;
  setState('busy');
  const run = queue.then(async () => {
    if (ticket !== wanted || !ledger) return;
    const epoch = Number(epochInput.value);
    const tokens = Number(budgetInput.value);
    $('epoch-value').textContent = `${epoch} of ${ledger.lastEpoch}`;
    try {
      const [ws, view] = [await ledger.materialize({ epoch, budget: { tokens } }), await ledger.asOf(epoch)];
      const query = queryInput.value.trim();
      const found = query ? await ledger.retrieve({ text: query, epoch }) : null;
      if (ticket !== wanted) return;
      $('graph').textContent = `${view.nodes.length} nodes and ${view.edges.length} edges valid at epoch ${epoch}`;
      drawWorkingSet(ws);
      drawExplanation(ws);
      drawRetrieval(found, query, epoch);
      setState('ready');
    } catch (e) {
      if (ticket === wanted) setState('ready', `⚠ ${(e as Error).message}`);
    }
  });
  queue = run.catch(() => undefined);
  return run;
}

function where(item: { path?: string; range?: readonly [number, number]; revision?: string }): string {
  if (!item.path) return '';
  const range = item.range ? `:${item.range[0]}–${item.range[1]}` : '';
  return `${item.path}${range}${item.revision ? ` @${item.revision}` : ''}`;
}

function itemView(item: WorkingSetItem): HTMLElement {
  const summary = h(
    'summary',
    {},
    h('span', { class: 'kind' }, item.kind),
    ' ',
    h('code', {}, item.id),
    item.status ? h('span', { class: `status ${item.status}` }, item.status) : '',
    h('span', { class: 'where' }, where(item)),
    h('span', { class: 'tokens' }, `${item.tokens} tok`),
  );
  const body =
    item.body !== undefined ? h('pre', {}, item.body) : h('p', { class: 'muted' }, `same body as ${item.ref}`);
  const details = h('details', { class: 'item' }, summary, body) as HTMLDetailsElement;
  details.open = expanded.has(item.id);
  details.addEventListener('toggle', () => (details.open ? expanded.add(item.id) : expanded.delete(item.id)));
  return details;
}

function drawWorkingSet(ws: WorkingSet): void {
  $('ws-summary').textContent =
    `${ws.items.length} items · ${ws.tokens} of ${ws.budget.tokens} tokens · epoch ${ws.epoch}` +
    (ws.graphTruncated ? ' · closure bound reached' : '');
  const tiers = TIERS.map((name, tier) => ({ name, items: ws.items.filter((i) => i.tier === tier) })).filter(
    (t) => t.items.length > 0,
  );
  $('tiers').replaceChildren(
    ...tiers.map(({ name, items }) =>
      h(
        'div',
        { class: 'tier' },
        h('h3', {}, name, h('span', { class: 'muted' }, ` ${items.reduce((s, i) => s + i.tokens, 0)} tok`)),
        ...items.map(itemView),
      ),
    ),
    ...(tiers.length === 0 ? [h('p', { class: 'muted' }, 'Nothing fits this budget.')] : []),
  );
}

function drawExplanation(ws: WorkingSet): void {
  $('explanation-rows').replaceChildren(
    ...ws.explanation.map((e) =>
      h(
        'tr',
        { class: e.included ? 'in' : 'out' },
        h('td', { title: e.included ? 'included' : 'left out' }, e.included ? '✓' : '✗'),
        h('td', {}, h('code', {}, e.id)),
        h('td', {}, e.tier === undefined ? '–' : (TIERS[e.tier] ?? String(e.tier))),
        h('td', {}, e.reason),
      ),
    ),
  );
}

const CHANNELS = ['exact', 'lexical', 'vector', 'graph'] as const;
/** Results shown before the rest fold away. */
const SHOWN = 6;

/** Channel scores live on different scales (BM25 is unbounded), so each bar is relative to its channel's best. */
type ChannelBest = Record<(typeof CHANNELS)[number], number>;

function evidenceView(e: RetrievedEvidence, best: ChannelBest): HTMLElement {
  const bars = h(
    'div',
    { class: 'channels' },
    ...CHANNELS.map((c) =>
      h(
        'span',
        { class: 'channel', title: `${c} channel score (bar: relative to the best ${c} score here)` },
        c,
        h('meter', { min: '0', max: '1', value: String(best[c] > 0 ? e.channels[c] / best[c] : 0) }),
        e.channels[c].toFixed(3),
      ),
    ),
  );
  return h(
    'li',
    {},
    h('div', {}, h('b', {}, e.score.toFixed(3)), ' ', h('span', { class: 'kind' }, e.kind), ' ', h('code', {}, e.id)),
    h('div', { class: 'where' }, where(e)),
    bars,
  );
}

/** A ranked list: the first few, then the rest behind a toggle. */
function rankedList(list: readonly RetrievedEvidence[]): HTMLElement {
  const best = Object.fromEntries(
    CHANNELS.map((c) => [c, Math.max(0, ...list.map((e) => e.channels[c]))]),
  ) as ChannelBest;
  const top = h('ol', { class: 'evidence' }, ...list.slice(0, SHOWN).map((e) => evidenceView(e, best)));
  if (list.length <= SHOWN) return top;
  const rest = h(
    'ol',
    { class: 'evidence', start: String(SHOWN + 1) },
    ...list.slice(SHOWN).map((e) => evidenceView(e, best)),
  );
  return h('div', {}, top, h('details', {}, h('summary', {}, `${list.length - SHOWN} more`), rest));
}

function drawRetrieval(result: RetrievalResult | null, query: string, epoch: number): void {
  const box = $('retrieval');
  if (!result) {
    box.replaceChildren();
    return;
  }
  const verdict = result.status === 'supported' ? 'supported' : 'abstains';
  const sign = result.support >= result.threshold ? '≥' : '<';
  const parts: Node[] = [
    h(
      'p',
      { class: `verdict ${result.status}` },
      `“${query}” at epoch ${epoch}: ${verdict} (support ${result.support.toFixed(2)} ${sign} ${result.threshold})`,
    ),
  ];
  if (result.status === 'supported') {
    parts.push(rankedList(result.evidence));
  } else {
    parts.push(
      h('h3', {}, 'Missing evidence'),
      h(
        'ul',
        { class: 'missing' },
        ...result.missing.map((m) =>
          h(
            'li',
            {},
            m.claim ? `claim ${m.claim}` : where(m) || 'evidence',
            h('span', { class: 'muted' }, ` — ${m.reason}`),
          ),
        ),
      ),
    );
    if (result.partial.length > 0) parts.push(h('h3', {}, 'Best partial support'), rankedList(result.partial));
  }
  if (result.contradictions.length > 0)
    parts.push(
      h(
        'p',
        { class: 'muted' },
        `contradictions: ${result.contradictions.map((c) => `${c.from} ⟂ ${c.to}`).join(', ')}`,
      ),
    );
  box.replaceChildren(...parts);
}

async function loadFile(file: File): Promise<void> {
  try {
    const format = $<HTMLSelectElement>('format').value as TranscriptFormat | 'auto';
    const trace = adaptTranscript(JSON.parse(await file.text()), format);
    const { steps, commands, warnings } = trace.stats;
    await replace(
      trace.transactions,
      `${file.name} (${trace.format}: ${steps} steps, ${commands} commands, ${warnings.length} warnings)`,
    );
  } catch (e) {
    setState('error', `⚠ ${file.name}: ${(e as Error).message}`);
    enable(ledger !== null);
  }
}

epochInput.addEventListener('input', () => void refresh());
budgetInput.addEventListener('input', () => void refresh());
$('retrieve-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void refresh();
});
$('examples').append(
  ...EXAMPLES.map((q) => {
    const b = h('button', { type: 'button', class: 'chip' }, q);
    b.addEventListener('click', () => {
      queryInput.value = q;
      void refresh();
    });
    return b;
  }),
);
$('reset').addEventListener('click', () => void replace().catch(fail));
$<HTMLInputElement>('file').addEventListener('change', (e) => {
  const file = (e.target as HTMLInputElement).files?.[0];
  if (file) void loadFile(file);
});
document.addEventListener('dragover', (e) => e.preventDefault());
document.addEventListener('drop', (e) => {
  e.preventDefault();
  const file = e.dataTransfer?.files[0];
  if (file) void loadFile(file);
});

function fail(e: unknown): void {
  setState('error', `⚠ ${(e as Error).message}`);
}

start().catch(fail);
