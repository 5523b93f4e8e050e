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
  type RetrievalResult,
  type RetrievedEvidence,
  type Transaction,
  type WorkingSet,
  type WorkingSetItem,
} from '../../src/entries/browser.js';
import { type RdfSource, readRdfSource } from '../../src/rdf/view.js';
import type { NodeRecord } from '../../src/schema/types.js';
import { TIERS } from '../../src/working-set/types.js';
import { RMDX_SESSION } from '../traces/rmdx-can-session.js';
import { type DrawnGraph, GraphView } from './graph-view.js';
import { SPARQL_EXAMPLES } from './sparql-examples.js';
import { adaptTranscript, type TranscriptFormat } from './transcripts.js';
import {
  budgetSegments,
  closureGraph,
  type EpochMarkers,
  epochMarkers,
  exampleQueries,
  explanationRows,
  filterRows,
  MARKERS,
  workingSetDiff,
} from './view-model.js';

const STORE = 'explorer';
const SOURCE_KEY = 'context-ledger-explorer:source';
const BUNDLED = 'bundled session: an agent fixing an RMD-X servo CAN driver';
/** Tier colours, highest priority first (the budget bar, its legend and the working-set list). */
const TIER_COLOURS = ['#2f5dd0', '#7c4dcc', '#d9822b', '#1f9e89', '#5aa02c', '#c2497a', '#8a93a3'];
const tierName = (tier: number | undefined): string => (tier === undefined ? '–' : (TIERS[tier] ?? String(tier)));

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
      const ws = await ledger.materialize({ epoch, budget: { tokens } });
      const previous = epoch > 0 ? await ledger.materialize({ epoch: epoch - 1, budget: { tokens } }) : null;
      const source = await readRdfSource(ledger, epoch);
      const query = queryInput.value.trim();
      const found = query ? await ledger.retrieve({ text: query, epoch }) : null;
      if (ticket !== wanted) return;
      const records = new Map<string, NodeRecord>();
      for (const n of [...source.nodes, ...source.superseded]) records.set(n.id, n);
      shown = { ws, source, records };
      $('graph').textContent =
        `${source.nodes.length} nodes valid at epoch ${epoch}, ${source.superseded.length} superseded before it`;
      drawTimeline(epoch);
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

/** The budget as a bar: one segment per tier, as wide as its share of the budget; the rest is free. */
function drawBudget(ws: WorkingSet): void {
  $('ws-summary').textContent =
    `${ws.items.length} items · ${ws.tokens} of ${ws.budget.tokens} tokens · epoch ${ws.epoch}` +
    (ws.graphTruncated ? ' · closure bound reached' : '');
  const budget = Math.max(ws.budget.tokens, 1);
  const segments = budgetSegments(ws.items);
  const free = Math.max(0, ws.budget.tokens - ws.tokens);
  $('budget-bar').replaceChildren(
    ...segments.map((s) =>
      h(
        'div',
        {
          class: 'segment',
          'data-tier': tierName(s.tier),
          'data-tokens': String(s.tokens),
          style: `width:${(100 * s.tokens) / budget}%;background:${TIER_COLOURS[s.tier] ?? '#999'}`,
          title: `${tierName(s.tier)}: ${s.tokens} tokens in ${s.items} items`,
        },
        s.tokens / budget > 0.06 ? `${s.tokens}` : '',
      ),
    ),
    h(
      'div',
      {
        class: 'segment free',
        'data-tier': 'free',
        'data-tokens': String(free),
        style: `width:${(100 * free) / budget}%`,
      },
      free / budget > 0.06 ? `${free} free` : '',
    ),
  );
  $('budget-legend').replaceChildren(
    ...segments.map((s) =>
      h(
        'span',
        {},
        h('i', { class: 'swatch', style: `background:${TIER_COLOURS[s.tier] ?? '#999'}` }),
        `${tierName(s.tier)} ${s.tokens}`,
      ),
    ),
  );
}

const MARKER_TITLES: Record<(typeof MARKERS)[number], string> = {
  commit: 'commits',
  revision: 'file revisions',
  verifier: 'verifier outcomes',
  supersession: 'supersessions',
  contradiction: 'contradictions',
};

