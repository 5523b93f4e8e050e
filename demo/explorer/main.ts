/**
 * The trace explorer: commits the bundled RMD-X session (or a dropped transcript) into a ledger,
 * keeps it in OPFS, and answers for any step and token budget what the model saw (the request
 * as a conversation), why each record is in or out, what the request cost with a prompt cache,
 * and how the working set churned (the presence matrix); plus the closure graph, retrieval and
 * SPARQL. Selecting a record anywhere selects it everywhere. `document.body.dataset.state` is
 * `ready` whenever the page shows the current controls' answer (the e2e suite waits on it);
 * `dataset.sweep` is `done` once every step's working set and cost is computed.
 */
import {
  browserStorage,
  deleteBrowserStorage,
  type Ledger,
  openLedger,
  type Transaction,
  type WorkingSet,
} from '../../src/entries/browser.js';
import { type RdfSource, readRdfSource } from '../../src/rdf/view.js';
import type { NodeRecord } from '../../src/schema/types.js';
import { TIERS } from '../../src/working-set/types.js';
import { RMDX_SESSION } from '../traces/rmdx-can-session.js';
import { drawBudget } from './budget-view.js';
import { conversation, placeStubs } from './conversation-model.js';
import { type ConversationRow, drawConversation, type Stub } from './conversation-view.js';
import { drawCost } from './cost-view.js';
import { drawDiff } from './diff-view.js';
import { $, h, TIER_COLOURS, tierName, where } from './dom.js';
import { ExplanationTable } from './explanation-view.js';
import { type DrawnGraph, GraphView } from './graph-view.js';
import { CELL_LEGEND, MatrixView } from './matrix-view.js';
import { type PresenceRow, presenceCells, presenceRows } from './presence-model.js';
import { type CostBlock, type RequestCost, recencyWindow, requestCosts } from './request-cost.js';
import { drawRetrieval } from './retrieval-view.js';
import { SPARQL_EXAMPLES } from './sparql-examples.js';
import { drawSparqlError, drawSparqlResult } from './sparql-view.js';
import { drawStepCosts, drawSteps, markStep } from './steps-view.js';
import { adaptTranscript, type TranscriptFormat } from './transcripts.js';
import {
  closureGraph,
  epochMarkers,
  exampleQueries,
  explanationRows,
  filterRows,
  neighbourhood,
  stepLabels,
} from './view-model.js';
import {
  BUDGET_PRESETS,
  budgetLabel,
  byBudget,
  defaultBudget,
  droppedCurrentAction,
  stubText,
  tierRanks,
  unitNeeds,
  whyText,
} from './why-text.js';

const STORE = 'explorer';
const SOURCE_KEY = 'context-ledger-explorer:source';
const WARNINGS_KEY = 'context-ledger-explorer:warnings';
const BUNDLED = 'bundled session: an agent fixing an RMD-X servo CAN driver';
/** Above this many nodes the graph opens on the selection's neighbourhood (the matrix shows the whole). */
const GRAPH_WHOLE_MAX = 200;
const LOG_KINDS = new Set(['action', 'tool_call', 'tool_result']);

const epochInput = $<HTMLInputElement>('epoch');
const budgetInput = $<HTMLInputElement>('budget');
const queryInput = $<HTMLInputElement>('query');
const retrieveButton = $<HTMLButtonElement>('retrieve');

interface Trace {
  ledger: Ledger;
  /** Names this load (graph fit, sweep), unique within the page. */
  key: string;
  /** Every version the history holds (a source at the last epoch). */
  history: RdfSource;
  /** The newest version of each record across the history. */
  records: Map<string, NodeRecord>;
  rows: PresenceRow[];
  warnings: Array<{ step: number; reason: string }>;
}

interface Shown {
  epoch: number;
  ws: WorkingSet;
  source: RdfSource;
  ranks: Map<string, { rank: number; of: number }>;
  needs: Map<string, number>;
  free: number;
}

/** Every step's working set and request at one budget, filled in the background. */
interface Sweep {
  key: string;
  budget: number;
  included: Array<Set<string> | undefined>;
  blocks: Array<CostBlock[] | undefined>;
  windows: CostBlock[][];
}

