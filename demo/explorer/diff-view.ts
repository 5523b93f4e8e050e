import type { WorkingSet } from '../../src/working-set/working-set.js';
import { $, h } from './dom.js';
import { workingSetDiff } from './view-model.js';

/** What entered and left the working set since the previous step, as chips. */

function chips(ids: readonly string[], cls: string): Node[] {
  const MAX = 12;
  const out: Node[] = ids.slice(0, MAX).map((id) => h('code', { class: `chip ${cls}` }, id));
  if (ids.length > MAX) out.push(h('span', { class: 'muted' }, ` +${ids.length - MAX} more`));
  return out;
}

export function drawDiff(epoch: number, previous: readonly { id: string }[] | null, ws: WorkingSet): void {
  if (!previous) {
    $('diff').replaceChildren(
      h('span', { class: 'muted' }, epoch === 0 ? `step 0: ${ws.items.length} items` : `since step ${epoch - 1}: …`),
    );
    return;
  }
  const { entered, left } = workingSetDiff(previous, ws.items);
  // One line each for what entered and what left: the views below never move down.
  $('diff').replaceChildren(
    h(
      'div',
      { class: 'diff-line', title: entered.join(' ') },
      h('span', { class: 'muted' }, `since step ${epoch - 1}: `),
      h(
        'b',
        { id: 'diff-entered', 'data-count': String(entered.length), class: 'entered' },
        `+${entered.length} entered`,
      ),
      ' ',
      ...chips(entered, 'entered'),
    ),
    h(
      'div',
      { class: 'diff-line', title: left.join(' ') },
      h('b', { id: 'diff-left', 'data-count': String(left.length), class: 'left' }, `−${left.length} left`),
      ' ',
      ...chips(left, 'left'),
    ),
  );
}
