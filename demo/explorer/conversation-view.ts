import type { ExplanationRecord } from '../../src/working-set/types.js';
import type { ConversationMessage, ConversationPart } from './conversation-model.js';
import { h, TIER_COLOURS, tierName } from './dom.js';

/**
 * The request as the model receives it: role-labelled messages, each part labelled with its
 * item, tier and tokens (a click selects the item everywhere), and the records the budget left
 * out as grey stubs where they would have been.
 */

/** Kinds whose text is code or tool output: monospace with its line breaks. */
const CODE_KINDS = new Set(['evidence', 'artifact_revision', 'tool_call', 'tool_result', 'verifier_outcome']);

export interface Stub {
  record: ExplanationRecord;
  kind: string;
  tx: number;
  text: string;
}

export type ConversationRow = { message: ConversationMessage } | { stubs: Stub[] };

/** Runs of stubs longer than this fold behind a toggle. */
const SHOWN_STUBS = 4;

function partView(p: ConversationPart, selected: string | null, onSelect: (id: string) => void): HTMLElement {
  const item = p.item;
  if (!item) return h('div', { class: 'part plain' }, h('div', { class: 'text' }, p.text));
  // A context part starts with the renderer's header line ([id] kind…): shown as the label.
  const [first, ...rest] = p.text.split('\n');
  const headed = first?.startsWith(`[${item.id}] `) ?? false;
  const body = headed ? rest.join('\n') : p.text;
  const label = h(
    'button',
    {
      type: 'button',
      class: 'part-label',
      'data-id': item.id,
      title: headed ? (first ?? '') : `${item.kind} ${item.id}`,
    },
    h('i', { class: 'swatch', style: `background:${TIER_COLOURS[item.tier] ?? '#999'}` }),
    h('code', {}, item.id),
    ` ${item.kind} · ${tierName(item.tier)} · ${item.tokens} tok`,
    item.excerpt ? ` · excerpt of ${item.excerpt.of} lines` : '',
    headed && first && first.length > `[${item.id}] ${item.kind}`.length
      ? h('span', { class: 'where' }, first.slice(`[${item.id}] ${item.kind}`.length))
      : '',
  );
  label.addEventListener('click', () => onSelect(item.id));
  const code = CODE_KINDS.has(item.kind);
  return h(
    'div',
    { class: `part${item.id === selected ? ' selected' : ''}`, 'data-id': item.id },
    label,
    h(code ? 'pre' : 'div', { class: code ? 'code' : 'text' }, body),
  );
}

function stubView(s: Stub, selected: string | null, onSelect: (id: string) => void): HTMLElement {
  const el = h(
    'button',
    {
      type: 'button',
      class: `stub${s.record.id === selected ? ' selected' : ''}`,
      'data-id': s.record.id,
      title: `${s.kind} left out: ${s.record.reason}`,
    },
    s.text,
  );
  el.addEventListener('click', () => onSelect(s.record.id));
  return el;
}

function stubsView(stubs: Stub[], selected: string | null, onSelect: (id: string) => void): HTMLElement {
  const box = h('div', { class: 'stubs' });
  const open = stubs.some((s) => s.record.id === selected);
  box.append(...stubs.slice(0, SHOWN_STUBS).map((s) => stubView(s, selected, onSelect)));
  if (stubs.length > SHOWN_STUBS) {
    const rest = h('details', { class: 'more-stubs' }, h('summary', {}, `${stubs.length - SHOWN_STUBS} more left out`));
    rest.append(...stubs.slice(SHOWN_STUBS).map((s) => stubView(s, selected, onSelect)));
    (rest as HTMLDetailsElement).open = open;
    box.append(rest);
  }
  return box;
}

function roleOf(m: ConversationMessage): string {
  if (m.role === 'assistant') return 'assistant';
  return m.blocks.every((b) => b.type === 'tool_result') ? 'tool result' : 'user';
}

export function drawConversation(
  box: HTMLElement,
  rows: readonly ConversationRow[],
  selected: string | null,
  onSelect: (id: string) => void,
): void {
  let n = 0;
  box.replaceChildren(
    ...rows.map((row) => {
      if ('stubs' in row) return stubsView(row.stubs, selected, onSelect);
      const m = row.message;
      const tokens = m.blocks.reduce((s, b) => s + b.tokens, 0);
      return h(
        'article',
        { class: `msg ${m.role}` },
        h('header', {}, h('b', {}, `#${++n} ${roleOf(m)}`), h('span', { class: 'muted' }, ` ${tokens} tok`)),
        ...m.blocks.map((b) =>
          h(
            'div',
            { class: `block ${b.type}${b.error ? ' error' : ''}` },
            b.type === 'tool_use' ? h('div', { class: 'block-kind' }, `tool call: ${b.name}`) : '',
            b.type === 'tool_result'
              ? h('div', { class: 'block-kind' }, b.error ? 'tool result (error)' : 'tool result')
              : '',
            ...b.parts.map((p) => partView(p, selected, onSelect)),
          ),
        ),
      );
    }),
  );
}
