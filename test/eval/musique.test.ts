import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMusique } from '../../scripts/eval/musique.js';

const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/retrieval/${name}`, import.meta.url), 'utf8'));
const load = () => parseMusique(read('musique-mini.json'), read('musique-mini_corpus.json'));

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