let trace: Trace | null = null;
let shown: Shown | null = null;
let sweep: Sweep | null = null;
let selected: string | null = null;
let loads = 0;
/** Ledger calls queue here so a slow answer never overwrites a newer one. */
let queue: Promise<unknown> = Promise.resolve();
let wanted = 0;
/** Foreground refreshes waiting or running: the background sweep yields to them. */
let foreground = 0;

const graph = new GraphView($('graph-canvas'), $('lane-headers'), (id) => select(id));
const matrix = new MatrixView($<HTMLCanvasElement>('matrix'), $('matrix-hover'), (epoch, id) => {
  selected = id;
  setEpoch(epoch);
});
const table = new ExplanationTable($('explanation-scroll'), $('explanation-rows'), (id) => select(id));

function setState(state: 'loading' | 'busy' | 'ready' | 'error', message?: string): void {
  document.body.dataset.state = state;
  if (message !== undefined) $('status').textContent = message;
}

/** The header line is cut to its width: the whole text stays readable on hover. */
new MutationObserver(() => {
  $('status').title = $('status').textContent ?? '';
  $('source').title = $('source').textContent ?? '';
}).observe($('status').parentElement!, { subtree: true, childList: true, characterData: true });

function enable(on: boolean): void {
  for (const el of [epochInput, budgetInput, queryInput, retrieveButton]) el.disabled = !on;
  for (const b of document.querySelectorAll<HTMLButtonElement>('#budget-presets button')) b.disabled = !on;
}

/**
 * Loads a trace. With `transactions` it commits them into a fresh in-memory ledger on the page's
 * one DuckDB instance and stores a snapshot in OPFS after the first render (appending 100+ log
 * records one by one cost seconds); without, it restores the stored ledger, or commits the
 * bundled session into an empty one.
 */
async function load(
  transactions: readonly Transaction[] | null,
  label: string,
  warnings: Array<{ step: number; reason: string }>,
): Promise<void> {
  enable(false);
  const started = performance.now();
  setState('loading', 'Starting DuckDB and tiktoken…');
  await queue;
  await trace?.ledger.close();
  trace = null;
  shown = null;
  sweep = null;
  selected = null;
  let ledger: Ledger;
  let note: string;
  let persist = false;
  if (transactions === null) {
    const storage = await browserStorage(STORE);
    ledger = await openLedger({ storage }).catch(async (e: unknown) => {
      await storage.close();
      throw e;
    });
    note = `restored ${ledger.lastTx} transactions from ${storage.kind === 'opfs' ? 'OPFS' : 'IndexedDB'}`;
    if (ledger.lastTx === 0) {
      await ledger.close();
      return load(RMDX_SESSION, BUNDLED, []);
    }
    label = localStorage.getItem(SOURCE_KEY) ?? label;
    warnings = JSON.parse(localStorage.getItem(WARNINGS_KEY) ?? '[]') as typeof warnings;
  } else {
    ledger = await openLedger();
    const opened = performance.now();
    for (const [i, tx] of transactions.entries()) {
      if (i % 10 === 0) setState('loading', `Committing transaction ${i + 1} of ${transactions.length}…`);
      await ledger.commit(tx);
    }
    note = `committed ${transactions.length} transactions in ${Math.round(performance.now() - opened)} ms`;
    persist = true;
  }
  const history = await readRdfSource(ledger, ledger.lastEpoch);
  const all = [...history.superseded, ...history.nodes];
  const records = new Map<string, NodeRecord>();
  for (const n of all) records.set(n.id, n);
  trace = { ledger, key: `trace-${++loads}`, history, records, rows: presenceRows(all), warnings };
  $('source').textContent = label;
  drawWarnings();
  const total = history.nodes.reduce((s, n) => s + n.tokens, 0);
  setBudget(defaultBudget(total));
  epochInput.max = String(ledger.lastEpoch);
  epochInput.value = String(ledger.lastEpoch);
  drawSteps(stepLabels(all, ledger.lastEpoch), epochMarkers(history, ledger.lastEpoch));
  drawExamples(exampleQueries(all));
  $('matrix-summary').textContent = `${trace.rows.length} records × ${ledger.lastEpoch + 1} steps`;
  enable(true);
  await refresh();
  const ms = Math.round(performance.now() - started);
  document.body.dataset.loadMs = String(ms);
  $('status').textContent =
    `${note} · ${trace.history.nodes.length + trace.history.superseded.length} records · loaded and drawn in ${ms} ms`;
  if (persist) {
    localStorage.setItem(SOURCE_KEY, label);
    localStorage.setItem(WARNINGS_KEY, JSON.stringify(warnings));
    void store(ledger);
  }
  void runSweep();
}

