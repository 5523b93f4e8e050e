/**
 * The replay report for people: Markdown tables (one per budget), the issue's targets, the
 * ledger's per-tier diagnosis, and a hand-written SVG of recall against budget. Pure and
 * deterministic (no clock): the same report renders byte-identically.
 */
import { TIERS } from '../../src/working-set/types.js';
import { MIN_GOLD_CHARS } from './metrics.js';
import {
  type BudgetSummary,
  type CostMethod,
  METHODS,
  type MethodName,
  type MethodSummary,
  type ReplayReport,
} from './types.js';

export interface Target {
  name: string;
  detail: string;
  met: boolean;
}

/** Issue 9's targets, for the budgets the run has: the ledger at or above every baseline at every
 * budget (all events and first edits, both golds); at 1k ≥ 1.5× recency, at 2k ≥ recency + 10
 * points; reach within 1 point of the ceiling on first edits. */
export function targets(report: ReplayReport): Target[] {
  const out: Target[] = [];
  const baselines = METHODS.filter((m) => m !== 'ledger');
  const views: Array<[string, (b: BudgetSummary) => Record<MethodName, MethodSummary>]> = [
    ['all events', (b) => b.methods],
    ['first edits', (b) => b.firstEdits],
    ['all events, edit pre-image gold', (b) => b.edit.all],
    ['first edits, edit pre-image gold', (b) => b.edit.firstEdits],
  ];
  for (const [name, pick] of views) {
    const short: string[] = [];
    for (const b of report.budgets) {
      const m = pick(b);
      const best = baselines.reduce((x, y) => (m[y].recall > m[x].recall ? y : x));
      if (m.ledger.recall < m[best].recall)
        short.push(`${b.budget}: ${pct(m.ledger.recall)} < ${LABEL[best]} ${pct(m[best].recall)}`);
    }
    out.push({
      name: `ledger ≥ every baseline at every budget (${name})`,
      detail: short.length === 0 ? 'yes at every budget' : short.join('; '),
      met: short.length === 0,
    });
  }
  const at = (b: number) => report.budgets.find((x) => x.budget === b)?.methods;
  const m1 = at(1000);
  if (m1) {
    const r = ratio(m1.ledger.recall, m1.recency.recall);
    out.push({
      name: 'at 1,000 tokens: ≥ 1.5× recency',
      detail: `${pct(m1.ledger.recall)} vs ${pct(m1.recency.recall)} (${times(r)})`,
      met: r >= 1.5,
    });
  }
  const m2 = at(2000);
  if (m2) {
    const gap = m2.ledger.recall - m2.recency.recall;
    out.push({
      name: 'at 2,000 tokens: ≥ recency + 10 points',
      detail: `${pct(m2.ledger.recall)} vs ${pct(m2.recency.recall)} (${gap >= 0 ? '+' : ''}${points(gap)})`,
      met: gap >= 0.1,
    });
  }
  const fe = report.firstEdits;
  out.push({
    name: 'reach within 1 point of the ceiling on first edits',
    detail: `reach ${pct(fe.reach)} vs ceiling ${pct(fe.ceiling)}`,
    met: fe.ceiling - fe.reach <= 0.01,
  });
  return out;
}

const LABEL: Record<MethodName, string> = {
  ledger: 'ledger',
  recency: 'recency',
  recencyPaired: 'recency, pairs kept',
  bm25: 'BM25 (task as query)',
  observationMasking: 'observation masking',
  compaction: 'compaction',
};

