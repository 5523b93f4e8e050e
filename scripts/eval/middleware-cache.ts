/**
 * What an AI SDK user sends through `ledgerMiddleware` on a replayed tool loop: a mini-swe-agent
 * trajectory becomes a `generateText` tool loop (the task as the prompt, each recorded command a
 * `bash` tool call of a scripted `MockLanguageModelV4`, each recorded observation that tool's
 * result), run once through the middleware; every prompt the inner model receives, and every
 * untrimmed prompt the SDK passed in, goes through the prompt-cache model of request-cost.ts.
 */
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Middleware,
  LanguageModelV4Prompt,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { fromMiniSweAgent } from '../../src/adapters/index.js';
import { openLedger } from '../../src/entries/node.js';
import { ledgerMiddleware, promptTokens } from '../../src/integrations/ai-sdk/index.js';
import type { AnthropicBlock } from '../../src/working-set/render-messages.js';
import { addTally, type CacheTally, commonPrefixBlocks, emptyTally, type RequestBlock } from './request-cost.js';
import { transcriptOf } from './transcript.js';

/** One step of the loop: what the model says and the command it runs, and what the run printed. */
export interface LoopStep {
  thought: string;
  command: string;
  observation: string;
}

export interface ToolLoop {
  task: string;
  steps: LoopStep[];
  /** Turns that ran no command (mini-swe-agent's format errors): an AI SDK loop would have ended there. */
  skipped: number;
}

/** A mini-swe-agent trajectory as a tool loop, read through the same adapter the replay uses. */
export function toolLoopOf(trajectory: unknown): ToolLoop {
  const { messages } = transcriptOf(fromMiniSweAgent(trajectory).transactions, () => 0);
  const resultOf = new Map<string, string>();
  for (const m of messages) if (m.role === 'observation' && m.call !== undefined) resultOf.set(m.call, m.text);
  const steps: LoopStep[] = [];
  let skipped = 0;
  for (const m of messages) {
    if (m.role !== 'assistant' || m.turn === undefined) continue;
    const call = m.turn.calls[0];
    if (call === undefined || m.turn.calls.length !== 1) {
      skipped++;
      continue;
    }
    steps.push({ thought: m.turn.thought, command: call.body, observation: resultOf.get(call.id) ?? '' });
  }
  return { task: messages.find((m) => m.role === 'task')?.text ?? '', steps, skipped };
}

/** The text a part's tokens are counted on: what `promptTokens` counts of it. */
const partText = (p: { type: string } & Record<string, unknown>): string => {
  if (p.type === 'tool-call') return `${p.toolName}\n${JSON.stringify(p.input)}`;
  if (p.type === 'tool-result') {
    const o = p.output as { type: string; value?: unknown };
    const v = o.type === 'text' || o.type === 'error-text' ? String(o.value) : JSON.stringify(o.value ?? o);
    return `${p.toolName}\n${v}`;
  }
  return typeof p.text === 'string' ? p.text : JSON.stringify(p);
};

/**
 * An AI SDK prompt cut into the blocks a provider caches: every part with its message's role, a
 * system message one block. Tool calls and results carry their ids, so a part matches only the
 * same call's part.
 */
export function promptBlocks(prompt: LanguageModelV4Prompt): RequestBlock[] {
  const out: RequestBlock[] = [];
  for (const m of prompt) {
    if (m.role === 'system') {
      out.push({ role: 'system', block: { type: 'text', text: m.content }, text: m.content });
      continue;
    }
    for (const part of m.content) {
      const p = part as unknown as { type: string } & Record<string, unknown>;
      const text = partText(p);
      let block: AnthropicBlock;
      if (p.type === 'tool-call')
        block = {
          type: 'tool_use',
          id: String(p.toolCallId),
          name: String(p.toolName),
          input: p.input as Record<string, unknown>,
        };
      else if (p.type === 'tool-result')
        block = { type: 'tool_result', tool_use_id: String(p.toolCallId), content: text };
      else block = { type: 'text', text };
      out.push({ role: m.role, block, text });
    }
  }
  return out;
}

/** Tool calls without their result and results without their call in one prompt. */
export function unpairedToolCalls(prompt: LanguageModelV4Prompt): number {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const m of prompt) {
    if (m.role === 'system') continue;
    for (const p of m.content) {
      if (p.type === 'tool-call') calls.add(p.toolCallId);
      else if (p.type === 'tool-result') results.add(p.toolCallId);
    }
  }
  let n = 0;
  for (const c of calls) if (!results.has(c)) n++;
  for (const r of results) if (!calls.has(r)) n++;
  return n;
}

/** One call of a conversation in the prompt-cache model. */
export interface CallCost {
  sent: number;
  cached: number;
}

/**
 * One conversation's prompts in order: each is read from the cache up to the first part that
 * differs from the previous prompt's part at the same position (request-cost.ts's block match),
 * the rest written. Tokens are the middleware's own `promptTokens`, part by part.
 */
export class PromptCache {
  readonly tally: CacheTally = emptyTally();
  private previous: RequestBlock[] = [];

  constructor(private readonly countTokens: (text: string) => number) {}