/** Writes the ledger's snapshot as the stored one (a reload restores it). */
async function store(ledger: Ledger): Promise<void> {
  const done = queue.then(async () => {
    if (trace?.ledger !== ledger) return;
    const bytes = await ledger.snapshot();
    await deleteBrowserStorage(STORE);
    const storage = await browserStorage(STORE);
    try {
      await storage.load();
      await storage.compact(bytes);
    } finally {
      await storage.close();
    }
    document.body.dataset.stored = trace?.key ?? '';
    $('status').textContent += ` · saved (${storage.kind === 'opfs' ? 'OPFS' : 'IndexedDB'})`;
  });
  queue = done.catch(() => undefined);
  await done.catch((e: unknown) => {
    $('status').textContent += ` · not saved: ${(e as Error).message}`;
  });
}

function setBudget(tokens: number): void {
  budgetInput.value = String(tokens);
  for (const b of document.querySelectorAll<HTMLButtonElement>('#budget-presets button'))
    b.setAttribute('aria-pressed', String(Number(b.dataset.tokens) === tokens));
}

/** Redraws for the current controls; only the newest request is drawn. */
function refresh(): Promise<void> {
  const ticket = ++wanted;
  foreground++;
  setState('busy');
  const run = queue.then(async () => {
    const current = trace;
    if (ticket !== wanted || !current) return;
    const { ledger } = current;
    const epoch = Number(epochInput.value);
    const tokens = Number(budgetInput.value);
    $('epoch-value').textContent = `step ${epoch} of ${ledger.lastEpoch}`;
    try {
      // The explorer looks at one epoch at a time: the one-shot ranking of that moment.
      const ws = await ledger.materialize({ mode: 'fresh', epoch, budget: { tokens } });
      const source = epoch === ledger.lastEpoch ? current.history : await readRdfSource(ledger, epoch);
      if (ticket !== wanted) return;
      const tokensById = new Map(source.nodes.map((n) => [n.id, n.tokens]));
      const moved = shown?.epoch !== epoch;
      shown = {
        epoch,
        ws,
        source,
        ranks: tierRanks(ws.explanation),
        needs: unitNeeds(ws.explanation, (id) => tokensById.get(id)),
        free: Math.max(0, ws.budget.tokens - ws.tokens),
      };
      if (selected && !current.records.has(selected)) selected = null;
      markStep(epoch);
      const previous = epoch > 0 && sweep?.budget === tokens ? sweep.included[epoch - 1] : undefined;
      drawDiff(epoch, previous ? [...previous].map((id) => ({ id })) : null, ws);
      drawBudget(ws);
      drawAll();
      // A new step opens at its end: the current action and what it saw last.
      if (moved && !selected) {
        const box = $('conversation-tab');
        box.scrollTop = box.scrollHeight;
      }
      setState('ready');
    } catch (e) {
      if (ticket === wanted) setState('ready', `⚠ ${(e as Error).message}`);
    }
  });
  const settled = run.finally(() => {
    foreground--;
  });
  queue = settled.catch(() => undefined);
  return settled;
}

/** Redraws every view from `shown` and the selection (no ledger call). */
function drawAll(): void {
  drawConversationTab();
  drawGraph();
  drawExplanation();
  drawMatrix();
  drawCostTab();
  drawMessages();
  drawDetails();
}

function select(id: string | null): void {
  selected = id;
  drawConversationTab();
  drawGraph();
  drawExplanation();
  if (id) table.reveal(id);
  matrix.cursor(Number(epochInput.value), selected);
  drawDetails();
  const part = id ? document.querySelector<HTMLElement>(`#conversation [data-id="${CSS.escape(id)}"]`) : null;
  part?.scrollIntoView({ block: 'nearest' });
}

function setEpoch(epoch: number): void {
  if (!trace) return;
  const e = Math.max(0, Math.min(trace.ledger.lastEpoch, epoch));
  epochInput.value = String(e);
  void refresh();
}

