import { describe, expect, it } from 'vitest';
import type { AnthropicMessage, OpenAIMessage } from '../../src/working-set/render-messages.js';
import { toolIdMapper } from '../../src/working-set/tool-ids.js';
import { validateAnthropicMessages, validateOpenAIMessages } from '../../src/working-set/validate-messages.js';

const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'bash', arguments: '{}' } });

describe('OpenAI pairing validator', () => {
  it('accepts calls answered in order', () => {
    const ok: OpenAIMessage[] = [
      { role: 'user', content: 'task' },
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'a', content: '1' },
      { role: 'tool', tool_call_id: 'b', content: '2' },
      { role: 'assistant', content: 'done' },
    ];
    expect(validateOpenAIMessages(ok)).toEqual([]);
  });
  it.each([
    [
      'an unanswered call',
      [
        { role: 'assistant', content: null, tool_calls: [call('a')] },
        { role: 'user', content: 'x' },
      ],
      'left unanswered',
    ],
    [
      'an orphan result',
      [
        { role: 'user', content: 'x' },
        { role: 'tool', tool_call_id: 'z', content: '1' },
      ],
      'answers no pending call',
    ],
    [
      'a duplicate id',
      [
        { role: 'assistant', content: null, tool_calls: [call('a')] },
        { role: 'tool', tool_call_id: 'a', content: '' },
        { role: 'assistant', content: null, tool_calls: [call('a')] },
        { role: 'tool', tool_call_id: 'a', content: '' },
      ],
      'duplicate',
    ],
    ['a call left open at the end', [{ role: 'assistant', content: null, tool_calls: [call('a')] }], 'left unanswered'],
  ])('rejects %s', (_name, messages, message) => {
    expect(validateOpenAIMessages(messages as OpenAIMessage[]).join('\n')).toContain(message);
  });
});

describe('Anthropic pairing validator', () => {
  const use = (id: string) => ({ type: 'tool_use' as const, id, name: 'bash', input: {} });
  const result = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'out' });
  it('accepts alternating turns with every tool_use answered next', () => {
    const ok: AnthropicMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'task' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'look' }, use('a')] },
      { role: 'user', content: [result('a'), { type: 'text', text: 'more' }] },
    ];
    expect(validateAnthropicMessages(ok)).toEqual([]);
  });
  it.each([
    ['starting with the assistant', [{ role: 'assistant', content: [{ type: 'text', text: 'x' }] }], 'first message'],
    [
      'two user turns in a row',
      [
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'user', content: [{ type: 'text', text: 'b' }] },
      ],
      'in a row',
    ],
    [
      'an unanswered tool_use',
      [
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'assistant', content: [use('a')] },
        { role: 'user', content: [{ type: 'text', text: 'b' }] },
      ],
      'left unanswered',
    ],
    [
      'a result before text',
      [
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'assistant', content: [use('a')] },
        { role: 'user', content: [{ type: 'text', text: 'b' }, result('a')] },
      ],
      'must come first',
    ],
    [
      'an id with a colon',
      [
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'assistant', content: [use('call:1')] },
        { role: 'user', content: [result('call:1')] },
      ],
      'characters',
    ],
  ])('rejects %s', (_name, messages, message) => {
    expect(validateAnthropicMessages(messages as AnthropicMessage[]).join('\n')).toContain(message);
  });
});

describe('tool ids', () => {
  it('are provider-safe, stable and distinct', () => {
    const map = toolIdMapper();
    const a = map('call:12');
    expect(a).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    expect(map('call:12')).toBe(a);
    expect(map('call_12')).not.toBe(a);
    expect(map('x'.repeat(80))).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    expect(toolIdMapper()('call:12')).toBe(a);
  });
});