  send(prompt: LanguageModelV4Prompt): CallCost {
    const blocks = promptBlocks(prompt);
    const shared = commonPrefixBlocks(this.previous, blocks);
    let sent = 0;
    let cached = 0;
    let i = 0;
    for (const m of prompt) {
      const parts = m.role === 'system' ? [m] : m.content.map((p) => ({ role: m.role, content: [p] }));
      for (const one of parts) {
        const tokens = promptTokens([one] as LanguageModelV4Prompt, this.countTokens);
        sent += tokens;
        if (i < shared) cached += tokens;
        i++;
      }
    }
    this.previous = blocks;
    addTally(this.tally, { requests: 1, sent, cached, written: sent - cached });
    return { sent, cached };
  }
}

/** What one run of a loop at one budget measured. */
export interface LoopRun {
  budget: number;
  calls: number;
  ledger: CacheTally;
  untrimmed: CacheTally;
  /** The largest prompt the inner model received, in `promptTokens`. */
  maxPromptTokens: number;
  unpaired: number;
  /** Calls whose working set was a session re-pack (the first call excluded). */
  repacks: CacheTally;
  /**
   * Calls whose working set was asked under another budget than the call before: the middleware's
   * reserve for the rendering's framing grew, and the session fold is keyed by the budget.
   */
  budgetChanges: CacheTally;
  /** Per call: tokens sent and cached through the middleware, the untrimmed prompt's, the
   * working set's budget (the last `materialize` of the call) and its session step. */
  perCall: Array<{ ledger: CallCost; untrimmed: CallCost; wsBudget: number; step: string }>;
}

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** The AI SDK's own mock model scripted to replay the loop's steps, then answer. */
export function scriptedModel(loop: ToolLoop, onPrompt: (prompt: LanguageModelV4Prompt) => void) {
  let k = 0;
  return new MockLanguageModelV4({
    doGenerate: async (options: LanguageModelV4CallOptions) => {
      onPrompt(options.prompt);
      const step = loop.steps[k];
      const id = `call_${k}`;
      k++;
      if (step === undefined)
        return {
          content: [{ type: 'text', text: 'Done.' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
      return {
        content: [
          ...(step.thought.length > 0 ? [{ type: 'text' as const, text: step.thought }] : []),
          { type: 'tool-call', toolCallId: id, toolName: 'bash', input: JSON.stringify({ command: step.command }) },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

/** A `bash` tool that prints each call's recorded observation. */
export function replayedBash(loop: ToolLoop) {
  return tool({
    description: 'Run a bash command in the repository',
    inputSchema: z.object({ command: z.string() }),
    execute: async (_input, { toolCallId }) => loop.steps[Number(toolCallId.slice('call_'.length))]?.observation ?? '',
  });
}

/**
 * Runs the loop through `ledgerMiddleware` on a fresh in-memory ledger at one budget. A passthrough
 * middleware outside it sees the prompt the SDK would have sent without it.
 */
export async function runLoop(loop: ToolLoop, budget: number): Promise<LoopRun> {
  const ledger = await openLedger();
  try {
    const counted = new Map<string, number>();
    const countTokens = (text: string) => {
      let n = counted.get(text);
      if (n === undefined) {
        n = ledger.countTokens(text);
        counted.set(text, n);
      }
      return n;
    };
    const trimmed = new PromptCache(countTokens);
    const full = new PromptCache(countTokens);
    const run: LoopRun = {
      budget,
      calls: 0,
      ledger: trimmed.tally,
      untrimmed: full.tally,
      maxPromptTokens: 0,
      unpaired: 0,
      repacks: emptyTally(),
      budgetChanges: emptyTally(),
      perCall: [],
    };
    // What the middleware asked of the ledger: the last materialize before each model call.
    let asked = { budget: 0, step: '' };
    const materialize = ledger.materialize.bind(ledger);
    ledger.materialize = async (request) => {
      const ws = await materialize(request);
      asked = { budget: request?.budget?.tokens ?? 0, step: ws.session?.step ?? 'fresh' };
      return ws;
    };
    let pendingUntrimmed: CallCost | undefined;
    const capture: LanguageModelV4Middleware = {
      specificationVersion: 'v4',
      transformParams: async ({ params }) => {
        pendingUntrimmed = full.send(params.prompt);
        return params;
      },
    };
    const model = scriptedModel(loop, (prompt) => {
      const c = trimmed.send(prompt);
      const tally = { requests: 1, sent: c.sent, cached: c.cached, written: c.sent - c.cached };
      const last = run.perCall[run.perCall.length - 1];
      if (last !== undefined && asked.step === 'repack') addTally(run.repacks, tally);
      if (last !== undefined && asked.budget !== last.wsBudget) addTally(run.budgetChanges, tally);
      run.calls++;
      run.maxPromptTokens = Math.max(run.maxPromptTokens, promptTokens(prompt, countTokens));
      run.unpaired += unpairedToolCalls(prompt);
      run.perCall.push({
        ledger: c,
        untrimmed: pendingUntrimmed ?? { sent: 0, cached: 0 },
        wsBudget: asked.budget,
        step: asked.step,
      });
    });
    await generateText({
      model: wrapLanguageModel({
        model: wrapLanguageModel({ model, middleware: ledgerMiddleware({ ledger, budget }) }),
        middleware: capture,
      }),
      prompt: loop.task,
      tools: { bash: replayedBash(loop) },
      stopWhen: stepCountIs(loop.steps.length + 1),
    });
    return run;
  } finally {
    await ledger.close();
  }
}
