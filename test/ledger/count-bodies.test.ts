import { describe, expect, it } from 'vitest';
import { countNewBodies } from '../../src/ledger/commit/count-bodies.js';
import { LedgerIndex } from '../../src/ledger/ledger-index.js';

describe('countNewBodies (a large commit blocked the event loop for its whole token count)', () => {
  it('lets timers run between counts, and counts each new content hash once', async () => {
    const nodes = Array.from({ length: 120 }, (_, i) => ({
      id: `n${i}`,
      kind: 'message' as const,
      body: `body ${i % 100}`,
    }));
    const hashes = nodes.map((n) => `h:${n.body}`);
    let counted = 0;
    const slowCount = (text: string) => {
      const until = performance.now() + 2;
      while (performance.now() < until) {} // a 2 ms body: 200 bodies are far longer than a slice
      counted++;
      return text.length;
    };
    let countedWhenTimerRan = -1;
    setTimeout(() => {
      countedWhenTimerRan = counted;
    }, 0);
    const out = await countNewBodies({ epoch: 1, nodes }, new LedgerIndex(), hashes, slowCount);
    expect(countedWhenTimerRan).toBeGreaterThan(0);
    expect(countedWhenTimerRan).toBeLessThan(100);
    expect(counted).toBe(100); // bodies 100..119 repeat earlier hashes
    expect(out[5]).toBe('body 5'.length);
    expect(out[105]).toBeUndefined();
  });
});
