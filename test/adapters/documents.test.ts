import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { bareTitle, documentLinks, entitiesOf } from '../../src/adapters/documents/document-links.js';
import { fromDocuments } from '../../src/adapters/index.js';
import { LedgerPool } from '../helpers/ledgers.js';

/** The MuSiQue-shaped fixture's corpus as documents `P<index>` (its first question asks QUESTION). */
const load = () =>
  (
    JSON.parse(
      readFileSync(new URL('../fixtures/retrieval/musique-mini_corpus.json', import.meta.url), 'utf8'),
    ) as Array<{ title: string; text: string }>
  ).map((p, i) => ({ id: `P${i}`, title: p.title, text: p.text }));
const QUESTION = (
  JSON.parse(readFileSync(new URL('../fixtures/retrieval/musique-mini.json', import.meta.url), 'utf8')) as Array<{
    question: string;
  }>
)[0]!.question;

const pool = new LedgerPool();
afterAll(() => pool.close());

describe('fromDocuments: named entities and document links', () => {
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
    const passages = load();
    const links = documentLinks(passages, 3);
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
    expect(documentLinks(passages, 2).some((l) => l.why === 'entity:Starlight Records')).toBe(false);
    expect(documentLinks([...passages].reverse(), 3).length).toBe(links.length);
    expect(documentLinks(passages, 3)).toEqual(links);
  });

  it('commits as one transaction; graph expansion reaches the bridge passage lexical search misses', async () => {
    const ledger = await pool.ledger();
    for (const tx of fromDocuments(load(), { maxEntityDf: 3 }).transactions) await ledger.commit(tx);
    // "Who established the imprint behind Blue Horizon?": the label's own passage
    // (P1) shares no word (nor stem: "Records" stems to "record") with the question; the album's passage (P0) names it.
    const question = QUESTION;
    const p1 = async (hops: number) =>
      (await ledger.retrieve({ text: question, hops })).explanation.find((e) => e.id === 'P1');
    // Without expansion P1 is no candidate at all, or one no lexical or graph signal found.
    const flat = await p1(0);
    const graph = await p1(2);
    expect(flat?.signals.some((x) => x.startsWith('bm25') || x.startsWith('graph')) ?? false).toBe(false);
    expect(graph?.signals.some((x) => x.startsWith('graph: 1 hop'))).toBe(true);
    expect(graph!.score).toBeGreaterThan(flat?.score ?? 0);
  });
});

describe('fromDocuments: shape', () => {
  it('writes evidence nodes with title bodies and prefixed ids, and refuses malformed documents by field', () => {
    const docs = [
      { id: 'a', title: 'Blue Horizon (album)', text: 'Released by Starlight Records.' },
      { id: 'b', title: 'Starlight Records', text: 'A label.' },
    ];
    const { transactions, links } = fromDocuments(docs, { idPrefix: 'k/', authority: 'wiki', pathPrefix: 'wiki/' });
    expect(transactions).toHaveLength(1);
    expect(transactions[0]!.nodes).toEqual([
      {
        id: 'k/a',
        kind: 'evidence',
        path: 'wiki/Blue Horizon (album)',
        authority: 'wiki',
        body: 'Blue Horizon (album)\nReleased by Starlight Records.',
      },
      {
        id: 'k/b',
        kind: 'evidence',
        path: 'wiki/Starlight Records',
        authority: 'wiki',
        body: 'Starlight Records\nA label.',
      },
    ]);
    expect(links).toEqual([{ from: 'a', to: 'b', kind: 'cites', why: 'title' }]);
    expect(transactions[0]!.edges).toEqual([{ from: 'k/a', to: 'k/b', kind: 'cites' }]);
    expect(fromDocuments(docs, { links: false }).transactions[0]!.edges).toEqual([]);
    expect(() => fromDocuments([{ id: 'a', title: 'T', text: 1 as unknown as string }])).toThrow('documents[0].text');
    expect(() => fromDocuments([docs[0]!, docs[0]!])).toThrow('documents[1].id repeats');
  });
});