function drawConversationTab(): void {
  if (!shown) return;
  const { ws, source, ranks, needs, free } = shown;
  const messages = conversation(ws.items, ws.toMessages('anthropic'));
  const txOf = new Map(source.nodes.map((n) => [n.id, n]));
  const stubs: Stub[] = ws.explanation
    .filter((e) => !e.included && (byBudget(e) || e.code === 'unanswered-call'))
    .map((e) => {
      const rec = txOf.get(e.id);
      const tokens = rec?.tokens;
      const rank = ranks.get(e.id);
      const need = needs.get(e.id);
      return {
        record: e,
        kind: rec?.kind ?? '',
        tx: rec?.tx ?? 0,
        text: stubText(e, {
          ...(tokens === undefined ? {} : { tokens }),
          ...(rank ? { rank } : {}),
          ...(need === undefined ? {} : { needs: need }),
          free,
        }),
      };
    });
  const rows: ConversationRow[] = placeStubs(messages, stubs);
  drawConversation($('conversation'), rows, selected, (id) => select(id));
  const dropped = droppedCurrentAction(ws.explanation);
  const warning = $('conversation-warning');
  warning.hidden = dropped.length === 0;
  if (dropped.length > 0) {
    const need = needs.get(dropped[0]!.id);
    const thought = dropped.every((d) => d.reason.includes('its thought'));
    warning.replaceChildren(
      `⚠ The current action${thought ? "'s thought" : ''} was left out: ${dropped.map((d) => d.id).join(', ')}`,
      need === undefined ? '.' : ` needs ${need} tokens, ${free} free.`,
      thought
        ? ' The model sees the command it is running but not why; a larger budget keeps it.'
        : ' The model would not see what it is doing now; a larger budget keeps it.',
    );
  }
  const other = ws.explanation.filter((e) => !e.included && !byBudget(e) && e.code !== 'unanswered-call');
  const superseded = other.filter((e) => /^(superseded|archived)/.test(e.reason)).length;
  $('conversation').append(
    h(
      'p',
      { class: 'muted foot' },
      `${ws.items.length} items in ${messages.length} messages · ${stubs.length} left out by the budget` +
        (superseded > 0 ? ` · ${superseded} superseded` : '') +
        (other.length - superseded > 0 ? ` · ${other.length - superseded} beyond the closure bound` : '') +
        ' (see “Why in, why out”)',
    ),
  );
}

function drawGraph(): void {
  if (!shown || !trace) return;
  const whole = closureGraph(shown.ws.explanation, shown.source);
  const near = $<HTMLInputElement>('neighbourhood').checked;
  const big = whole.nodes.length > GRAPH_WHOLE_MAX;
  const notice = $('graph-notice');
  let { nodes, edges } = whole;
  if ((near || big) && selected && nodes.some((n) => n.id === selected)) {
    ({ nodes, edges } = neighbourhood(whole.nodes, whole.edges, selected));
    notice.hidden = !big || near;
    notice.textContent = `${whole.nodes.length} nodes: showing the selection's neighbourhood (the Presence tab shows every record).`;
  } else if (big && !graphWhole) {
    nodes = [];
    edges = [];
    notice.hidden = false;
    notice.replaceChildren(
      `${whole.nodes.length} nodes is more than a graph shows legibly: `,
      openTabButton('matrix-tab', 'open the presence matrix'),
      ', select a record to see its neighbourhood here, or ',
      drawWholeButton(),
      '.',
    );
  } else notice.hidden = true;
  graph.draw(
    nodes,
    edges,
    whole.lanes,
    selected,
    `${trace.key}:${nodes.length === whole.nodes.length ? 'all' : 'part'}`,
  );
  const count = (state: string) => whole.nodes.filter((n) => n.state === state).length;
  const legend = $('graph-legend');
  legend.dataset.included = String(count('included'));
  legend.dataset.excluded = String(count('excluded'));
  legend.dataset.superseded = String(count('superseded'));
  legend.dataset.edges = String(whole.edges.length);
  const hubs = whole.edges.filter((e) => e.hub).length;
  legend.replaceChildren(
    h('span', {}, h('i', { class: 'dot included' }), `${count('included')} included`),
    h('span', {}, h('i', { class: 'dot excluded' }), `${count('excluded')} left out`),
    h('span', {}, h('i', { class: 'dot superseded' }), `${count('superseded')} superseded`),
    h('span', {}, h('i', { class: 'line supersedes' }), 'supersedes'),
    h('span', {}, h('i', { class: 'line contradicts' }), 'contradicts'),
    h('span', { class: 'muted' }, `${whole.edges.length} edges (${hubs} of the task, shown when selected)`),
  );
  $('graph').textContent =
    `${shown.source.nodes.length} records valid at step ${shown.epoch}, ${shown.source.superseded.length} superseded before it · one row per step, lanes by kind`;
}

