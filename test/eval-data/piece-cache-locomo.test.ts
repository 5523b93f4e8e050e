import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { directTokenCounter, tokenCounterFrom } from '../../src/tokenizer/tiktoken-lite.js';
import { loadNodeTiktoken } from '../../src/tokenizer/tiktoken-node.js';
import { ENCODINGS } from '../../src/tokenizer/token-counter.js';
import { dataPath } from './data-path.js';

describe.each(ENCODINGS)('piece-cached token counts equal tiktoken on LoCoMo dialogue (%s)', async (encoding) => {
  const { lite, ranks } = await loadNodeTiktoken(encoding);
  const direct = directTokenCounter(lite, encoding, ranks);
  const cached = tokenCounterFrom(lite, encoding, ranks);

  it('chunk by chunk', () => {
    const text = readFileSync(dataPath('locomo/locomo-dev7.json'), 'utf8').slice(0, 400_000);
    let compared = 0;
    for (let i = 0; i < text.length; i += 700) {
      const chunk = text.slice(i, i + 700);
      expect(cached.count(chunk), JSON.stringify(chunk.slice(0, 80))).toBe(direct.count(chunk));
      compared++;
    }
    expect(compared).toBeGreaterThan(500);
  });
});
