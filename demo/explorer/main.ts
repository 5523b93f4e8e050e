/**
 * The trace explorer: commits the bundled RMD-X session (or a dropped transcript) into a ledger
 * kept in OPFS, then shows, for any epoch and token budget, the closure graph, a timeline of
 * what happened, the budget by tier, the working set the ledger would hand the model (and its
 * rendered messages), why each candidate is in or out, retrieval, and SPARQL over the RDF view.
 * `document.body.dataset.state` is `ready` whenever the page shows the current controls' answer
 * (the e2e suite waits on it).
 */
import {
  browserStorage,
  deleteBrowserStorage,
  type Ledger,
  openLedger,
  type Transaction,
  type WorkingSet,
  type WorkingSetItem,
} from '../../src/entries/browser.js';
import { type RdfSource, readRdfSource } from '../../src/rdf/view.js';
import type { NodeRecord } from '../../src/schema/types.js';
import { TIERS } from '../../src/working-set/types.js';
import { RMDX_SESSION } from '../traces/rmdx-can-session.js';
import { drawBudget } from './budget-view.js';
import { $, h, TIER_COLOURS, tierName, where } from './dom.js';
import { type DrawnGraph, GraphView } from './graph-view.js';
import { drawRetrieval } from './retrieval-view.js';
import { SPARQL_EXAMPLES } from './sparql-examples.js';
import { drawSparqlError, drawSparqlResult } from './sparql-view.js';
import { drawDiff, drawTimeline } from './timeline-view.js';
import { adaptTranscript, type TranscriptFormat } from './transcripts.js';
import {
  closureGraph,
  type EpochMarkers,
  epochMarkers,
  exampleQueries,
  explanationRows,
  filterRows,
} from './view-model.js';

const STORE = 'explorer';
const SOURCE_KEY = 'context-ledger-explorer:source';
const BUNDLED = 'bundled session: an agent fixing an RMD-X servo CAN driver';
const epochInput = $<HTMLInputElement>('epoch');
const budgetInput = $<HTMLInputElement>('budget');
const queryInput = $<HTMLInputElement>('query');
const retrieveButton = $<HTMLButtonElement>('retrieve');

let ledger: Ledger | null = null;
/** The whole history (a source at the last epoch): timeline markers and example queries. */
let history: { source: RdfSource; markers: EpochMarkers[] } | null = null;
/** What the page shows now, for the node details and the message preview. */
let shown: { ws: WorkingSet; source: RdfSource; records: Map<string, NodeRecord> } | null = null;
let selected: string | null = null;
const graph = new GraphView($('graph-canvas'), (id) => {
  selected = id;
  drawDetails();
});
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
  const source = await readRdfSource(ledger, ledger.lastEpoch);
  history = { source, markers: epochMarkers(source, ledger.lastEpoch) };
  drawExamples(exampleQueries([...source.nodes, ...source.superseded]));
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
  history = null;
  shown = null;
  selected = null;
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
      // The explorer looks at one epoch at a time: the one-shot ranking of that moment.
      const ws = await ledger.materialize({ mode: 'fresh', epoch, budget: { tokens } });
      const previous =
        epoch > 0 ? await ledger.materialize({ mode: 'fresh', epoch: epoch - 1, budget: { tokens } }) : null;
      const source = await readRdfSource(ledger, epoch);
      const query = queryInput.value.trim();
      const found = query ? await ledger.retrieve({ text: query, epoch }) : null;
      if (ticket !== wanted) return;
      const records = new Map<string, NodeRecord>();
      for (const n of [...source.nodes, ...source.superseded]) records.set(n.id, n);
      shown = { ws, source, records };
      $('graph').textContent =
        `${source.nodes.length} nodes valid at epoch ${epoch}, ${source.superseded.length} superseded before it`;
      if (history) drawTimeline(history.markers, epoch);
      drawDiff(epoch, previous, ws);
      drawBudget(ws);
      drawGraph(ws, source);
      drawWorkingSet(ws);
      drawMessages();
      drawExplanation();
      drawRetrieval(found, query, epoch);
      setState('ready');
    } catch (e) {
      if (ticket === wanted) setState('ready', `⚠ ${(e as Error).message}`);
    }
  });
  queue = run.catch(() => undefined);
  return run;
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
  const tiers = TIERS.map((name, tier) => ({ name, tier, items: ws.items.filter((i) => i.tier === tier) })).filter(
    (t) => t.items.length > 0,
  );
  $('tiers').replaceChildren(
    ...tiers.map(({ name, tier, items }) =>
      h(
        'div',
        { class: 'tier' },
        h(
          'h3',
          {},
          h('i', { class: 'swatch', style: `background:${TIER_COLOURS[tier]}` }),
          name,
          h('span', { class: 'muted' }, ` ${items.reduce((s, i) => s + i.tokens, 0)} tok`),
        ),
        ...items.map(itemView),
      ),
    ),
    ...(tiers.length === 0 ? [h('p', { class: 'muted' }, 'Nothing fits this budget.')] : []),
  );
}