export function renderMarkdown(report: ReplayReport): string {
  const { trajectories: t, settings: s } = report;
  const lines: string[] = ['# Replay: evidence in context before each edit', ''];
  const skipped = t.skipped.length === 0 ? '' : `; ${t.skipped.length} skipped (see replay.json)`;
  lines.push(
    `- Trajectories: ${t.total} (${t.withEvents} with edit events${skipped}); events (steps that edit a file the final patch changes): ${report.events}.`,
    `- Gold lines: ${report.goldLines.usable} measured; ${report.goldLines.ignoredShort} blank or shorter than ${MIN_GOLD_CHARS} non-space characters ignored, in every method and the ceiling alike.`,
    `- Ceiling (gold lines some earlier message displayed): **${pct(report.ceiling)}** [${pct(report.ceilingCI[0])}, ${pct(report.ceilingCI[1])}].`,
    `- Ledger reach (its working set with no budget limit): ${pct(report.reach)}.`,
    `- Ledger: \`materialize({ budget })\` after committing the steps before the edit, with ${s.maxNodes === null && s.hops === null ? 'its default options (as a user calls it)' : `\`maxNodes\` ${s.maxNodes ?? 'default'}, \`hops\` ${s.hops ?? 'default'}`}; tokens in ${s.encoding}.`,
    '',
  );
  for (const b of report.budgets) {
    lines.push(`## ${b.budget.toLocaleString('en-US')} tokens`, '');
    lines.push('| method | recall [95% CI] | precision | tokens (mean) | pairs kept |', '|---|---:|---:|---:|---:|');
    for (const m of METHODS) {
      const r = b.methods[m];
      lines.push(
        `| ${LABEL[m]} | ${pct(r.recall)} [${pct(r.recallCI[0])}, ${pct(r.recallCI[1])}] | ${pct(r.precision, 2)} | ${Math.round(r.tokens).toLocaleString('en-US')} | ${pct(r.pairsKept, 0)} |`,
      );
    }
    lines.push('');
  }
  const ts = targets(report);
  if (ts.length > 0) {
    lines.push('## Targets', '', '| target | measured | met |', '|---|---|---|');
    for (const x of ts) lines.push(`| ${x.name} | ${x.detail} | ${x.met ? 'yes' : '**no**'} |`);
    lines.push('');
  }
  const fe = report.firstEdits;
  const table = (title: string, intro: string, pick: (b: BudgetSummary) => Record<MethodName, MethodSummary>) => {
    lines.push(
      `## ${title}`,
      '',
      intro,
      '',
      `| budget | ${METHODS.map((m) => LABEL[m]).join(' | ')} |`,
      `|---|${METHODS.map(() => '---:').join('|')}|`,
    );
    for (const b of report.budgets) {
      const cells = METHODS.map((m) => {
        const r = pick(b)[m];
        return `${pct(r.recall)} [${pct(r.recallCI[0])}, ${pct(r.recallCI[1])}]`;
      });
      lines.push(`| ${b.budget.toLocaleString('en-US')} | ${cells.join(' | ')} |`);
    }
    lines.push('');
  };
  table(
    'First edit of each file',
    `${fe.events} of the ${report.events} events are the first edit of their file (ceiling ${pct(fe.ceiling)}, ledger reach ${pct(fe.reach)}). Recall [95% CI]:`,
    (b) => b.firstEdits,
  );
  table(
    'Later edits',
    `${report.events - fe.events} events edit a file the agent already changed: some gold lines (text of the *original* file) were replaced by then, and only stale earlier output still shows them. The ledger drops the file ranges such output showed once an edit replaced them (superseded evidence) but keeps the output itself in its history, ranked by the file its command names. Recall [95% CI]:`,
    (b) => b.laterEdits,
  );
  const ed = report.edit;
  table(
    'Second gold: the lines the edit replaces, as they stand just before it',
    `For ${ed.events} events (${ed.firstEdits} first edits) the adapter knew the edit's exact pre-image (a line-addressed or substitution edit of viewed lines, a str_replace, a diff): gold = those ${report.goldLines.editUsable} lines as they stood before the edit — what the agent needed in view to make it. Ceiling ${pct(ed.ceiling)} (first edits ${pct(ed.firstCeiling)}), ledger reach ${pct(ed.reach)} (${pct(ed.firstReach)}). Recall [95% CI], all such events:`,
    (b) => b.edit.all,
  );
  table('Second gold, first edits', 'Recall [95% CI]:', (b) => b.edit.firstEdits);
  table('Second gold, later edits', 'Recall [95% CI]:', (b) => b.edit.laterEdits);
  lines.push(
    '',
    '## Ledger diagnosis',
    '',
    'Mean working-set tokens per tier, then the recall lost to the budget (points): gold lines the unlimited working set shows but this budget drops, by the tier of the item that carries them. `reach − recall` is their sum; `ceiling − reach` is lost before ranking (closure, supersession).',
    '',
    `| budget | ${TIERS.join(' | ')} |`,
    `|---|${TIERS.map(() => '---:').join('|')}|`,
  );
  for (const b of report.budgets) {
    lines.push(
      `| ${b.budget.toLocaleString('en-US')} tokens | ${TIERS.map((x) => Math.round(b.ledger.tokensByTier[x]).toLocaleString('en-US')).join(' | ')} |`,
    );
  }
  for (const b of report.budgets) {
    lines.push(
      `| ${b.budget.toLocaleString('en-US')}: recall lost | ${TIERS.map((x) => (100 * b.ledger.missedByTier[x]).toFixed(1)).join(' | ')} |`,
    );
  }
  lines.push(...costSection(report));
  lines.push(
    '',
    '## How it is measured',
    '',
    "- **Event**: a step whose transaction has an `artifact_revision` (not one inferred from a later view) of a file the final patch (`info.submission`) changes. Gold lines: that file's old lines the patch removes or replaces; for a pure insertion, the context lines around it.",
    '- **Context**: built from the steps before the edit. The ledger is fed one step at a time and materialized once those steps are committed, so a later step cannot leak in.',
    '- **Shown**: a gold line is shown when some line of a context text, trailing whitespace trimmed, ends with the gold text and no identifier character or `.` runs into it (numbered listings, `grep -n` and diff lines count). The same matcher serves every method and the ceiling. A ledger excerpt (an output cut to its relevant lines) shows only the lines it keeps.',
    "- **Recall**: share of an event's gold lines shown, averaged over events. **Ceiling**: the same over every earlier message (task, assistant turns, observations).",
    `- **Precision**: tokens of the gold lines shown (each line once, counted on its own text), over the context's tokens, averaged over events. **Pairs kept**: share of events whose context shows every tool call with its results and every result with its call.`,
    '- **Baselines** (same budgets, same texts as the ledger: the task, each assistant turn as thought + command, each observation): *recency* — the most recent messages that fit, whole, as a contiguous window; *recency, pairs kept* — the same over whole steps; *BM25* — observations scored against the task text (k1 1.2, b 0.75, statistics of the observations so far), best first, skipping what does not fit; *observation masking* — every assistant turn, the latest N observations in full and older ones replaced by a placeholder, N the largest that fits (the oldest steps dropped whole when even the turns do not fit); *compaction* — steps appended until the budget is full, then only the newest whole steps filling at most half the budget kept, and appending again (auto-compact without the summary). Each keeps the task first when it fits, as the ledger does.',
    `- **Intervals**: 95% percentile bootstrap of the mean, resampling trajectories (${s.bootstrap.samples} resamples, seed ${s.bootstrap.seed}).`,
    '',
  );
  return lines.join('\n');
}

