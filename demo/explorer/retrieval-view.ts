import type { RetrievalResult, RetrievedEvidence } from '../../src/entries/browser.js';
import { $, h, where } from './dom.js';
import { snippet } from './view-model.js';

type Select = (id: string) => void;

type Channel = keyof RetrievedEvidence['channels'];
/**
 * Display order of every channel a result scores. A record, not a list, so that a channel added
 * to the library is a type error here until the explorer draws it (it once showed four of five).
 */
const CHANNEL_ORDER: Record<Channel, number> = { exact: 0, lexical: 1, vector: 2, graph: 3, temporal: 4 };
const CHANNELS = (Object.keys(CHANNEL_ORDER) as Channel[]).sort((a, b) => CHANNEL_ORDER[a] - CHANNEL_ORDER[b]);
/** Results shown before the rest fold away. */
const SHOWN = 6;

/** Channel scores live on different scales (BM25 is unbounded), so each bar is relative to its channel's best. */
type ChannelBest = Record<Channel, number>;

function evidenceView(e: RetrievedEvidence, best: ChannelBest, query: string, onSelect: Select): HTMLElement {
  const bars = h(
    'div',
    { class: 'channels' },
    ...CHANNELS.map((c) =>
      h(
        'span',
        {
          class: 'channel',
          'data-channel': c,
          title: `${c} channel score (bar: relative to the best ${c} score here)`,
        },
        c,
        h('meter', { min: '0', max: '1', value: String(best[c] > 0 ? e.channels[c] / best[c] : 0) }),
        e.channels[c].toFixed(3),
      ),
    ),
  );
  const link = h('button', { type: 'button', class: 'link', 'data-id': e.id, title: 'Select this record' }, e.id);
  link.addEventListener('click', () => onSelect(e.id));
  return h(
    'li',
    {},
    h(
      'div',
      {},
      h('b', {}, e.score.toFixed(3)),
      ' ',
      h('span', { class: 'kind' }, e.kind),
      ' ',
      link,
      ' ',
      h('span', { class: 'where' }, where(e)),
      h('span', { class: 'muted' }, ` · ${e.tokens} tok`),
    ),
    e.body ? h('pre', { class: 'snippet' }, snippet(e.body, query)) : '',
    bars,
  );
}

/** A ranked list: the first few, then the rest behind a toggle. */
function rankedList(list: readonly RetrievedEvidence[], query: string, onSelect: Select): HTMLElement {
  const best = Object.fromEntries(
    CHANNELS.map((c) => [c, Math.max(0, ...list.map((e) => e.channels[c]))]),
  ) as ChannelBest;
  const top = h(
    'ol',
    { class: 'evidence' },
    ...list.slice(0, SHOWN).map((e) => evidenceView(e, best, query, onSelect)),
  );
  if (list.length <= SHOWN) return top;
  const rest = h(
    'ol',
    { class: 'evidence', start: String(SHOWN + 1) },
    ...list.slice(SHOWN).map((e) => evidenceView(e, best, query, onSelect)),
  );
  return h('div', {}, top, h('details', {}, h('summary', {}, `${list.length - SHOWN} more`), rest));
}

export function drawRetrieval(result: RetrievalResult | null, query: string, epoch: number, onSelect: Select): void {
  const box = $('retrieval');
  if (!result) {
    box.replaceChildren();
    return;
  }
  const verdict = result.status === 'supported' ? 'supported' : 'abstains';
  const sign = result.support >= result.threshold ? '≥' : '<';
  const parts: Node[] = [
    h(
      'p',
      { class: `verdict ${result.status}` },
      `“${query}” at step ${epoch}: ${verdict} (support ${result.support.toFixed(2)} ${sign} ${result.threshold})`,
    ),
  ];
  if (result.status === 'supported') {
    parts.push(rankedList(result.evidence, query, onSelect));
  } else {
    parts.push(
      h('h3', {}, 'Missing evidence'),
      h(
        'ul',
        { class: 'missing' },
        ...result.missing.map((m) =>
          h(
            'li',
            {},
            m.claim ? `claim ${m.claim}` : where(m) || 'evidence',
            h('span', { class: 'muted' }, ` — ${m.reason}`),
          ),
        ),
      ),
    );
    if (result.partial.length > 0)
      parts.push(h('h3', {}, 'Best partial support'), rankedList(result.partial, query, onSelect));
  }
  if (result.contradictions.length > 0)
    parts.push(
      h(
        'p',
        { class: 'muted' },
        `contradictions: ${result.contradictions.map((c) => `${c.from} ⟂ ${c.to}`).join(', ')}`,
      ),
    );
  box.replaceChildren(...parts);
}
