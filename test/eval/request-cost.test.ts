import { describe, expect, it } from 'vitest';
import {
  CacheSimulator,
  commonPrefixBlocks,
  costOf,
  DEFAULT_PRICING,
  requestBlocks,
  sameBlock,
} from '../../scripts/eval/request-cost.js';
import type { AnthropicMessage } from '../../src/working-set/render-messages.js';

/** One token per character keeps the arithmetic readable. */
const chars = (text: string) => text.length;

const task: AnthropicMessage = { role: 'user', content: [{ type: 'text', text: 'fix it' }] };
const turn = (n: number): AnthropicMessage => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id: `c${n}`, name: 'bash', input: { command: `ls ${n}` } }],
});
const result = (n: number, content = `out ${n}`): AnthropicMessage => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: `c${n}`, content }],
});

describe('requestBlocks', () => {
  it('gives one block per content block, counted on its text, a call on its name and input', () => {
    const blocks = requestBlocks([task, turn(1), result(1)]);
    expect(blocks.map((b) => b.text)).toEqual(['fix it', 'bash\n{"command":"ls 1"}', 'out 1']);
  });

  it('leaves a cache marker out of a block’s identity', () => {
    const marked = {
      role: 'user',
      content: [{ type: 'text', text: 'fix it', cache_control: { type: 'ephemeral' } }],
    } as unknown as AnthropicMessage;
    expect(sameBlock(requestBlocks([marked])[0]!, requestBlocks([task])[0]!)).toBe(true);
  });

  it('tells the same content apart by role', () => {
    const asAssistant: AnthropicMessage = { role: 'assistant', content: task.content };
    expect(sameBlock(requestBlocks([asAssistant])[0]!, requestBlocks([task])[0]!)).toBe(false);
  });

  it('tells results apart by the call they answer and by their error flag', () => {
    const [a] = requestBlocks([result(1, 'same')]);
    const [b] = requestBlocks([
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c2', content: 'same' }] },
    ]);
    const [c] = requestBlocks([
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'same', is_error: true }] },
    ]);
    expect(sameBlock(a!, b!)).toBe(false);
    expect(sameBlock(a!, c!)).toBe(false);
    expect(sameBlock(a!, requestBlocks([result(1, 'same')])[0]!)).toBe(true);
  });

  it('tells calls apart by id, name and input', () => {
    const use = (id: string, name: string, command: string): AnthropicMessage => ({
      role: 'assistant',
      content: [{ type: 'tool_use', id, name, input: { command } }],
    });
    const [a] = requestBlocks([use('c1', 'bash', 'ls')]);
    for (const other of [use('c2', 'bash', 'ls'), use('c1', 'sh', 'ls'), use('c1', 'bash', 'ls -a')])
      expect(sameBlock(a!, requestBlocks([other])[0]!)).toBe(false);
  });
});

describe('commonPrefixBlocks', () => {
  it('shares every block of a request the next one only appends to', () => {
    const a = requestBlocks([task, turn(1), result(1)]);
    const b = requestBlocks([task, turn(1), result(1), turn(2), result(2)]);
    expect(commonPrefixBlocks(a, b)).toBe(3);
  });

  it('stops at the first block that differs, even when its text shares a start', () => {
    const a = requestBlocks([task, turn(1), result(1, 'output one')]);
    const b = requestBlocks([task, turn(1), result(1, 'output one, longer'), turn(2)]);
    expect(commonPrefixBlocks(a, b)).toBe(2);
  });

  it('shares nothing after a change in the first block', () => {
    const other: AnthropicMessage = { role: 'user', content: [{ type: 'text', text: 'fix it now' }] };
    expect(commonPrefixBlocks(requestBlocks([task, turn(1)]), requestBlocks([other, turn(1)]))).toBe(0);
  });

  it('shares the earlier blocks of a message that gained a block', () => {
    const merged: AnthropicMessage = {
      role: 'user',
      content: [...result(1).content, { type: 'text', text: 'note' }],
    };
    expect(commonPrefixBlocks(requestBlocks([task, turn(1), result(1)]), requestBlocks([task, turn(1), merged]))).toBe(
      3,
    );
  });
});

describe('CacheSimulator', () => {
  it('reads the shared prefix from the cache and writes the rest', () => {
    const sim = new CacheSimulator(chars);
    // 'fix it' 6 + 'bash\n{"command":"ls 1"}' 23 + 'out 1' 5 = 34.
    expect(sim.send(requestBlocks([task, turn(1), result(1)]))).toEqual({ sent: 34, cached: 0 });
    expect(sim.send(requestBlocks([task, turn(1), result(1), turn(2), result(2)]))).toEqual({ sent: 62, cached: 34 });
    // A request that drops the oldest step shares only the task with the one before.
    expect(sim.send(requestBlocks([task, turn(2), result(2)]))).toEqual({ sent: 34, cached: 6 });
    expect(sim.tally).toEqual({ requests: 3, sent: 130, cached: 40, written: 90 });
  });
});

describe('costOf', () => {
  it('prices cache reads and writes by their factors of the input price', () => {
    // $3/Mtok: a million cached tokens at 0.1× is $0.30, a million written at 1.25× is $3.75.
    expect(costOf({ cached: 1_000_000, written: 1_000_000 }, DEFAULT_PRICING)).toBeCloseTo(4.05, 10);
    expect(costOf({ cached: 2_000_000, written: 0 }, { ...DEFAULT_PRICING, cacheRead: 0.5 })).toBeCloseTo(3, 10);
    expect(costOf({ cached: 0, written: 1_000_000 }, { ...DEFAULT_PRICING, inputPerMillion: 15 })).toBeCloseTo(
      18.75,
      10,
    );
  });
});