function drawGraph(ws: WorkingSet, source: RdfSource): void {
  const { nodes, edges } = closureGraph(ws.explanation, source);
  if (selected && !nodes.some((n) => n.id === selected)) selected = null;
  graph.draw(nodes, edges, selected);
  const count = (state: string) => nodes.filter((n) => n.state === state).length;
  const legend = $('graph-legend');
  legend.dataset.included = String(count('included'));
  legend.dataset.excluded = String(count('excluded'));
  legend.dataset.superseded = String(count('superseded'));
  legend.dataset.edges = String(edges.length);
  legend.replaceChildren(
    h('span', {}, h('i', { class: 'dot included' }), `${count('included')} included`),
    h('span', {}, h('i', { class: 'dot excluded' }), `${count('excluded')} left out`),
    h('span', {}, h('i', { class: 'dot superseded' }), `${count('superseded')} superseded`),
    h('span', {}, h('i', { class: 'line supersedes' }), 'supersedes'),
    h('span', {}, h('i', { class: 'line contradicts' }), 'contradicts'),
    h('span', { class: 'muted' }, `${edges.length} edges · lanes by kind, time flows down`),
  );
  drawDetails();
}

function drawDetails(): void {
  const box = $('node-details');
  const rec = selected ? shown?.records.get(selected) : undefined;
  const why = selected ? shown?.ws.explanation.find((e) => e.id === selected) : undefined;
  if (!rec || !selected) {
    box.className = 'muted';
    box.replaceChildren('Click a node to see its body and why it is in or out.');
    return;
  }
  box.className = 'details';
  box.replaceChildren(
    h(
      'div',
      {},
      h('span', { class: 'kind' }, rec.kind),
      ' ',
      h('code', {}, rec.id),
      rec.status ? h('span', { class: `status ${rec.status}` }, rec.status) : '',
      ' ',
      h('span', { class: 'where' }, where(rec)),
    ),
    h(
      'p',
      { class: why?.included ? 'why in' : 'why out' },
      why
        ? `${why.included ? 'In' : 'Out'}: ${why.reason}${why.tier === undefined ? '' : ` (${tierName(why.tier)})`}`
        : '',
      ` · tx ${rec.tx}, valid from epoch ${rec.validFrom}${rec.validTo === undefined ? '' : ` to ${rec.validTo}`} · ${rec.tokens} tokens`,
    ),
    rec.body !== undefined ? h('pre', {}, rec.body) : h('p', { class: 'muted' }, 'no body'),
  );
}

function drawMessages(): void {
  if (!shown) return;
  const shape = $<HTMLSelectElement>('shape').value as 'openai' | 'anthropic';
  const messages = shape === 'openai' ? shown.ws.toMessages('openai') : shown.ws.toMessages('anthropic');
  $('messages-summary').textContent =
    `${messages.length} messages in the ${shape === 'openai' ? 'OpenAI' : 'Anthropic'} shape`;
  $('messages').textContent = JSON.stringify(messages, null, 2);
}

