import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Ledger } from '../../src/index.js';
import { agentLedger } from '../../src/integrations/cloudflare-agents/index.js';
import { codeOf } from '../helpers/ledgers.js';
import { MemoryKv } from '../helpers/memory-kv.js';

/**
 * `agentLedger` over an in-memory stand-in for `ctx.storage` (the real storage and the real
 * AIChatAgent run in test/workerd/cloudflare-agent.test.ts): one ledger per object, its keys under
 * a prefix, reopened from what the object stored.
 */
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const end = { finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] };
const scripted = () =>
  new MockLanguageModelV4({
    doGenerate: [
      {
        ...end,
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: '{"command":"cat -n a.py"}' }],
      },
      { ...end, content: [{ type: 'text', text: 'It prints hi.' }] },
    ],
  });
const bash = tool({ inputSchema: z.object({ command: z.string() }), execute: async () => '     1\tprint("hi")' });

const opened: Ledger[] = [];
afterAll(async () => {
  for (const ledger of opened) await ledger.close();
});

it('opens one ledger per object, keeps its keys under the prefix, and reopens it from what the object stored', async () => {
  const storage = new MemoryKv();
  await storage.put({ snapshot: 'the agent’s own key' });
  const [a, b] = await Promise.all([
    agentLedger(storage, { model: scripted(), budget: 8000 }),
    agentLedger(storage, { model: scripted(), budget: 8000 }),
  ]);
  opened.push(a.ledger);
  expect(b.ledger).toBe(a.ledger);

  const { text } = await generateText({
    model: a.model,
    prompt: 'What does a.py print?',
    tools: { bash },
    stopWhen: stepCountIs(5),
  });
  expect(text).toBe('It prints hi.');
  expect(a.ledger.lastTx).toBe(3);
  const keys = [...storage.data.keys()];
  expect(keys.filter((k) => !k.startsWith('context-ledger:'))).toEqual(['snapshot']);
  expect(storage.data.get('snapshot')).toBe('the agent’s own key');

  // A re-instantiated object: a new storage object over the same stored data.
  const restarted = new MemoryKv();
  for (const [k, v] of storage.data) restarted.data.set(k, v);
  const again = await agentLedger(restarted, { model: scripted(), budget: 8000 });
  opened.push(again.ledger);
  expect(again.ledger).not.toBe(a.ledger);
  expect(again.ledger.lastTx).toBe(3);
});

it('rejects a storage that is not ctx.storage and a budget that is not a positive token count, before opening', async () => {
  const model = scripted();
  expect(await codeOf(() => agentLedger({} as MemoryKv, { model, budget: 8000 }))).toBe('INVALID_OPTION');
  const storage = new MemoryKv();
  expect(await codeOf(() => agentLedger(storage, { model, budget: 0 }))).toBe('INVALID_OPTION');
  expect(await codeOf(() => agentLedger(storage, { model: undefined as never, budget: 8000 }))).toBe('INVALID_OPTION');
  expect(storage.data.size).toBe(0);
});

it('without the AI SDK, is DEPENDENCY_MISSING naming ai', async () => {
  vi.resetModules();
  vi.doMock('ai', () => {
    throw new Error("Cannot find package 'ai'");
  });
  try {
    const { agentLedger: withoutAi } = await import('../../src/integrations/cloudflare-agents/index.js');
    const e = await withoutAi(new MemoryKv(), { model: scripted(), budget: 8000 }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'DEPENDENCY_MISSING', details: { package: 'ai' } });
  } finally {
    vi.doUnmock('ai');
  }
});