/** A button in a notice that switches to another tab. */
function openTabButton(id: string, label: string): HTMLElement {
  const b = h('button', { type: 'button' }, label);
  b.addEventListener('click', () => document.querySelector<HTMLButtonElement>(`[role=tab][data-tab="${id}"]`)?.click());
  return b;
}

let graphWhole = false;
function drawWholeButton(): HTMLElement {
  const b = h('button', { type: 'button' }, 'draw all of them');
  b.addEventListener('click', () => {
    graphWhole = true;
    drawGraph();
  });
  return b;
}

function drawExplanation(): void {
  if (!shown) return;
  const rows = explanationRows(shown.ws.explanation);
  const side = $<HTMLSelectElement>('explanation-side').value as 'all' | 'in' | 'out';
  const visible = filterRows(rows, $<HTMLInputElement>('explanation-filter').value, side, tierName);
  $('explanation-count').textContent = `${visible.length} of ${rows.length} rows`;
  const tokens = new Map(shown.source.nodes.map((n) => [n.id, n.tokens]));
  table.set(
    visible.map((record) => {
      const t = tokens.get(record.id);
      const rank = shown?.ranks.get(record.id);
      return { record, ...(t === undefined ? {} : { tokens: t }), ...(rank ? { rank } : {}) };
    }),
    selected,
  );
}

function drawMatrix(): void {
  if (!trace) return;
  const epochs = trace.ledger.lastEpoch + 1;
  const budget = Number(budgetInput.value);
  const included = sweep?.budget === budget ? sweep.included : [];
  if (shown && shown.ws.budget.tokens === budget) {
    const at = [...included];
    at[shown.epoch] = new Set(shown.ws.items.map((i) => i.id));
    matrix.set(trace.rows, presenceCells(trace.rows, epochs, at), epochs);
  } else matrix.set(trace.rows, presenceCells(trace.rows, epochs, included), epochs);
  matrix.cursor(Number(epochInput.value), selected);
}

function costsOf(s: Sweep): { ledger: Array<RequestCost | undefined>; window: Array<RequestCost | undefined> } {
  const n = s.windows.length;
  const known = s.blocks.indexOf(undefined);
  const upto = known < 0 ? n : known;
  const requests = (list: ReadonlyArray<CostBlock[] | undefined>) =>
    list.slice(0, upto).map((blocks, epoch) => ({ epoch, blocks: blocks ?? [] }));
  const pad = (c: RequestCost[]) => [...c, ...Array<undefined>(n - c.length).fill(undefined)];
  return { ledger: pad(requestCosts(requests(s.blocks))), window: pad(requestCosts(requests(s.windows))) };
}

function drawCostTab(): void {
  if (!trace) return;
  const epochs = trace.ledger.lastEpoch + 1;
  const s = sweep?.budget === Number(budgetInput.value) ? sweep : null;
  const { ledger, window } = s
    ? costsOf(s)
    : { ledger: Array<undefined>(epochs).fill(undefined), window: Array<undefined>(epochs).fill(undefined) };
  drawCost(ledger, window, Number(epochInput.value), Number(budgetInput.value), setEpoch);
  drawStepCosts(ledger);
}

/**
 * Materializes every step at the current budget, one queued turn at a time and only while no
 * foreground refresh waits, filling the presence matrix, the cost chart and the step bars.
 */
