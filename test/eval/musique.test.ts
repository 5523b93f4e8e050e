import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { bareTitle, entitiesOf, musiqueTransactions, parseMusique, passageLinks } from '../../scripts/eval/musique.js';
import { LedgerPool } from '../helpers/ledgers.js';

const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/retrieval/${name}`, import.meta.url), 'utf8'));
const load = () => parseMusique(read('musique-mini.json'), read('musique-mini_corpus.json'));

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('MuSiQue loading', () => {
  it('names passages by corpus index and maps supporting paragraphs to them by title and text', () => {
    const data = load();
    expect(data.passages.map((p) => p.id)).toEqual(['P0', 'P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7']);
    expect(data.questions.map((q) => [q.id, q.hops, q.supporting])).toEqual([
      ['2hop__1_2', 2, ['P0', 'P1']],
      ['2hop__3_4', 2, ['P1', 'P3']],
    ]);
    expect(data.unmatched).toBe(1);
  });

  it('zero-pads ids so they sort in corpus order', () => {
    const corpus = Array.from({ length: 12 }, (_, i) => ({ title: `T${i}`, text: 'x' }));
    expect(
      parseMusique([], corpus)
        .passages.map((p) => p.id)
        .slice(0, 2),
    ).toEqual(['P00', 'P01']);
  });
});

describe('named entities and passage links', () => {
  it('takes capitalised spans with inner connectors, initials and abbreviations', () => {
    expect(
      entitiesOf('The American Psychological Association was led by G. Stanley Hall of the Bank of America.'),
    ).toEqual([
      'America',
      'American Psychological Association',
      'Bank',
      'G Stanley Hall',
      'G Stanley Hall of the Bank of America',
    ]);
    expect(entitiesOf('He moved to St. Louis. Its river, the Mississippi, is long.')).toEqual([
      'Its',
      'Mississippi',
      'St Louis',
    ]);
    expect(bareTitle('Blue Horizon (album)')).toBe('Blue Horizon');
  });

  it('links title mentions, same titles and rare shared entities — deterministically', () => {
    const { passages } = load();
    const links = passageLinks(passages, 3);
    const has = (from: string, to: string, why: string) =>
      links.some((l) => l.from === from && l.to === to && l.why === why);
    expect(has('P0', 'P1', 'title')).toBe(true); // Blue Horizon names Starlight Records
    expect(has('P1', 'P3', 'title')).toBe(true); // Starlight Records names Mara Quinn
    expect(has('P1', 'P7', 'title')).toBe(true); // … and Dublin
    expect(has('P0', 'P5', 'same-title')).toBe(true); // Blue Horizon (album) / (film)
    expect(links.every((l) => l.kind === 'cites')).toBe(true);
    // One link per unordered pair.
    const pairs = links.map((l) => [l.from, l.to].sort().join('-'));
    expect(new Set(pairs).size).toBe(pairs.length);
    // "Starlight Records" is named by 3 passages: under a cap of 2 it links nothing by entity.
    expect(passageLinks(passages, 2).some((l) => l.why === 'entity:Starlight Records')).toBe(false);
    expect(passageLinks([...passages].reverse(), 3).length).toBe(links.length);
    expect(passageLinks(passages, 3)).toEqual(links);
  });

  it('commits as one transaction; graph expansion reaches the bridge passage lexical search misses', async () => {
    const data = load();
    const ledger = await pool.ledger();
    for (const tx of musiqueTransactions(data.passages, passageLinks(data.passages, 3))) await ledger.commit(tx);
    // "Who established the imprint behind Blue Horizon?": the label's own passage
    // (P1) shares no word (nor stem: "Records" stems to "record") with the question; the album's passage (P0) names it.
    const question = data.questions[0]!.question;
    const p1 = async (hops: number) =>
      (await ledger.retrieve({ text: question, hops })).explanation.find((e) => e.id === 'P1');
    // Without expansion P1 is no candidate at all, or one no lexical or graph signal found.
    const flat = await p1(0);
    const graph = await p1(2);
    expect(flat?.reasons.some((x) => x.startsWith('bm25') || x.startsWith('graph')) ?? false).toBe(false);
    expect(graph?.reasons.some((x) => x.startsWith('graph: 1 hop'))).toBe(true);
    expect(graph!.score).toBeGreaterThan(flat?.score ?? 0);
  });
});