function drawExplanation(): void {
  if (!shown) return;
  const rows = explanationRows(shown.ws.explanation);
  const side = $<HTMLSelectElement>('explanation-side').value as 'all' | 'in' | 'out';
  const visible = filterRows(rows, $<HTMLInputElement>('explanation-filter').value, side, tierName);
  $('explanation-count').textContent = `${visible.length} of ${rows.length} rows`;
  $('explanation-rows').replaceChildren(
    ...visible.map((e) => {
      const row = h(
        'tr',
        { class: `${e.included ? 'in' : 'out'}${e.id === selected ? ' selected' : ''}` },
        h('td', { title: e.included ? 'included' : 'left out' }, e.included ? '✓' : '✗'),
        h('td', {}, h('code', {}, e.id)),
        h('td', {}, tierName(e.tier)),
        h('td', {}, e.reason),
      );
      row.addEventListener('click', () => {
        selected = e.id;
        if (shown) drawGraph(shown.ws, shown.source);
        drawExplanation();
      });
      return row;
    }),
  );
}

function drawExamples(queries: readonly string[]): void {
  $('examples').replaceChildren(
    ...queries.map((q) => {
      const b = h('button', { type: 'button', class: 'chip' }, q);
      b.addEventListener('click', () => {
        queryInput.value = q;
        void refresh();
      });
      return b;
    }),
  );
}

async function loadFile(file: File): Promise<void> {
  // Not ready from the first moment: a reader (or the e2e suite) must not take the old trace's
  // page for the new one while the file is read and adapted.
  enable(false);
  setState('loading', `Reading ${file.name}…`);
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
$('explanation-filter').addEventListener('input', () => drawExplanation());
$('explanation-side').addEventListener('change', () => drawExplanation());
$('shape').addEventListener('change', () => drawMessages());

/** Scrubbing: a press or a drag on the strip picks the epoch under the pointer. */
const strip = $('timeline-strip');
const scrubTo = (e: PointerEvent): void => {
  const tick = (e.target as HTMLElement).closest<HTMLElement>('.tick');
  if (!tick?.dataset.epoch || epochInput.disabled || epochInput.value === tick.dataset.epoch) return;
  epochInput.value = tick.dataset.epoch;
  void refresh();
};
strip.addEventListener('pointerdown', (e) => {
  strip.setPointerCapture(e.pointerId);
  scrubTo(e);
});
strip.addEventListener('pointermove', (e) => {
  if (!strip.hasPointerCapture(e.pointerId)) return;
  // Under capture the target is the strip itself: find the tick under the pointer.
  const under = document.elementFromPoint(e.clientX, strip.getBoundingClientRect().top + 4);
  if (under) scrubTo({ ...e, target: under } as unknown as PointerEvent);
});

for (const tab of document.querySelectorAll<HTMLButtonElement>('[role=tab]'))
  tab.addEventListener('click', () => {
    for (const t of document.querySelectorAll<HTMLButtonElement>('[role=tab]')) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      $(t.dataset.tab ?? '').hidden = !on;
    }
    if (tab.dataset.tab === 'graph-tab') graph.resize();
  });

/** SPARQL loads Comunica (a lazy chunk) only when the tab is used. */
const sparqlQuery = $<HTMLTextAreaElement>('sparql-query');
sparqlQuery.value = SPARQL_EXAMPLES[0]?.query ?? '';
$('sparql-examples').replaceChildren(
  ...SPARQL_EXAMPLES.map((x) => {
    const b = h('button', { type: 'button', class: 'chip' }, x.label);
    b.addEventListener('click', () => {
      sparqlQuery.value = x.query;
      void runSparql();
    });
    return b;
  }),
);
$('sparql-run').addEventListener('click', () => void runSparql());

async function runSparql(): Promise<void> {
  if (!ledger) return;
  const epoch = Number(epochInput.value);
  setState('busy');
  $('sparql-summary').textContent = 'running…';
  const started = performance.now();
  try {
    const { sparql } = await import('../../src/rdf/sparql.js');
    const current = ledger;
    const run = queue.then(() => sparql(current, sparqlQuery.value, { epoch }));
    queue = run.catch(() => undefined);
    const result = await run;
    drawSparqlResult(result, epoch, Math.round(performance.now() - started));
    setState('ready');
  } catch (e) {
    drawSparqlError(e);
    setState('ready');
  }
}

declare global {
  interface Window {
    /** For the e2e suite: what the graph canvas holds now. */
    explorerGraph?: () => DrawnGraph;
  }
}
window.explorerGraph = () => graph.drawn();

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
