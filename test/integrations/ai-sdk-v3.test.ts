import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
// AI SDK 6 itself (installed under the alias `ai-v6`), with its own mock model.
import {
  generateText,
  type ModelMessage,
  stepCountIs,
  streamText,
  ToolLoopAgent,
  tool,
  wrapLanguageModel,
} from 'ai-v6';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai-v6/test';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openLedger } from '../../src/entries/node.js';
import { type LedgerMiddlewareV3Options, ledgerMiddleware as v3Middleware } from '../../src/integrations/ai-sdk/v3.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { fromAISDK } from '../../src/recorder/index.js';
import { validateAnthropicMessages, validateOpenAIMessages } from '../../src/working-set/validate-messages.js';
import {
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

// AI SDK 6's own provider types (its nested `@ai-sdk/provider` 3), read off its mock model.
type V3Model = InstanceType<typeof MockLanguageModelV3>;
type LanguageModelV3CallOptions = Parameters<V3Model['doGenerate']>[0];
type LanguageModelV3Prompt = LanguageModelV3CallOptions['prompt'];
type LanguageModelV3StreamPart =
  Awaited<ReturnType<V3Model['doStream']>>['stream'] extends ReadableStream<infer T> ? T : never;

/**
 * The middleware typed as AI SDK 6 takes it. Here `@ai-sdk/provider` resolves to 4, whose copies of
 * the v3 types spell JSON values differently from provider 3's; an AI SDK 6 user's declarations
 * resolve to their provider 3, the one `ai` 6 uses.
 */
const ledgerMiddleware = (options: LedgerMiddlewareV3Options) =>
  v3Middleware(options) as unknown as Parameters<typeof wrapLanguageModel>[0]['middleware'];

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** An AI SDK 6 model that views one module per step, then answers; it keeps every prompt it receives. */
function scriptedModel(steps = STEPS) {
  const prompts: LanguageModelV3Prompt[] = [];
  let n = 0;
  const next = (options: LanguageModelV3CallOptions) => {
    prompts.push(options.prompt);
    return scriptedContent(n++, steps);
  };
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => ({
      content: next(options),
      finishReason: { unified: n <= steps ? 'tool-calls' : 'stop', raw: undefined },
      usage,
      warnings: [],
    }),
    doStream: async (options) => {
      const content = next(options);
      const parts = streamPartsOf(content, usage) as LanguageModelV3StreamPart[];
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
  return { model, prompts };
}

/** Within budget, every tool call paired in both provider shapes, the system prompt first. (The
 * helpers read text, tool-call and tool-result parts, which v3 and v4 prompts shape alike.) */
function expectWellFormed(prompts: readonly LanguageModelV3Prompt[], ledger: Ledger) {
  expect(prompts.length).toBeGreaterThan(0);
  for (const v3 of prompts) {
    const p = v3 as unknown as LanguageModelV4Prompt;
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
afterEach(async () => {
  for (const l of open.splice(0)) await l.close();
});
const track = (l: Ledger) => {
  open.push(l);
  return l;
};

describe('context-ledger/ai-sdk/v3 in an AI SDK 6 tool loop', { timeout: 300_000 }, () => {
  it('keeps every call within the budget and paired, records each turn once, and a resent history adds only the new turn', async () => {
    const ledger = track(await openLedger());
    expect(v3Middleware({ ledger, budget: BUDGET }).specificationVersion).toBe('v3');
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
    // The history outgrew the budget: the last call got a working set holding the newest output.
    const last = prompts[prompts.length - 1]!;
    expect(last.flatMap((m) => (m.role === 'tool' ? m.content : [])).length).toBeLessThan(STEPS);
    expect(JSON.stringify(last)).toContain(`module ${STEPS - 1}`);

    const history: ModelMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: TASK },
      ...result.response.messages,
    ];
    const fullLedger = track(await replayed(history));
    expect(await graphOf(ledger)).toEqual(await graphOf(fullLedger));
    expect(ledger.lastTx).toBe(fullLedger.lastTx);

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

  it('records streamed tool calls and text (streamText)', async () => {
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
    const messages = (await result.response).messages;
    expectWellFormed(prompts, ledger);
    const fullLedger = track(await replayed([{ role: 'user', content: TASK }, ...messages]));
    expect(await graphOf(ledger)).toEqual(await graphOf(fullLedger));
  });

  it('works as the model of a ToolLoopAgent, with the ledger picked per call by a getter', async () => {
    const ledger = track(await openLedger());
    const { model, prompts } = scriptedModel(3);
    const seen: LanguageModelV3CallOptions[] = [];
    const agent = new ToolLoopAgent({
      model: wrapLanguageModel({
        model,
        middleware: ledgerMiddleware({
          ledger: (params) => {
            seen.push(params as unknown as LanguageModelV3CallOptions);
            return ledger;
          },
          budget: BUDGET,
        }),
      }),
      instructions: SYSTEM,
      tools,
      stopWhen: stepCountIs(6),
    });
    const result = await agent.generate({ prompt: TASK });
    expectWellFormed(prompts, ledger);
    expect(seen.length).toBeGreaterThanOrEqual(prompts.length);
    const fullLedger = track(await replayed([{ role: 'user', content: TASK }, ...result.response.messages]));
    expect(await graphOf(ledger)).toEqual(await graphOf(fullLedger));
  });
});
