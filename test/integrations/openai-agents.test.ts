import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  run,
  setTracingDisabled,
  tool,
  Usage,
} from '@openai/agents-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { fromOpenAIAgents } from '../../src/adapters/chat/openai-agents.js';
import { LedgerSession, ledgerInputFilter } from '../../src/integrations/openai-agents/index.js';
import { itemTokens } from '../../src/integrations/openai-agents/render-items.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import type { OpenAIMessage } from '../../src/working-set/render-messages.js';
import type { MaterializeRequest } from '../../src/working-set/types.js';
import { validateOpenAIMessages } from '../../src/working-set/validate-messages.js';
import { LedgerPool } from '../helpers/ledgers.js';
import { bashOutput, graphOf } from './ai-sdk-helpers.js';

const BUDGET = 1000;
const STEPS = 7;
const TASK = 'Find why parse_header drops the last byte.';
const INSTRUCTIONS = 'You are a careful coding agent.';

const bash = tool({
  name: 'bash',
  description: 'Run a shell command',
  parameters: z.object({ command: z.string() }),
  execute: async ({ command }) => bashOutput(command),
});

/** A model through the SDK's own Model interface: views one module per call, then answers. */
class ScriptedModel implements Model {
  readonly inputs: Array<{ instructions: string | undefined; input: AgentInputItem[] }> = [];
  private n = 0;
  constructor(private readonly steps: number) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.inputs.push({
      instructions: request.systemInstructions,
      input: typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input,
    });
    const k = this.n++;
    return {
      usage: new Usage(),
      output:
        k < this.steps
          ? [
              {
                type: 'function_call',
                callId: `call_${k}`,
                name: 'bash',
                arguments: JSON.stringify({ command: `cat -n src/mod${k}.py` }),
                status: 'completed',
              },
            ]
          : [
              {
                type: 'message',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: 'It slices one byte short.' }],
              },
            ],
    };
  }
  // biome-ignore lint/correctness/useYield: this model only answers getResponse
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not scripted');
  }
}

/** Items as OpenAI chat messages, for the pairing validator. */
function asOpenAI(items: readonly AgentInputItem[]): OpenAIMessage[] {
  const out: OpenAIMessage[] = [];
  for (const item of items) {
    if ('role' in item) {
      const text =
        typeof item.content === 'string' ? item.content : item.content.map((p) => ('text' in p ? p.text : '')).join('');
      out.push({ role: item.role === 'assistant' ? 'assistant' : 'user', content: text });
    } else if (item.type === 'function_call') {
      const last = out[out.length - 1];
      const call = {
        id: item.callId,
        type: 'function' as const,
        function: { name: item.name, arguments: item.arguments },
      };
      // Consecutive calls (and the text before them) are one assistant message.
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
      else out.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (item.type === 'function_call_result') {
      out.push({ role: 'tool', tool_call_id: item.callId, content: JSON.stringify(item.output) });
    }
  }
  return out;
}

function receivedTokens(
  input: readonly AgentInputItem[],
  instructions: string | undefined,
  count: (s: string) => number,
) {
  let n = count(instructions ?? '');
  for (const item of input)
    n += count(
      JSON.stringify(
        'role' in item
          ? item.content
          : item.type === 'function_call'
            ? [item.name, item.arguments]
            : item.type === 'function_call_result'
              ? [item.name, item.output]
              : '',
      ),
    );
  return n;
}

const pool = new LedgerPool();
beforeAll(() => setTracingDisabled(true));
afterAll(() => pool.close());

describe('LedgerSession and ledgerInputFilter with the OpenAI Agents SDK', { timeout: 300_000 }, () => {
  it('keeps every model input paired and within the budget, and records the run as the items adapter would', async () => {
    const ledger: Ledger = await pool.ledger(0);
    const session = new LedgerSession(ledger, { sessionId: 's1' });
    const model = new ScriptedModel(STEPS);
    const agent = new Agent({ name: 'coder', instructions: INSTRUCTIONS, model, tools: [bash] });
    const result = await run(agent, TASK, {
      session,
      callModelInputFilter: ledgerInputFilter(session, { budget: BUDGET }),
      maxTurns: STEPS + 3,
    });
    expect(result.finalOutput).toBe('It slices one byte short.');
    expect(model.inputs.length).toBe(STEPS + 1);
    for (const { input, instructions } of model.inputs) {
      expect(validateOpenAIMessages(asOpenAI(input))).toEqual([]);
      // JSON framing counts against the input here, so this bound is stricter than the filter's own count.
      expect(receivedTokens(input, instructions, (s) => ledger.countTokens(s))).toBeLessThanOrEqual(BUDGET * 1.2);
    }
    const last = model.inputs[model.inputs.length - 1]!.input;
    expect(last.filter((i) => 'type' in i && i.type === 'function_call_result').length).toBeLessThan(STEPS);
    expect(JSON.stringify(last)).toContain(`module ${STEPS - 1}`);

    const items = await session.getItems();
    expect(items.length).toBe(1 + 2 * STEPS + 1);
    const replay = await pool.ledger(1);
    for (const tx of fromOpenAIAgents(items).transactions) await replay.commit(tx);
    expect(await graphOf(ledger)).toEqual(await graphOf(replay));

    // Resending the whole history records nothing.
    const before = ledger.lastTx;
    await session.recorder.sync(items);
    await session.addItems([]);
    expect(ledger.lastTx).toBe(before);
    expect(await session.getSessionId()).toBe('s1');
    expect(await session.getItems(2)).toEqual(items.slice(-2));
    expect(await session.popItem()).toEqual(items[items.length - 1]);
    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
  });

  it('asks the ledger under one budget through the run (one session fold), every input within it', async () => {
    const ledger: Ledger = await pool.ledger(0);
    const asked: MaterializeRequest[] = [];
    const read = ledger.materialize.bind(ledger);
    vi.spyOn(ledger, 'materialize').mockImplementation(async (request) => {
      asked.push(structuredClone(request));
      return read(request);
    });
    const session = new LedgerSession(ledger);
    const steps = 12;
    // Tight enough that the inputs fill it: every output is a 30-line file view.
    const budget = 600;
    const model = new ScriptedModel(steps);
    const agent = new Agent({ name: 'coder', instructions: INSTRUCTIONS, model, tools: [bash] });
    await run(agent, TASK, {
      session,
      callModelInputFilter: ledgerInputFilter(session, { budget }),
      maxTurns: steps + 3,
    });
    expect(model.inputs.length).toBe(steps + 1);
    const count = (t: string) => ledger.countTokens(t);
    for (const { input, instructions } of model.inputs) {
      expect(validateOpenAIMessages(asOpenAI(input))).toEqual([]);
      expect(count(instructions ?? '') + itemTokens(input, count)).toBeLessThanOrEqual(budget);
    }
    // Once per call, always under the budget less the instructions: the working set counts the
    // items' framing itself, so no reserve learnt from an overflow changed the budget.
    expect(asked.length).toBe(model.inputs.length);
    expect(new Set(asked.map((r) => r.budget.tokens))).toEqual(new Set([budget - count(INSTRUCTIONS)]));
  });

  it('rejects a filter without a budget with INVALID_OPTION naming it', async () => {
    const session = new LedgerSession(await pool.ledger(0));
    expect(() => ledgerInputFilter(session, { budget: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', details: expect.objectContaining({ field: 'budget' }) }),
    );
  });
});
