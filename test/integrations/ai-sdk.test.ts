import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { generateText, type ModelMessage, stepCountIs, streamText, ToolLoopAgent, tool, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { nodeDirectoryStorage, openLedger } from '../../src/entries/node.js';
import { ledgerMiddleware } from '../../src/integrations/ai-sdk/index.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { fromAISDK } from '../../src/recorder/index.js';
import type { MaterializeRequest } from '../../src/working-set/types.js';
import { validateAnthropicMessages, validateOpenAIMessages } from '../../src/working-set/validate-messages.js';
import {
  ANSWER,
  asAnthropic,
  asOpenAI,
  bashOutput,
  graphOf,
  receivedTokens,
  SYSTEM,
  scriptedContent,
  streamPartsOf,
  TASK,
} from './ai-sdk-helpers.js';

const BUDGET = 1200;
const STEPS = 8;
const tools = {
  bash: tool({
    description: 'Run a shell command',
    inputSchema: z.object({ command: z.string() }),
    execute: async ({ command }) => bashOutput(command),
  }),
};

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model that views one module per step, then answers; it records every prompt it receives. */
function scriptedModel(steps = STEPS, start = 0) {
  const prompts: LanguageModelV4Prompt[] = [];
  let n = start;
  const next = (options: LanguageModelV4CallOptions) => {
    prompts.push(options.prompt);
    return scriptedContent(n++, steps);
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => ({
      content: next(options),
      finishReason: { unified: n <= steps ? 'tool-calls' : 'stop', raw: undefined },
      usage,
      warnings: [],
    }),
    doStream: async (options) => {
      const content = next(options);
      const parts = streamPartsOf(content, usage) as LanguageModelV4StreamPart[];
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
  return { model, prompts };
}

/** What the issue asks of every call: within budget, every tool call paired in both provider shapes. */
function expectWellFormed(prompts: readonly LanguageModelV4Prompt[], ledger: Ledger) {
  expect(prompts.length).toBeGreaterThan(0);
  for (const p of prompts) {
    expect(receivedTokens(p, (s) => ledger.countTokens(s))).toBeLessThanOrEqual(BUDGET);
    expect(validateOpenAIMessages(asOpenAI(p))).toEqual([]);
    expect(validateAnthropicMessages(asAnthropic(p))).toEqual([]);
    expect(p[0]).toEqual({ role: 'system', content: SYSTEM });
  }
}

async function replayed(messages: readonly ModelMessage[]): Promise<Ledger> {
  const ledger = await openLedger();
  for (const tx of fromAISDK(messages).transactions) await ledger.commit(tx);
  return ledger;
}

const open: Ledger[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const l of open.splice(0)) await l.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
const track = (l: Ledger) => {
  open.push(l);
  return l;
};

// Whole tool loops over real ledgers: minutes on a loaded 2-core machine.
describe('ledgerMiddleware in an AI SDK tool loop', { timeout: 300_000 }, () => {
  it('keeps every call within the budget and paired, and records the loop as the transcript adapter would', async () => {
    const ledger = track(await openLedger());
    const { model, prompts } = scriptedModel();
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: ledgerMiddleware({ ledger, budget: BUDGET }) }),
      system: SYSTEM,
      prompt: TASK,
      tools,
      stopWhen: stepCountIs(STEPS + 2),
    });
    expect(result.steps.length).toBe(STEPS + 1);
    expect(result.text).toContain('Fixed');
    expectWellFormed(prompts, ledger);
    // The last call could not hold every output, but held the one the model had just asked for.
    const last = prompts[prompts.length - 1]!;
    const results = last.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results.length).toBeLessThan(STEPS);
    expect(JSON.stringify(last)).toContain(`module ${STEPS - 1}`);

    // The whole history is far beyond the budget: the later calls got a working set, not the history.
    const history: ModelMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: TASK },
      ...result.responseMessages,
    ];
    const full = replayed(history);
    const fullLedger = track(await full);
    const kinds = (await graphOf(ledger)).nodes.map((n) => n.kind);
    expect(kinds.filter((k) => k === 'tool_call').length).toBe(STEPS);
    expect(kinds.filter((k) => k === 'evidence').length).toBe(STEPS);
    expect(await graphOf(ledger)).toEqual(await graphOf(fullLedger));
    expect(ledger.lastTx).toBe(fullLedger.lastTx);
    // The final answer is recorded once, as the assistant's message.
    const answers = (await graphOf(ledger)).nodes.filter((n) => n.kind === 'message' && n.role === 'assistant');
    expect(answers.map((n) => n.body)).toEqual([ANSWER]);

    // Resending the whole history (a follow-up call) adds only the new turn.
    const before = ledger.lastTx;
    const again = scriptedModel(0);
    await generateText({
      model: wrapLanguageModel({ model: again.model, middleware: ledgerMiddleware({ ledger, budget: BUDGET }) }),
      messages: history.slice(1),
      system: SYSTEM,
    });
    expect(ledger.lastTx).toBe(before + 1);
    expectWellFormed(again.prompts, ledger);
  });

  it('asks the ledger under one budget through the loop: one session fold, every prompt within the budget', async () => {
    const ledger = track(await openLedger());
    // What the middleware asks of the ledger, call by call.
    const asked: MaterializeRequest[] = [];
    const read = ledger.materialize.bind(ledger);
    vi.spyOn(ledger, 'materialize').mockImplementation(async (request) => {
      asked.push(structuredClone(request));
      return read(request);
    });
    const steps = 12;
    const { model, prompts } = scriptedModel(steps);
    await generateText({
      model: wrapLanguageModel({ model, middleware: ledgerMiddleware({ ledger, budget: BUDGET }) }),
      system: SYSTEM,
      prompt: TASK,
      tools,
      stopWhen: stepCountIs(steps + 2),
    });
    expect(prompts.length).toBe(steps + 1);
    expectWellFormed(prompts, ledger);
    // The history outgrew the budget many times over: the prompts were near full.
    const sizes = prompts.map((p) => receivedTokens(p, (t) => ledger.countTokens(t)));
    expect(Math.max(...sizes)).toBeGreaterThan(BUDGET * 0.8);
    // Once per call, always under the whole budget less the system prompt: the working set counts
    // the rendering's framing itself, so no reserve learnt from an overflow changed the budget
    // (which would start another session fold and break the prompt's cached prefix).
    expect(asked.length).toBe(prompts.length);
    expect(new Set(asked.map((r) => r.budget.tokens))).toEqual(new Set([BUDGET - ledger.countTokens(SYSTEM)]));
    expect(asked.every((r) => r.framing === 'messages')).toBe(true);
  });

  it('records streamed tool calls and text the same way (streamText)', async () => {
    const ledger = track(await openLedger());
    const { model, prompts } = scriptedModel(4);
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: ledgerMiddleware({ ledger, budget: BUDGET }) }),
      system: SYSTEM,
      prompt: TASK,
      tools,
      stopWhen: stepCountIs(8),
    });
    await result.consumeStream();
    const messages = await result.responseMessages;
    expectWellFormed(prompts, ledger);
    const fullLedger = track(await replayed([{ role: 'user', content: TASK }, ...messages]));
    expect(await graphOf(ledger)).toEqual(await graphOf(fullLedger));
  });

  it('works as the model of a ToolLoopAgent', async () => {
    const ledger = track(await openLedger());
    const { model, prompts } = scriptedModel(3);
    const agent = new ToolLoopAgent({
      model: wrapLanguageModel({ model, middleware: ledgerMiddleware({ ledger, budget: BUDGET }) }),
      instructions: SYSTEM,
      tools,
      stopWhen: stepCountIs(6),
    });
    const result = await agent.generate({ prompt: TASK });
    expectWellFormed(prompts, ledger);
    const fullLedger = track(await replayed([{ role: 'user', content: TASK }, ...result.responseMessages]));
    expect(await graphOf(ledger)).toEqual(await graphOf(fullLedger));
  });

  it('continues a session after the process is killed and the durable ledger reopened', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctxl-ai-sdk-'));
    dirs.push(dir);
    const first = await openLedger({ storage: await nodeDirectoryStorage(dir) });
    const part = scriptedModel(STEPS);
    const r1 = await generateText({
      model: wrapLanguageModel({ model: part.model, middleware: ledgerMiddleware({ ledger: first, budget: BUDGET }) }),
      system: SYSTEM,
      prompt: TASK,
      tools,
      stopWhen: stepCountIs(3),
    });
    await first.close(); // the process ends mid-task: the last tool calls were answered but not yet sent back

    const second = track(await openLedger({ storage: await nodeDirectoryStorage(dir) }));
    const rest = scriptedModel(STEPS, 3);
    const history: ModelMessage[] = [{ role: 'user', content: TASK }, ...r1.responseMessages];
    const r2 = await generateText({
      model: wrapLanguageModel({ model: rest.model, middleware: ledgerMiddleware({ ledger: second, budget: BUDGET }) }),
      system: SYSTEM,
      messages: history,
      tools,
      stopWhen: stepCountIs(STEPS),
    });
    expectWellFormed([...part.prompts, ...rest.prompts], second);
    const fullLedger = track(await replayed([...history, ...r2.responseMessages]));
    expect(await graphOf(second)).toEqual(await graphOf(fullLedger));
  });

  it('picks the ledger per session with a getter', async () => {
    const ledgers = new Map<string, Ledger>();
    const middleware = ledgerMiddleware({
      budget: BUDGET,
      ledger: async (params) => {
        const id = String(params.providerOptions?.session?.id);
        if (!ledgers.has(id)) ledgers.set(id, track(await openLedger()));
        return ledgers.get(id)!;
      },
    });
    for (const id of ['a', 'b']) {
      const { model } = scriptedModel(2);
      await generateText({
        model: wrapLanguageModel({ model, middleware }),
        prompt: `${TASK} (${id})`,
        tools,
        stopWhen: stepCountIs(4),
        providerOptions: { session: { id } },
      });
    }
    const tasks = await Promise.all(
      ['a', 'b'].map(async (id) => (await graphOf(ledgers.get(id)!)).nodes.find((n) => n.kind === 'task')?.body),
    );
    expect(tasks).toEqual([`${TASK} (a)`, `${TASK} (b)`]);
  });

  it('rejects a missing budget with INVALID_OPTION naming it', async () => {
    const ledger = track(await openLedger());
    expect(() => ledgerMiddleware({ ledger, budget: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', details: expect.objectContaining({ field: 'budget' }) }),
    );
  });
});
