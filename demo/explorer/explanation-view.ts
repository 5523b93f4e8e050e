import type { ExplanationRecord } from '../../src/working-set/types.js';
import { h, tierName } from './dom.js';

/**
 * The explanation table, virtualised: it fills the viewport's remaining height and draws only
 * the rows in view (a long trace has thousands), so the page never grows with the trace.
 */

const ROW = 26;
const OVERSCAN = 8;

export interface ExplanationRow {
  record: ExplanationRecord;
  tokens?: number;
  rank?: { rank: number; of: number };
}

export class ExplanationTable {
  private rows: readonly ExplanationRow[] = [];
  private selected: string | null = null;

  constructor(
    private readonly scroll: HTMLElement,
    private readonly body: HTMLElement,
    private readonly onSelect: (id: string) => void,
  ) {
    scroll.addEventListener('scroll', () => this.render());
    new ResizeObserver(() => this.render()).observe(scroll);
  }

  set(rows: readonly ExplanationRow[], selected: string | null): void {
    this.rows = rows;
    this.selected = selected;
    this.body.style.height = `${rows.length * ROW}px`;
    this.render();
  }

  /** Scrolls the selected row into view (a selection made elsewhere). */
  reveal(id: string): void {
    const i = this.rows.findIndex((r) => r.record.id === id);
    if (i < 0) return;
    const top = i * ROW;
    if (top < this.scroll.scrollTop || top + ROW > this.scroll.scrollTop + this.scroll.clientHeight)
      this.scroll.scrollTop = Math.max(0, top - this.scroll.clientHeight / 3);
    this.render();
  }

  private render(): void {
    const first = Math.max(0, Math.floor(this.scroll.scrollTop / ROW) - OVERSCAN);
    const last = Math.min(
      this.rows.length,
      Math.ceil((this.scroll.scrollTop + this.scroll.clientHeight) / ROW) + OVERSCAN,
    );
    const views: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const { record: e, tokens, rank } = this.rows[i]!;
      const row = h(
        'div',
        {
          class: `vrow ${e.included ? 'in' : 'out'}${e.id === this.selected ? ' selected' : ''}`,
          style: `top:${i * ROW}px`,
          'data-id': e.id,
          role: 'row',
        },
        h('span', { title: e.included ? 'included' : 'left out' }, e.included ? '✓' : '✗'),
        h('code', {}, e.id),
        h('span', {}, tierName(e.tier)),
        h('span', {}, tokens === undefined ? '' : String(tokens)),
        h('span', {}, rank ? `${rank.rank}/${rank.of}` : ''),
        h('span', { class: 'reason', title: e.reason }, e.reason),
      );
      row.addEventListener('click', () => this.onSelect(e.id));
      views.push(row);
    }
    this.body.replaceChildren(...views);
  }
}