const COST_LABEL: Record<CostMethod, string> = { ...LABEL, untrimmed: 'untrimmed transcript (no budget)' };

/** The agent loop's input cost per budget (see docs/evaluation/replay-cost.md). */
function costSection(report: ReplayReport): string[] {
  const c = report.cost;
  if (c.trajectories === 0) return [];
  const p = c.pricing;
  const usd = (v: number) => `$${v.toFixed(v < 1 ? 4 : 2)}`;
  const n = (v: number) => Math.round(v).toLocaleString('en-US');
  const lines = [
    '',
    '## Cost: every step of every trajectory, prompt cache on',
    '',
    `An agent loop over each of the ${c.trajectories} trajectories: after every step but the last it commits the step, builds each method's request and sends it (${n(c.requests)} requests per method and budget). The ledger's request is \`ws.toMessages('anthropic')\` after \`materialize({ budget })\` with ${report.settings.mode ? `\`mode: '${report.settings.mode}'\`` : 'its default options'}; each baseline's selection is rendered into the same Anthropic message and content-block shape (the conversation in order, tool calls as \`tool_use\`, outputs as \`tool_result\`). **Cached**: the tokens of the blocks a request shares, from the start, with the same method's previous request (whole messages and content blocks, the granularity providers cache); the rest is a cache write. Tokens counted in ${report.settings.encoding} on each block's text. **Cost**: input of ${p.model} at $${p.inputPerMillion}/Mtok, cache reads at ${p.cacheRead}× and cache writes at ${p.cacheWrite}× (\`--model\`, \`--input-price\`, \`--cache-read\`, \`--cache-write\`). Recall: all edit events, first gold (the untrimmed transcript's is the ceiling). Recall per $: recall ÷ cost per run.`,
    '',
  ];
  for (const b of c.budgets) {
    lines.push(
      `### ${b.budget.toLocaleString('en-US')} tokens`,
      '',
      '| method | tokens sent | cached | cached share | cache writes | cost per run | × recency | × untrimmed | recall | recall per $ |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const m of [...METHODS, 'untrimmed'] as const) {
      const r = b.methods[m];
      lines.push(
        `| ${COST_LABEL[m]} | ${n(r.sent)} | ${n(r.cached)} | ${pct(r.cachedShare)} | ${n(r.written)} | ${usd(r.costPerRun)} | ${r.vsRecency.toFixed(2)}× | ${r.vsUntrimmed.toFixed(2)}× | ${pct(r.recall)} | ${r.recallPerDollar.toFixed(1)} |`,
      );
    }
    const r = b.ledgerRepacks;
    if (r.requests > 0)
      lines.push(
        '',
        `Ledger re-packs: ${n(r.requests)} of its ${n(b.methods.ledger.requests)} requests (${pct(r.share)}); they made ${pct(r.writeShare)} of its cache writes and ${pct(r.costShare)} of its cost. The other requests appended to the one before.`,
      );
    lines.push('');
  }
  return lines;
}

