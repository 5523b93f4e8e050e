import { readFileSync } from 'node:fs';
import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import {
  PromptCache,
  promptBlocks,
  runLoop,
  toolLoopOf,
  unpairedToolCalls,
} from '../../scripts/eval/middleware-cache.js';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/transcripts/mini-swe-agent.traj.json', import.meta.url), 'utf8'),
) as unknown;

/** One token per character keeps the arithmetic readable. */
const chars = (text: string) => text.length;

const system: LanguageModelV4Message = { role: 'system', content: 'be brief' };
const task: LanguageModelV4Message = { role: 'user', content: [{ type: 'text', text: 'fix it' }] };
const call = (n: number, command = `ls ${n}`): LanguageModelV4Message => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: `c${n}`, toolName: 'bash', input: { command } }],
});
const result = (n: number, value = `out ${n}`): LanguageModelV4Message => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: `c${n}`, toolName: 'bash', output: { type: 'text', value } }],
});

describe('toolLoopOf', () => {
  it('turns each single-command turn into a step with its thought, command and recorded observation', () => {
    const loop = toolLoopOf(fixture);
    expect(loop.task).toBe('div() should return 0 when dividing by zero.');
    // 12 assistant turns, one of them a format error (two bash blocks): nothing ran, no step.
    expect(loop.steps.length).toBe(11);
    expect(loop.skipped).toBe(1);
    expect(loop.steps[0]).toEqual({
      thought: 'Find the module.',
      command: 'find . -name "*.py" | grep calc',
      observation: '<returncode>0</returncode>\n<output>\n./pkg/calc.py\n</output>',
    });
    expect(loop.steps.some((s) => s.command === 'ls' || s.command === 'pwd')).toBe(false);
    expect(loop.steps[10]!.command).toContain('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT');
  });
});

describe('PromptCache', () => {
  it('reads the parts a prompt shares from its start with the previous one, and counts as promptTokens does', () => {
    const cache = new PromptCache(chars);
    const first: LanguageModelV4Prompt = [system, task];
    expect(cache.send(first)).toEqual({ sent: 8 + 6, cached: 0 });
    const second: LanguageModelV4Prompt = [system, task, call(1), result(1)];
    // A call: its name and its input as JSON; a result: its tool's name and its output.
    const callTokens = 'bash'.length + JSON.stringify({ command: 'ls 1' }).length;
    const resultTokens = 'bash'.length + 'out 1'.length;
    expect(cache.send(second)).toEqual({ sent: 14 + callTokens + resultTokens, cached: 14 });
    // The same prompt again is read whole.
    expect(cache.send(second)).toEqual({
      sent: 14 + callTokens + resultTokens,
      cached: 14 + callTokens + resultTokens,
    });
    // A changed part ends the prefix there, even if later parts are the same.
    expect(cache.send([system, task, call(1), result(1, 'other')]).cached).toBe(14 + callTokens);
    expect(cache.send([system, call(1), result(1)]).cached).toBe(8);
    expect(cache.tally).toMatchObject({ requests: 5 });
    expect(cache.tally.written).toBe(cache.tally.sent - cache.tally.cached);
  });

  it('matches a part only in the same role, and a call or result only with the same id', () => {
    const asAssistant: LanguageModelV4Message = { role: 'assistant', content: [{ type: 'text', text: 'fix it' }] };
    const [a] = promptBlocks([task]);
    const [b] = promptBlocks([asAssistant]);
    expect(a!.text).toBe(b!.text);
    const cache = new PromptCache(chars);
    cache.send([task, call(1), result(1)]);
    expect(cache.send([asAssistant]).cached).toBe(0);
    cache.send([task, call(1), result(1)]);
    const renamed: LanguageModelV4Message = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c9', toolName: 'bash', input: { command: 'ls 1' } }],
    };
    expect(cache.send([task, renamed, result(1)]).cached).toBe(6);
  });
});

describe('unpairedToolCalls', () => {
  it('counts calls without a result and results without a call', () => {
    expect(unpairedToolCalls([system, task, call(1), result(1)])).toBe(0);
    expect(unpairedToolCalls([task, call(1), call(2), result(2), result(3)])).toBe(2);
  });
});

// One whole tool loop through the middleware over a real ledger: seconds on a loaded machine.
describe('runLoop', { timeout: 120_000 }, () => {
  it('replays the fixture as an AI SDK tool loop within the budget, every call paired', async () => {
    const loop = toolLoopOf(fixture);
    const run = await runLoop(loop, 600);
    expect(run.calls).toBe(loop.steps.length + 1);
    expect(run.untrimmed.requests).toBe(run.calls);
    expect(run.maxPromptTokens).toBeLessThanOrEqual(600);
    expect(run.unpaired).toBe(0);
    // The untrimmed prompt only grows: each call reads all of the one before from the cache.
    for (const [i, c] of run.perCall.entries())
      if (i > 0) expect(c.untrimmed.cached).toBe(run.perCall[i - 1]!.untrimmed.sent);
    expect(run.ledger.sent).toBeLessThan(run.untrimmed.sent);
    expect(run.ledger.cached).toBeGreaterThan(0);
  });
});
