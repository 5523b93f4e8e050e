import { CELL, type PresenceRow } from './presence-model.js';

/**
 * The presence matrix on a canvas: rows are records (by step, then kind), columns epochs. It is
 * scaled to fit its box whole (436 × 116 fits at 1440 × 900), so churn shows at a glance; a
 * click picks the epoch and the record under the pointer.
 */

const COLOURS: Record<number, string> = {
  [CELL.unrecorded]: '#ffffff',
  [CELL.in]: '#2e9e62',
  [CELL.out]: '#f1b8b3',
  [CELL.superseded]: '#c9ced8',
  [CELL.pending]: '#eef0f4',
};
export const CELL_LEGEND: ReadonlyArray<[string, string]> = [
  ['in the working set', COLOURS[CELL.in]!],
  ['left out', COLOURS[CELL.out]!],
  ['superseded', COLOURS[CELL.superseded]!],
  ['not recorded yet', '#ffffff'],
  ['not computed yet', COLOURS[CELL.pending]!],
];

const LEFT = 44;
const TOP = 18;

export class MatrixView {
  private rows: readonly PresenceRow[] = [];
  private cells: Uint8Array = new Uint8Array(0);
  private epochs = 0;
  private epoch = 0;
  private selected: string | null = null;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    hover: HTMLElement,
    onPick: (epoch: number, id: string) => void,
  ) {
    canvas.addEventListener('click', (e) => {
      const at = this.at(e);
      if (at) onPick(at.epoch, at.row.id);
    });
    canvas.addEventListener('mousemove', (e) => {
      const at = this.at(e);
      if (!at) {
        hover.hidden = true;
        return;
      }
      const state = Object.entries(CELL).find(([, v]) => v === this.cells[at.index * this.epochs + at.epoch])?.[0];
      hover.hidden = false;
      hover.textContent = `${at.row.id} (${at.row.kind}, step ${at.row.from}) at step ${at.epoch}: ${state === 'unrecorded' ? 'not recorded yet' : state}`;
      hover.style.left = `${e.offsetX + 12}px`;
      hover.style.top = `${e.offsetY + 12}px`;
    });
    canvas.addEventListener('mouseleave', () => {
      hover.hidden = true;
    });
  }

  set(rows: readonly PresenceRow[], cells: Uint8Array, epochs: number): void {
    this.rows = rows;
    this.cells = cells;
    this.epochs = epochs;
    this.draw();
  }

  cursor(epoch: number, selected: string | null): void {
    this.epoch = epoch;
    this.selected = selected;
    this.draw();
  }

  /** Cell size in CSS pixels for the box's current size. */
  private geometry(): { w: number; h: number; width: number; height: number } {
    const box = this.canvas.parentElement!.getBoundingClientRect();
    const width = Math.max(200, Math.floor(box.width));
    const height = Math.max(150, Math.floor(box.height));
    const w = Math.max(1, Math.min(14, (width - LEFT - 4) / Math.max(1, this.epochs)));
    const h = Math.max(0.5, Math.min(14, (height - TOP - 4) / Math.max(1, this.rows.length)));
    return { w, h, width, height };
  }

  private at(e: MouseEvent): { epoch: number; index: number; row: PresenceRow } | null {
    const { w, h } = this.geometry();
    const epoch = Math.floor((e.offsetX - LEFT) / w);
    const index = Math.floor((e.offsetY - TOP) / h);
    const row = this.rows[index];
    if (!row || epoch < 0 || epoch >= this.epochs) return null;
    return { epoch, index, row };
  }

  /** Where a cell is drawn (the e2e suite clicks it). */
  cellCentre(epoch: number, id: string): { x: number; y: number } | null {
    const index = this.rows.findIndex((r) => r.id === id);
    if (index < 0) return null;
    const { w, h } = this.geometry();
    return { x: LEFT + (epoch + 0.5) * w, y: TOP + (index + 0.5) * h };
  }

  draw(): void {
    const { w, h, width, height } = this.geometry();
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const g = this.canvas.getContext('2d');
    if (!g) return;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    const n = this.epochs;
    for (let r = 0; r < this.rows.length; r++) {
      const y = TOP + r * h;
      for (let e = 0; e < n; e++) {
        const c = this.cells[r * n + e]!;
        if (c === CELL.unrecorded) continue;
        g.fillStyle = COLOURS[c]!;
        g.fillRect(LEFT + e * w, y, Math.max(1, w - (w > 4 ? 1 : 0)), Math.max(0.5, h - (h > 4 ? 1 : 0)));
      }
    }
    // Step labels where a new step's rows start, spaced so they never overlap.
    g.fillStyle = '#6b7383';
    g.font = '10px system-ui, sans-serif';
    g.textBaseline = 'top';
    let lastY = -Infinity;
    this.rows.forEach((row, r) => {
      const y = TOP + r * h;
      if ((r === 0 || this.rows[r - 1]!.from !== row.from) && y - lastY >= 12) {
        g.fillText(`step ${row.from}`, 2, y);
        lastY = y;
      }
    });
    const every = Math.max(1, Math.ceil(28 / w / 5) * 5);
    for (let e = 0; e < n; e += every) g.fillText(String(e), LEFT + e * w, 2);
    // The chosen epoch's column and the selected record's row.
    g.strokeStyle = '#2f5dd0';
    g.lineWidth = 2;
    g.strokeRect(LEFT + this.epoch * w - 1, TOP - 2, w + 2, this.rows.length * h + 4);
    const sel = this.selected === null ? -1 : this.rows.findIndex((row) => row.id === this.selected);
    if (sel >= 0) {
      g.strokeStyle = '#d9822b';
      g.strokeRect(LEFT - 2, TOP + sel * h - 1, n * w + 4, h + 2);
    }
  }
}
