import { describe, expect, it } from 'vitest';
import { renderAnthropic, renderOpenAI } from '../../src/working-set/render-messages.js';
import type { WorkingSetItem } from '../../src/working-set/types.js';
import { validateAnthropicMessages, validateOpenAIMessages } from '../../src/working-set/validate-messages.js';

const item = (id: string, kind: WorkingSetItem['kind'], body: string, unit = id, extra: Partial<WorkingSetItem> = {}) =>
  ({ id, kind, tier: 4, tokens: 1, tx: 1, authority: 'a', unit, body, ...extra }) as WorkingSetItem;

const task = item('task', 'task', 'Fix the bug.', 'task', { status: 'open', tier: 0 });
const step = (n: number, output: string): WorkingSetItem[] => [
  item(`act:${n}`, 'action', `thought ${n}`, `act:${n}`),
  item(`call:${n}`, 'tool_call', `cmd ${n}`, `call:${n}`, { tool: 'bash' }),
  item(`result:${n}`, 'tool_result', output, `call:${n}`),
];
const evidence = (n: number) => item(`ev:${n}`, 'evidence', `line ${n}`, `ev:${n}`, { path: 'a.py', range: [n, n] });

/** Blocks in order, without their cache breakpoints (which move to the end of each request). */
const blocks = (items: WorkingSetItem[]) =>
  renderAnthropic(items).flatMap((m) =>
    m.content.map(({ cache_control: _, ...b }) => `${m.role} ${JSON.stringify(b)}`),
  );

describe('prompt-cache rendering', () => {
  it('renders the tasks as a head of their own and each context item as its own block', () => {
    const openai = renderOpenAI([task, evidence(1), ...step(1, 'out')]);
    expect(openai[0]).toEqual({ role: 'user', content: '[task] task (open)\nFix the bug.' });
    expect(openai[1]!.content).toContain('[ev:1] evidence a.py:1-1');
    const anthropic = renderAnthropic([task, evidence(1), evidence(2), ...step(1, 'out')]);
    expect(anthropic[0]!.content.map((b) => b.type === 'text' && b.text.split('\n')[0])).toEqual([
      '[task] task (open)',
      '[ev:1] evidence a.py:1-1',
      '[ev:2] evidence a.py:2-2',
    ]);
  });

  it('keeps every earlier block byte-identical when a step appends items', () => {
    const first = [task, evidence(1), ...step(1, 'out 1')];
    const second = [...first, evidence(2), ...step(2, 'out 2')];
    const a = blocks(first);
    const b = blocks(second);
    expect(b.slice(0, a.length)).toEqual(a);
    expect(b.length).toBeGreaterThan(a.length);
    expect(validateAnthropicMessages(renderAnthropic(second))).toEqual([]);
    expect(validateOpenAIMessages(renderOpenAI(second))).toEqual([]);
    const oa = renderOpenAI(first);
    expect(renderOpenAI(second).slice(0, oa.length)).toEqual(oa);
  });

  it('marks the end of the head and the end of the request with cache breakpoints, unless asked not to', () => {
    const messages = renderAnthropic([task, ...step(1, 'out 1'), ...step(2, 'out 2')]);
    const marked = messages.flatMap((m, i) =>
      m.content.flatMap((b, j) => (b.cache_control === undefined ? [] : [[i, j, b.cache_control.type]])),
    );
    const last = messages.length - 1;
    expect(marked).toEqual([
      [0, 0, 'ephemeral'],
      [last, messages[last]!.content.length - 1, 'ephemeral'],
    ]);
    const plain = renderAnthropic([task, ...step(1, 'out 1')], { cacheControl: false });
    expect(JSON.stringify(plain)).not.toContain('cache_control');
  });
});