const COLOR: Record<MethodName, string> = {
  ledger: '#c0392b',
  recency: '#2471a3',
  recencyPaired: '#229954',
  bm25: '#7d3c98',
  observationMasking: '#d68910',
  compaction: '#5d6d7e',
};

/** Recall (with its interval) against budget on a log scale, one line per method, and the ceiling. */
export function renderSvg(report: ReplayReport): string {
  const W = 760;
  const H = 420;
  const L = 64;
  const R = 540;
  const T = 40;
  const B = 360;
  const budgets = report.budgets.map((b) => b.budget);
  const lo = Math.log2(Math.min(...budgets));
  const hi = Math.log2(Math.max(...budgets));
  const x = (b: number) => (hi === lo ? (L + R) / 2 : L + ((Math.log2(b) - lo) / (hi - lo)) * (R - L));
  const y = (v: number) => B - v * (B - T);
  const f = (n: number) => n.toFixed(1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${L}" y="22" font-size="14" font-weight="bold">Recall of gold evidence lines before each edit (${report.events} events)</text>`,
  ];
  for (let v = 0; v <= 1.0001; v += 0.2) {
    out.push(`<line x1="${L}" x2="${R}" y1="${f(y(v))}" y2="${f(y(v))}" stroke="#ddd"/>`);
    out.push(`<text x="${L - 8}" y="${f(y(v) + 4)}" text-anchor="end">${Math.round(v * 100)}%</text>`);
  }
  for (const b of budgets) {
    out.push(`<line x1="${f(x(b))}" x2="${f(x(b))}" y1="${B}" y2="${B + 5}" stroke="#333"/>`);
    out.push(`<text x="${f(x(b))}" y="${B + 20}" text-anchor="middle">${b.toLocaleString('en-US')}</text>`);
  }
  out.push(
    `<line x1="${L}" x2="${R}" y1="${B}" y2="${B}" stroke="#333"/>`,
    `<line x1="${L}" x2="${L}" y1="${T}" y2="${B}" stroke="#333"/>`,
  );
  out.push(`<text x="${(L + R) / 2}" y="${B + 42}" text-anchor="middle">token budget (log scale)</text>`);
  out.push(
    `<line x1="${L}" x2="${R}" y1="${f(y(report.ceiling))}" y2="${f(y(report.ceiling))}" stroke="#555" stroke-dasharray="6 4"/>`,
  );
  const legend: Array<[string, string, boolean]> = [];
  for (const [k, m] of METHODS.entries()) {
    // Interval whiskers sit side by side so overlapping intervals stay readable.
    const dx = (k - (METHODS.length - 1) / 2) * 4;
    const pts = report.budgets.map((b) => ({ b: b.budget, r: b.methods[m].recall, ci: b.methods[m].recallCI }));
    const c = COLOR[m];
    out.push(
      `<polyline fill="none" stroke="${c}" stroke-width="${m === 'ledger' ? 3 : 2}" points="${pts.map((p) => `${f(x(p.b))},${f(y(p.r))}`).join(' ')}"/>`,
    );
    for (const p of pts) {
      out.push(
        `<line x1="${f(x(p.b) + dx)}" x2="${f(x(p.b) + dx)}" y1="${f(y(p.ci[0]))}" y2="${f(y(p.ci[1]))}" stroke="${c}" stroke-opacity="0.5"/>`,
      );
      out.push(
        `<circle cx="${f(x(p.b))}" cy="${f(y(p.r))}" r="3.5" fill="${c}"><title>${LABEL[m]} @ ${p.b}: ${pct(p.r)}</title></circle>`,
      );
    }
    legend.push([LABEL[m], c, false]);
  }
  legend.push([`ceiling ${pct(report.ceiling)}`, '#555', true]);
  legend.forEach(([label, c, dashed], i) => {
    const ly = T + 10 + i * 22;
    out.push(
      `<line x1="${R + 24}" x2="${R + 52}" y1="${ly}" y2="${ly}" stroke="${c}" stroke-width="2.5"${dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
    );
    out.push(`<text x="${R + 60}" y="${ly + 4}">${escapeXml(label)}</text>`);
  });
  out.push('</svg>', '');
  return out.join('\n');
}

const pct = (v: number, digits = 1): string => `${(100 * v).toFixed(digits)}%`;
const points = (v: number): string => `${(100 * v).toFixed(1)} points`;
const ratio = (a: number, b: number): number => (b === 0 ? (a > 0 ? Number.POSITIVE_INFINITY : 1) : a / b);
const times = (r: number): string => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '∞×');
const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