async function runSweep(): Promise<void> {
  const current = trace;
  if (!current) return;
  const budget = Number(budgetInput.value);
  if (sweep?.key === current.key && sweep.budget === budget) return;
  const epochs = current.ledger.lastEpoch + 1;
  const s: Sweep = {
    key: current.key,
    budget,
    included: Array<undefined>(epochs).fill(undefined),
    blocks: Array<undefined>(epochs).fill(undefined),
    windows: windowsOf(current, budget),
  };
  sweep = s;
  document.body.dataset.sweep = 'running';
  let lastDraw = performance.now();
  for (let epoch = 0; epoch < epochs; epoch++) {
    while (foreground > 0) await queue;
    if (sweep !== s || trace !== current) return;
    const step = queue.then(async () => {
      if (sweep !== s || trace !== current) return;
      const ws = await current.ledger.materialize({ mode: 'fresh', epoch, budget: { tokens: budget } });
      s.included[epoch] = new Set(ws.items.map((i) => i.id));
      s.blocks[epoch] = conversation(ws.items, ws.toMessages('anthropic')).flatMap((m) =>
        m.blocks.map((b) => ({ key: b.key, tokens: b.tokens })),
      );
    });
    queue = step.catch(() => undefined);
    await step.catch(() => undefined);
    if (shown && shown.epoch === epoch + 1 && shown.ws.budget.tokens === budget && s.included[epoch])
      drawDiff(
        shown.epoch,
        [...s.included[epoch]!].map((id) => ({ id })),
        shown.ws,
      );
    $('matrix-summary').textContent =
      `${current.rows.length} records × ${epochs} steps · working sets computed for ${epoch + 1} of ${epochs} steps`;
    if (performance.now() - lastDraw > 400 || epoch === epochs - 1) {
      lastDraw = performance.now();
      drawMatrix();
      drawCostTab();
    }
  }
  if (sweep === s) {
    document.body.dataset.sweep = 'done';
    if (shown && shown.epoch > 0) {
      const previous = s.included[shown.epoch - 1];
      if (previous)
        drawDiff(
          shown.epoch,
          [...previous].map((id) => ({ id })),
          shown.ws,
        );
    }
  }
}

/** The recency window's request at every step (pure: from the history's records). */
function windowsOf(t: Trace, budget: number): CostBlock[][] {
  const all = [...t.history.nodes, ...t.history.superseded];
  return Array.from({ length: t.ledger.lastEpoch + 1 }, (_, epoch) =>
    recencyWindow(
      all
        .filter(
          (n) =>
            n.validFrom <= epoch &&
            (n.validTo === undefined || n.validTo > epoch) &&
            (n.kind === 'task' || LOG_KINDS.has(n.kind)),
        )
        .map((n) => ({ id: n.id, tokens: n.tokens, tx: n.tx, pinned: n.kind === 'task' })),
      budget,
    ),
  );
}

function drawMessages(): void {
  if (!shown) return;
  const shape = $<HTMLSelectElement>('shape').value === 'anthropic' ? 'anthropic' : 'openai';
  const messages = shape === 'openai' ? shown.ws.toMessages('openai') : shown.ws.toMessages('anthropic');
  $('messages-summary').textContent = `${messages.length} messages · the request body as sent`;
  $('messages').textContent = JSON.stringify(messages, null, 2);
}

function drawWarnings(): void {
  const button = $<HTMLButtonElement>('warnings');
  const n = trace?.warnings.length ?? 0;
  button.hidden = n === 0;
  button.textContent = `⚠ ${n} adapter warning${n === 1 ? '' : 's'}`;
}

