import type { WorkingSet } from '../../src/working-set/working-set.js';
import { $, h, TIER_COLOURS, tierName } from './dom.js';
import { budgetSegments } from './view-model.js';

/** The budget as a bar: one segment per tier, as wide as its share of the budget; the rest is free. */
export function drawBudget(ws: WorkingSet): void {
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
