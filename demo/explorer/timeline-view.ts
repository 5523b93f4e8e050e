import type { WorkingSet } from '../../src/working-set/working-set.js';
import { $, h } from './dom.js';
import { type EpochMarkers, MARKERS, workingSetDiff } from './view-model.js';

const MARKER_TITLES: Record<(typeof MARKERS)[number], string> = {
  commit: 'commits',
  revision: 'file revisions',
  verifier: 'verifier outcomes',
  supersession: 'supersessions',
  contradiction: 'contradictions',
};

/** One column per epoch with a dot per kind of event; the chosen epoch is highlighted. */
export function drawTimeline(markers: readonly EpochMarkers[], epoch: number): void {
  const strip = $('timeline-strip');
  if (strip.childElementCount !== markers.length) {
    strip.replaceChildren(
      ...markers.map((m) =>
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

export function drawDiff(epoch: number, previous: WorkingSet | null, ws: WorkingSet): void {
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
