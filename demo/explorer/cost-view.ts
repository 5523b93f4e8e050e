import { $, h } from './dom.js';
import { CACHE_READ, CACHE_WRITE, type RequestCost, type RunTotal, runTotal } from './request-cost.js';

/**
 * What each step's request costs: a stacked bar per step (tokens read from the prompt cache, new
 * tokens written to it, a red cap where the request re-packed an earlier block), and the run's
 * total against a recency window of the same budget.
 */

const fmt = (n: number) => Math.round(n).toLocaleString('en');

function totalLine(label: string, t: RunTotal, cls: string): HTMLElement {
  return h(
    'div',
    { class: `total ${cls}` },
    h('b', {}, label),
    ` ${fmt(t.cost)} token-equivalents · ${fmt(t.sent)} sent: ${fmt(t.cached)} cached, ${fmt(t.written)} new · ${t.repacks} re-packs`,
  );
}

export function drawCost(
  costs: ReadonlyArray<RequestCost | undefined>,
  window: ReadonlyArray<RequestCost | undefined>,
  epoch: number,
  budget: number,
  onPick: (epoch: number) => void,
): void {
  const done = costs.filter((c): c is RequestCost => c !== undefined);
  const doneWindow = window.filter((c): c is RequestCost => c !== undefined);
  const ledger = runTotal(done);
  const recency = runTotal(doneWindow);
  const ratio = recency.cost > 0 ? ledger.cost / recency.cost : 0;
  $('cost-summary').replaceChildren(
    h(
      'p',
      { class: 'muted' },
      `Requests of ${fmt(budget)} tokens at most, priced as a prompt cache does: blocks shared with the previous request are read at ${CACHE_READ}×, the rest written at ${CACHE_WRITE}× (token-equivalents = tokens × factor). ${done.length} of ${costs.length} steps computed.`,
    ),
    totalLine('ledger working sets:', ledger, 'ledger'),
    totalLine('recency window (task + newest steps that fit):', recency, 'window'),
    h(
      'p',
      { id: 'cost-ratio', class: ratio > 1 ? 'verdict abstain' : 'verdict supported' },
      ratio > 0 ? `The ledger's run costs ${ratio.toFixed(2)}× the recency window's.` : '',
    ),
  );
  $('cost-legend').replaceChildren(
    h('span', {}, h('i', { class: 'swatch', style: 'background:#2f5dd0' }), 'from the cache'),
    h('span', {}, h('i', { class: 'swatch', style: 'background:#d9822b' }), 'new tokens'),
    h('span', {}, h('i', { class: 'swatch', style: 'background:#d33f2f' }), 're-pack (an earlier block changed)'),
    h('span', {}, h('i', { class: 'tick-mark' }), "recency window's cost (token-equivalents)"),
  );
  // One axis for tokens and token-equivalents (tokens × price factor).
  const max = Math.max(1, ...[...done, ...doneWindow].flatMap((c) => [c.sent, c.cost]));
  const chart = $('cost-chart');
  chart.replaceChildren(
    ...costs.map((c, e) => {
      const w = window[e];
      const col = h('div', {
        class: `col${e === epoch ? ' current' : ''}${c?.repacked ? ' repacked' : ''}`,
        'data-epoch': String(e),
        title: c
          ? `step ${e}: ${c.sent} tokens sent, ${c.cached} from the cache, ${c.written} new${c.repacked ? ', re-packed' : ''}; cost ${fmt(c.cost)}${w ? ` (recency window: ${fmt(w.cost)})` : ''}`
          : `step ${e}: not computed yet`,
      });
      if (c) {
        col.append(
          h('i', { class: 'written', style: `height:${(100 * c.written) / max}%` }),
          h('i', { class: 'cached', style: `height:${(100 * c.cached) / max}%` }),
        );
        if (w) col.append(h('i', { class: 'window', style: `bottom:${(100 * w.cost) / max}%` }));
      }
      col.addEventListener('click', () => onPick(e));
      return col;
    }),
  );
}