function drawDetails(): void {
  const box = $('node-details');
  const rec = selected
    ? (shown?.source.nodes.find((n) => n.id === selected) ?? trace?.records.get(selected))
    : undefined;
  if (!rec || !selected || !shown || !trace) {
    box.className = 'muted';
    box.replaceChildren(...traceSummary());
    return;
  }
  const why = shown.ws.explanation.find((e) => e.id === selected);
  const rank = shown.ranks.get(selected);
  const need = shown.needs.get(selected);
  const valid = rec.validFrom <= shown.epoch && (rec.validTo === undefined || rec.validTo > shown.epoch);
  const item = shown.ws.items.find((i) => i.id === selected);
  box.className = 'details';
  box.replaceChildren(
    h(
      'div',
      { class: 'title' },
      h('span', { class: 'kind' }, rec.kind),
      ' ',
      h('code', {}, rec.id),
      rec.status ? h('span', { class: `status ${rec.status}` }, rec.status) : '',
    ),
    rec.path ? h('div', { class: 'where' }, where(rec)) : '',
    h(
      'p',
      { class: `why ${why?.included ? 'in' : 'out'}` },
      why
        ? whyText(
            why,
            {
              tokens: rec.tokens,
              ...(rank ? { rank } : {}),
              ...(need === undefined ? {} : { needs: need }),
              free: shown.free,
            },
            (t) => TIERS[t] ?? String(t),
          )
        : valid
          ? `Not reached by the closure at step ${shown.epoch}.`
          : rec.validFrom > shown.epoch
            ? `Not recorded yet at step ${shown.epoch} (recorded at step ${rec.validFrom}).`
            : `Superseded before step ${shown.epoch}.`,
    ),
    h(
      'p',
      { class: 'muted' },
      `tx ${rec.tx} · valid from step ${rec.validFrom}${rec.validTo === undefined ? '' : ` to ${rec.validTo}`} · ${rec.tokens} tokens` +
        (item?.excerpt ? ` · in as an excerpt of ${item.excerpt.lines.length} line runs of ${item.excerpt.of}` : ''),
    ),
    neighbours(rec.id),
    rec.body !== undefined ? h('pre', { class: 'body' }, rec.body) : h('p', { class: 'muted' }, 'no body'),
  );
  if (why?.tier !== undefined)
    box
      .querySelector('.title')
      ?.prepend(h('i', { class: 'swatch', style: `background:${TIER_COLOURS[why.tier] ?? '#999'}` }));
}

/** Links to the records this one is connected to (a click selects them). */
function neighbours(id: string): HTMLElement | string {
  if (!shown) return '';
  const links = shown.source.edges.filter((e) => e.from === id || e.to === id).slice(0, 40);
  if (links.length === 0) return '';
  return h(
    'div',
    { class: 'links' },
    ...links.map((e) => {
      const other = e.from === id ? e.to : e.from;
      const b = h(
        'button',
        { type: 'button', class: 'link', 'data-id': other },
        `${e.from === id ? '→' : '←'} ${e.kind} ${other}`,
      );
      b.addEventListener('click', () => select(other));
      return b;
    }),
  );
}

/** The drawer with nothing selected: the trace, and the adapter's warnings. */
function traceSummary(): Node[] {
  if (!trace) return [h('p', {}, 'Loading…')];
  const out: Node[] = [
    h('h2', {}, 'This trace'),
    h('p', {}, $('source').textContent ?? ''),
    h(
      'p',
      { class: 'muted' },
      'Pick a step on the left; click any record (a conversation part, a stub, a table row, a matrix cell, a graph node) to see why it is in or out.',
    ),
  ];
  if (trace.warnings.length > 0)
    out.push(
      h('h3', {}, `Adapter warnings (${trace.warnings.length})`),
      h(
        'ul',
        { id: 'warning-list', class: 'warning-list' },
        ...trace.warnings.map((w) => {
          const b = h('button', { type: 'button', class: 'link' }, `step ${w.step}`);
          b.addEventListener('click', () => setEpoch(w.step));
          return h('li', {}, b, `: ${w.reason}`);
        }),
      ),
    );
  return out;
}

function drawExamples(queries: readonly string[]): void {
  $('examples').replaceChildren(
    ...queries.map((q) => {
      const b = h('button', { type: 'button', class: 'chip', title: q }, q);
      b.addEventListener('click', () => {
        queryInput.value = q;
        void retrieve();
      });
      return b;
    }),
  );
}

async function retrieve(): Promise<void> {
  const current = trace;
  const query = queryInput.value.trim();
  if (!current || !query) return;
  const epoch = Number(epochInput.value);
  setState('busy');
  const run = queue.then(() => current.ledger.retrieve({ text: query, epoch }));
  queue = run.catch(() => undefined);
  try {
    drawRetrieval(await run, query, epoch, (id) => select(id));
  } catch (e) {
    $('retrieval').replaceChildren(h('p', { class: 'verdict abstain' }, `⚠ ${(e as Error).message}`));
  }
  setState('ready');
}

async function loadFile(file: File): Promise<void> {
  // Not ready from the first moment: a reader (or the e2e suite) must not take the old trace's
  // page for the new one while the file is read and adapted.
  enable(false);
  setState('loading', `Reading ${file.name}…`);
  try {
    const format = $<HTMLSelectElement>('format').value as TranscriptFormat | 'auto';
    const adapted = adaptTranscript(JSON.parse(await file.text()), format);
    const { steps, commands, warnings } = adapted.stats;
    graphWhole = false;
    await load(
      adapted.transactions,
      `${file.name} (${adapted.format}: ${steps} steps, ${commands} commands)`,
      warnings,
    );
  } catch (e) {
    setState('error', `⚠ ${file.name}: ${(e as Error).message}`);
    enable(trace !== null);
  }
}