/** One column per epoch with a dot per kind of event; the chosen epoch is highlighted. */
function drawTimeline(epoch: number): void {
  if (!history) return;
  const strip = $('timeline-strip');
  if (strip.childElementCount !== history.markers.length) {
    strip.replaceChildren(
      ...history.markers.map((m) =>
        h(
          'div',
          {
            class: 'tick',
            'data-epoch': String(m.epoch),
            title:
              `epoch ${m.epoch}: ` +
              MARKERS.filter((k) => m[k] > 0)
                .map((k) => `${m[k]} ${MARKER_TITLES[k]}`)
                .join(', ') +
              (m.failed > 0 ? ` (${m.failed} failed)` : ''),
          },
          ...MARKERS.filter((k) => m[k] > 0).map((k) =>
            h('i', { class: `m ${k}${k === 'verifier' && m.failed > 0 ? ' failed' : ''}` }),
          ),
        ),
      ),
    );
    $('timeline-legend').replaceChildren(
      ...MARKERS.map((k) => h('span', {}, h('i', { class: `m ${k}` }), MARKER_TITLES[k])),
    );
  }
  for (const tick of strip.children)
    tick.classList.toggle('current', (tick as HTMLElement).dataset.epoch === String(epoch));
}

function chips(ids: readonly string[], cls: string): Node[] {
  const MAX = 14;
  const out: Node[] = ids.slice(0, MAX).map((id) => h('code', { class: `chip ${cls}` }, id));
  if (ids.length > MAX) out.push(h('span', { class: 'muted' }, ` +${ids.length - MAX} more`));
  return out;
}

function drawDiff(epoch: number, previous: WorkingSet | null, ws: WorkingSet): void {
  if (!previous) {
    $('diff').replaceChildren(h('span', { class: 'muted' }, `epoch 0: ${ws.items.length} items in the working set`));
    return;
  }
  const { entered, left } = workingSetDiff(previous.items, ws.items);
  $('diff').replaceChildren(
    h('span', { class: 'muted' }, `since epoch ${epoch - 1}: `),
    h(
      'b',
      { id: 'diff-entered', 'data-count': String(entered.length), class: 'entered' },
      `+${entered.length} entered`,
    ),
    ' ',
    ...chips(entered, 'entered'),
    ' ',
    h('b', { id: 'diff-left', 'data-count': String(left.length), class: 'left' }, `−${left.length} left`),
    ' ',
    ...chips(left, 'left'),
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
    const ms = Math.round(performance.now() - started);
    const box = $('sparql-results');
    if (result.type === 'boolean') {
      $('sparql-summary').textContent = `ASK at epoch ${epoch} in ${ms} ms`;
      box.replaceChildren(h('p', { class: 'verdict' }, String(result.value)));
    } else {
      const rows =
        result.type === 'bindings'
          ? result.rows.map((r) => result.variables.map((v) => r[v]?.value ?? ''))
          : result.quads.map((q) => [q.subject.value, q.predicate.value, q.object.value]);
      const head = result.type === 'bindings' ? result.variables : ['subject', 'predicate', 'object'];
      $('sparql-summary').textContent = `${rows.length} rows at epoch ${epoch} in ${ms} ms`;
      box.replaceChildren(
        h(
          'table',
          { class: 'sparql' },
          h('thead', {}, h('tr', {}, ...head.map((v) => h('th', {}, v)))),
          h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((v) => h('td', {}, h('code', {}, shorten(v))))))),
        ),
      );
    }
    setState('ready');
  } catch (e) {
    $('sparql-summary').textContent = '';
    $('sparql-results').replaceChildren(h('p', { class: 'verdict abstain' }, `⚠ ${(e as Error).message}`));
    setState('ready');
  }
}

/** Node IRIs back to ids, vocabulary IRIs to prefixed names: the table stays readable. */
function shorten(value: string): string {
  if (value.startsWith('urn:context-ledger:node:')) return decodeURIComponent(value.slice(24));
  return value
    .replace('https://w3id.org/context-ledger/vocab#', 'cl:')
    .replace('http://www.w3.org/ns/prov#', 'prov:')
    .replace('http://www.w3.org/1999/02/22-rdf-syntax-ns#', 'rdf:');
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
