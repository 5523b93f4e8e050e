import { describe, expect, it } from 'vitest';
import { BM25_B, BM25_K1, bm25Idf, bm25TermScore } from '../../src/scoring/bm25.js';

describe('BM25 arithmetic', () => {
  it('idf falls with document frequency and stays positive', () => {
    expect(bm25Idf(10, 1)).toBeGreaterThan(bm25Idf(10, 5));
    expect(bm25Idf(10, 10)).toBeGreaterThan(0);
    expect(bm25Idf(10, 3)).toBe(Math.log(1 + (10 - 3 + 0.5) / (3 + 0.5)));
  });

  it('a term share saturates with frequency and falls with length; avgdl 0 turns length off', () => {
    const idf = bm25Idf(100, 4);
    expect(bm25TermScore(idf, 2, 10, 10)).toBeGreaterThan(bm25TermScore(idf, 1, 10, 10));
    expect(bm25TermScore(idf, 1000, 10, 10)).toBeLessThan(idf * (BM25_K1 + 1));
    expect(bm25TermScore(idf, 1, 40, 10)).toBeLessThan(bm25TermScore(idf, 1, 10, 10));
    expect(bm25TermScore(idf, 1, 40, 0)).toBe((idf * (BM25_K1 + 1)) / (1 + BM25_K1 * (1 - BM25_B)));
  });
});
