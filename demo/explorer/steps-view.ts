import { $, h } from './dom.js';
import type { RequestCost } from './request-cost.js';
import type { EpochMarkers } from './view-model.js';

/** `1 file revision`, `2 file revisions`. */
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The numbered step list beside the conversation: one row per epoch with what the agent did, a
 * marker for revisions, failed verifiers and supersessions, and a bar of that request's tokens
 * (cached and new) once the cost sweep has reached it.
 */
export function drawSteps(labels: readonly string[], markers: readonly EpochMarkers[]): void {
  $('steps').replaceChildren(
    ...labels.map((label, epoch) => {
      const m = markers[epoch];
      const flags: Node[] = [];
      if (m?.revision) flags.push(h('i', { class: 'm revision', title: count(m.revision, 'file revision') }));
      if (m?.failed) flags.push(h('i', { class: 'm failed', title: count(m.failed, 'failed verifier outcome') }));
      else if (m?.verifier) flags.push(h('i', { class: 'm verifier', title: count(m.verifier, 'verifier outcome') }));
      if (m?.supersession)
        flags.push(h('i', { class: 'm supersession', title: `${count(m.supersession, 'record')} superseded` }));
      return h(
        'li',
        { 'data-epoch': String(epoch), title: `step ${epoch}: ${label}` },
        h('span', { class: 'n' }, String(epoch)),
        h('span', { class: 'label' }, label),
        h('span', { class: 'flags' }, ...flags),
        h('span', { class: 'mini' }),
      );
    }),
  );
}

export function markStep(epoch: number): void {
  const list = $('steps');
  for (const li of list.children) {
    const on = (li as HTMLElement).dataset.epoch === String(epoch);
    li.classList.toggle('current', on);
    if (on) li.setAttribute('aria-current', 'step');
    else li.removeAttribute('aria-current');
  }
  const current = list.querySelector<HTMLElement>('li.current');
  if (current) {
    const box = list.getBoundingClientRect();
    const at = current.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) current.scrollIntoView({ block: 'nearest' });
  }
}

/** Each step's request as a mini bar: cached tokens and new tokens, scaled to the largest request. */
export function drawStepCosts(costs: ReadonlyArray<RequestCost | undefined>): void {
  const max = Math.max(1, ...costs.map((c) => c?.sent ?? 0));
  for (const li of $('steps').children) {
    const c = costs[Number((li as HTMLElement).dataset.epoch)];
    const mini = li.querySelector('.mini');
    if (!mini || !c) continue;
    mini.replaceChildren(
      h('i', { class: 'cached', style: `width:${(100 * c.cached) / max}%` }),
      h('i', { class: 'written', style: `width:${(100 * c.written) / max}%` }),
    );
    (mini as HTMLElement).title =
      `${c.sent} tokens sent: ${c.cached} from the cache, ${c.written} new${c.repacked ? ' (re-packed)' : ''}`;
    mini.classList.toggle('repacked', c.repacked);
  }
}
