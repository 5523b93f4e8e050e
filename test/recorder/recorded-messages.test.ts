import { describe, expect, it, vi } from 'vitest';
import { aiSdkTurns } from '../../src/adapters/chat/ai-sdk.js';
import { plainCopy, samePlain } from '../../src/recorder/plain-json.js';
import { RecordedMessages } from '../../src/recorder/recorded-messages.js';

const toolCall = (input: unknown) => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input }],
});

describe('RecordedMessages', () => {
  it('recognises a message resent as a new object without parsing it again', () => {
    const recorded = new RecordedMessages();
    const turnsOf = vi.fn(aiSdkTurns);
    const message = { role: 'user', content: [{ type: 'text', text: 'Fix the parser.' }] };
    expect(recorded.record(message, 0, turnsOf)).toEqual([{ kind: 'user', text: 'Fix the parser.' }]);
    expect(recorded.record(structuredClone(message), 0, turnsOf)).toBeUndefined();
    expect(turnsOf).toHaveBeenCalledTimes(1);
  });

  it('treats a tool call given as JSON text (the model’s output) and as an object (the next prompt) as one message', () => {
    const recorded = new RecordedMessages();
    const turnsOf = vi.fn(aiSdkTurns);
    expect(recorded.record(toolCall('{"command":"ls"}'), 3, turnsOf)).toBeDefined();
    expect(recorded.record(toolCall({ command: 'ls' }), 3, turnsOf)).toBeUndefined();
    // The object form is known now: resending it again parses nothing.
    expect(recorded.record(toolCall({ command: 'ls' }), 3, turnsOf)).toBeUndefined();
    expect(turnsOf).toHaveBeenCalledTimes(2);
  });

  it('records a message edited in place and resent (what was recorded is a copy, not the caller’s object)', () => {
    const recorded = new RecordedMessages();
    const message = { role: 'user', content: [{ type: 'text', text: 'Fix the parser.' }] };
    recorded.record(message, 1, aiSdkTurns);
    message.content[0]!.text = 'Fix the lexer.';
    expect(recorded.record(message, 1, aiSdkTurns)).toEqual([{ kind: 'user', text: 'Fix the lexer.' }]);
    expect(recorded.record({ role: 'user', content: 'Fix the parser.' }, 1, aiSdkTurns)).toBeUndefined();
  });

  it('compares messages that are not plain JSON (binary file parts, throwing getters) by their turns', () => {
    const recorded = new RecordedMessages();
    const file = (bytes: number[]) => ({
      role: 'user',
      content: [
        { type: 'text', text: 'See the screenshot.' },
        { type: 'file', mediaType: 'image/png', data: new Uint8Array(bytes) },
      ],
    });
    expect(recorded.record(file([1, 2]), 0, aiSdkTurns)).toBeDefined();
    expect(recorded.record(file([1, 2]), 0, aiSdkTurns)).toBeUndefined();
    const unreadable = { role: 'assistant' };
    Object.defineProperty(unreadable, 'content', {
      enumerable: true,
      get() {
        throw new Error('unreadable');
      },
    });
    const turnsOf = (m: unknown) => {
      try {
        return aiSdkTurns(m);
      } catch (e) {
        return [{ kind: 'malformed' as const, reason: String(e), raw: '' }];
      }
    };
    expect(recorded.record(unreadable, 1, turnsOf)).toHaveLength(1);
    expect(recorded.record(unreadable, 1, turnsOf)).toBeUndefined();
  });
});

describe('plainCopy / samePlain', () => {
  it('copies plain JSON sharing its strings, and refuses anything else', () => {
    const text = 'x'.repeat(1000);
    const copy = plainCopy({ a: [text, 1, true, null], b: undefined }) as { a: unknown[] };
    expect(copy).toEqual({ a: [text, 1, true, null] });
    expect(copy.a[0]).toBe(text);
    for (const v of [new Uint8Array(2), new Date(0), Number.NaN, () => 1, { u: new URL('https://a.b') }])
      expect(plainCopy(v)).toBeUndefined();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(plainCopy(cyclic)).toBeUndefined();
  });

  it('compares a value with a copy field by field, ignoring undefined fields', () => {
    const copy = plainCopy({ role: 'tool', content: [{ type: 'text', value: 'ok' }] });
    expect(samePlain({ content: [{ value: 'ok', type: 'text' }], role: 'tool', extra: undefined }, copy)).toBe(true);
    expect(samePlain({ role: 'tool', content: [{ type: 'text', value: 'ok!' }] }, copy)).toBe(false);
    expect(samePlain({ role: 'tool', content: [{ type: 'text', value: 'ok' }], more: 1 }, copy)).toBe(false);
    expect(samePlain({ role: 'tool', content: { 0: { type: 'text', value: 'ok' } } }, copy)).toBe(false);
  });
});
