import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isStanding, isSteering } from '../../src/adapters/chat/chat-steps.js';
import { fromAnthropic, fromOpenAI } from '../../src/adapters/index.js';
import { checkTrace, edgeStrings, node, nodesOf } from './trace-check.js';

const load = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/transcripts/${name}`, import.meta.url), 'utf8'));

describe('fromOpenAI', () => {
  const trace = fromOpenAI(load('openai-chat.json'));

  it('passes the structural checks', () => {
    checkTrace(trace);
  });

  it('emits the first user message as the task and drops the system prompt', () => {
    expect(trace.transactions[0]?.nodes).toEqual([
      {
        id: 'task',
        kind: 'task',
        authority: 'user',
        status: 'open',
        body: 'Make div() return 0 for b == 0 in pkg/calc.py.',
      },
    ]);
    expect(JSON.stringify(trace)).not.toContain('You are a coding agent.');
  });

  it('pairs several calls of one turn with their results by id, whatever the order of the results', () => {
    expect(node(trace, 'call:1:1')).toMatchObject({
      tool: 'bash',
      body: "nl -ba pkg/calc.py | sed -n '8,9p'",
      meta: { callId: 'call_a' },
    });
    expect(node(trace, 'result:1:1').body).toBe('     8\tdef div(a, b):\n     9\t    return a / b\n');
    expect(node(trace, 'result:1:2').body).toBe('==== 1 failed in 0.02s ====\n');
    expect(edgeStrings(trace)).toEqual(
      expect.arrayContaining(['call:1:1 produces result:1:1', 'call:1:2 produces result:1:2']),
    );
  });

  it('recognises views, verifiers and editor writes in tool calls', () => {
    expect(node(trace, 'ev:1:1')).toMatchObject({ path: 'pkg/calc.py', range: [8, 9], revision: 'base' });
    expect(node(trace, 'ver:1')).toMatchObject({ verifier: 'pytest tests/test_calc.py', status: 'failed' });
    expect(node(trace, 'rev:2:1')).toMatchObject({ path: 'pkg/calc.py', changed: [[9, 9]] });
    expect(node(trace, 'ev:2:1')).toMatchObject({
      range: [8, 9],
      revision: 'rev:2:1',
      body: 'def div(a, b):\n    return a / b if b else 0',
    });
  });

  it('keeps an orphan result as a tool message and an unanswered call with a placeholder result', () => {
    expect(node(trace, 'msg:3')).toMatchObject({ kind: 'message', role: 'tool', body: 'stray output' });
    expect(node(trace, 'result:5')).toMatchObject({
      kind: 'tool_result',
      status: 'error',
      body: '[no result recorded]',
    });
    expect(trace.stats.warnings).toEqual([
      { step: 3, reason: 'tool result without a matching call (call_zzz)' },
      { step: 5, reason: 'call call_d has no result' },
      { step: 8, reason: 'message is not an object' },
    ]);
  });

  it('turns later user messages into steering or open requests, and text-only turns into messages', () => {
    expect(node(trace, 'steer:4')).toMatchObject({ kind: 'steering', authority: 'user', status: 'open' });
    expect(edgeStrings(trace)).toContain('steer:4 plans act:5');
    expect(node(trace, 'req:6')).toMatchObject({
      kind: 'message',
      role: 'user',
      authority: 'user',
      status: 'open',
      body: 'What did you change?',
    });
    // The reply without tool calls answers it.
    expect(trace.transactions.find((tx) => tx.epoch === 7)?.transitions).toEqual([{ id: 'req:6', status: 'resolved' }]);
    expect(trace.transactions.filter((tx) => tx.transitions !== undefined)).toHaveLength(1);
    expect(node(trace, 'msg:7')).toMatchObject({
      kind: 'message',
      role: 'assistant',
      body: 'I changed div() to return 0 when b is 0.',
    });
    expect(nodesOf(trace, 'action').map((a) => a.id)).toEqual(['act:1', 'act:2', 'act:5', 'act:8']);
  });

  it('keeps a malformed entry as a plain result and never throws on odd input', () => {
    expect(node(trace, 'result:8')).toMatchObject({ status: 'error', body: '"garbage"', meta: { unparsed: true } });
    expect(() => fromOpenAI('nope')).toThrow(TypeError);
    for (const odd of [
      [],
      [null],
      [{ role: 'assistant', tool_calls: [null, { function: { arguments: '{bad json' } }] }],
      [{ role: 'tool' }],
      [{ role: 42 }],
    ]) {
      checkTrace(fromOpenAI(odd));
    }
  });

  it('accepts { messages } and is deterministic', () => {
    const a = fromOpenAI({ messages: load('openai-chat.json') });
    expect(JSON.stringify(a)).toBe(JSON.stringify(trace));
  });
});

describe('fromAnthropic', () => {
  const trace = fromAnthropic(load('anthropic-messages.json'), { repoRoot: '/repo' });

  it('passes the structural checks', () => {
    checkTrace(trace);
  });

  it('reads text-editor views and bash edits, stripping the given repo root', () => {
    expect(node(trace, 'call:1')).toMatchObject({ tool: 'str_replace_based_edit_tool', meta: { callId: 'toolu_1' } });
    expect(node(trace, 'ev:1:1')).toMatchObject({
      path: 'pkg/calc.py',
      range: [8, 9],
      body: 'def div(a, b):\n    return a / b',
    });
    expect(node(trace, 'rev:2:1')).toMatchObject({ path: 'pkg/calc.py', changed: [[9, 9]] });
    expect(node(trace, 'ver:2')).toMatchObject({ verifier: 'python reproduce_issue.py', status: 'passed' });
  });

  it('marks is_error results as error and never cites their output as a view', () => {
    expect(node(trace, 'result:2:2')).toMatchObject({ status: 'error' });
    expect(nodesOf(trace, 'evidence').map((e) => e.path)).toEqual(['pkg/calc.py']);
  });

  it('splits a user message into its tool results and its new text', () => {
    expect(node(trace, 'msg:3')).toMatchObject({ role: 'tool', body: 'orphan' });
    expect(node(trace, 'steer:4').body).toBe('Instead of sed, use the editor tool next time.');
    expect(node(trace, 'result:5').body).toBe('[no result recorded]');
    expect(node(trace, 'msg:6')).toMatchObject({ role: 'assistant' });
    expect(node(trace, 'req:7')).toMatchObject({ role: 'user', status: 'open', body: 'thanks, looks good' });
    expect(trace.stats.warnings.map((w) => w.step)).toEqual([3, 5]);
  });

  it('without repoRoot keeps absolute paths consistent', () => {
    const t = fromAnthropic(load('anthropic-messages.json'));
    expect(node(t, 'ev:1:1').path).toBe('/repo/pkg/calc.py');
    expect(node(t, 'rev:2:1').path).toBe('/repo/pkg/calc.py');
  });

  it('is deterministic and never throws on malformed messages', () => {
    expect(JSON.stringify(fromAnthropic(load('anthropic-messages.json'), { repoRoot: '/repo' }))).toBe(
      JSON.stringify(trace),
    );
    checkTrace(
      fromAnthropic([{ role: 'user', content: 5 }, 'x', { role: 'assistant', content: [null, { type: 'tool_use' }] }]),
    );
    expect(() => fromAnthropic(null)).toThrow(TypeError);
  });
});

describe('isSteering', () => {
  it('separates instructions from questions and acknowledgements', () => {
    expect(
      [
        'Please run the full suite',
        "Don't touch the tests",
        'Use pytest, not unittest',
        'You should revert that',
        'Stop editing setup.py',
      ].map(isSteering),
    ).toEqual([true, true, true, true, true]);
    expect(['What did you change?', 'thanks, looks good', 'Here is the log:\nError 42'].map(isSteering)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('tells standing instructions from one-off ones', () => {
    expect(
      ["Don't touch the tests", 'Always run the linter', 'From now on use pytest', 'Avoid new dependencies'].map(
        isStanding,
      ),
    ).toEqual([true, true, true, true]);
    expect(['Please run the full suite', 'Stop editing setup.py', 'Use pytest for this one'].map(isStanding)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