$('budget-presets').replaceChildren(
  ...BUDGET_PRESETS.map((tokens) => {
    const b = h(
      'button',
      { type: 'button', 'data-tokens': String(tokens), 'aria-pressed': 'false' },
      budgetLabel(tokens),
    );
    b.addEventListener('click', () => {
      setBudget(tokens);
      void refresh().then(runSweep);
    });
    return b;
  }),
);
epochInput.addEventListener('input', () => void refresh());
budgetInput.addEventListener('change', () => {
  setBudget(Number(budgetInput.value));
  void refresh().then(runSweep);
});
$('steps').addEventListener('click', (e) => {
  const li = (e.target as HTMLElement).closest<HTMLElement>('li[data-epoch]');
  if (li) setEpoch(Number(li.dataset.epoch));
});
/** Up and down step through the trace, unless a field has the keys. */
document.addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  if ((e.target as HTMLElement).closest('input, textarea, select, .tab')) return;
  e.preventDefault();
  setEpoch(Number(epochInput.value) + (e.key === 'ArrowDown' ? 1 : -1));
});
$('retrieve-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void retrieve();
});
$('explanation-filter').addEventListener('input', () => drawExplanation());
$('explanation-side').addEventListener('change', () => drawExplanation());
$('shape').addEventListener('change', () => drawMessages());
$('neighbourhood').addEventListener('change', () => drawGraph());
$('graph-fit').addEventListener('click', () => graph.fit());
$('warnings').addEventListener('click', () => select(null));
new ResizeObserver(() => matrix.draw()).observe($('matrix-box'));

for (const tab of document.querySelectorAll<HTMLButtonElement>('[role=tab]'))
  tab.addEventListener('click', () => {
    for (const t of document.querySelectorAll<HTMLButtonElement>('[role=tab]')) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      $(t.dataset.tab ?? '').hidden = !on;
    }
    if (tab.dataset.tab === 'graph-tab') graph.shown();
    if (tab.dataset.tab === 'matrix-tab') matrix.draw();
    // A hidden table has no height to scroll in: the selection is revealed once it shows.
    if (tab.dataset.tab === 'explanation-tab' && selected) table.reveal(selected);
  });

$('matrix-legend').replaceChildren(
  ...CELL_LEGEND.map(([label, colour]) =>
    h('span', {}, h('i', { class: 'swatch cell', style: `background:${colour}` }), label),
  ),
);

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
  const current = trace;
  if (!current) return;
  const epoch = Number(epochInput.value);
  setState('busy');
  $('sparql-summary').textContent = 'running…';
  const started = performance.now();
  try {
    const { sparql } = await import('../../src/rdf/sparql.js');
    const run = queue.then(() => sparql(current.ledger, sparqlQuery.value, { epoch }));
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
    /** For the e2e suite: where a presence cell is drawn, in CSS pixels from the canvas's corner. */
    explorerCell?: (epoch: number, id: string) => { x: number; y: number } | null;
  }
}
window.explorerGraph = () => graph.drawn();
window.explorerCell = (epoch, id) => matrix.cellCentre(epoch, id);

$('reset').addEventListener('click', () => {
  graphWhole = false;
  void load(RMDX_SESSION, BUNDLED, []).catch(fail);
});
$<HTMLInputElement>('file').addEventListener('change', (e) => {
  const file = (e.target as HTMLInputElement).files?.[0];
  if (file) void loadFile(file);
});
const overlay = $('drop-overlay');
document.addEventListener('dragover', (e) => {
  e.preventDefault();
  overlay.hidden = false;
});
document.addEventListener('dragleave', (e) => {
  if (e.relatedTarget === null) overlay.hidden = true;
});
document.addEventListener('drop', (e) => {
  e.preventDefault();
  overlay.hidden = true;
  const file = e.dataTransfer?.files[0];
  if (file) void loadFile(file);
});

function fail(e: unknown): void {
  setState('error', `⚠ ${(e as Error).message}`);
}

load(null, BUNDLED, []).catch(fail);
