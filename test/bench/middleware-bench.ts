/**
 * What the AI SDK middleware adds to a model call, against the materialize call it wraps (issue
 * 25's target: at most materialize's p50 + 2 ms). A recorded tool loop of STEPS steps; then,
 * alternating sample by sample: materialize alone; transformParams on the same history resent
 * (nothing new to record); transformParams with one new step (an assistant tool call and its
 * result: the step assembly reruns over the session and one transaction is committed).
 */
import type { LanguageModelV4, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { openLedger } from '../../src/entries/node.js';
import { ledgerMiddleware } from '../../src/integrations/ai-sdk/index.js';
import { type BenchRow, percentile, targetRow, timed } from './bench-util.js';

const STEPS = 100;
const BUDGET = 8000;
const RUNS = 15;

const view = (k: number): LanguageModelV4Prompt => {
  const lines = Array.from(
    { length: 40 },
    (_, i) => `${String(i + 1).padStart(6)}\tdef f_${k}_${i}(x): return x + ${i}`,
  );
  return [
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: `c${k}`, toolName: 'bash', input: { command: `cat -n src/m${k % 37}.py` } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `c${k}`,
          toolName: 'bash',
          output: { type: 'text', value: `${lines.join('\n')}\n` },
        },
      ],
    },
  ];
};

export async function middlewareBench(): Promise<BenchRow[]> {
  const ledger = await openLedger();
  try {
    const middleware = ledgerMiddleware({ ledger, budget: BUDGET });
    const model = {} as LanguageModelV4;
    let prompt: LanguageModelV4Prompt = [
      { role: 'user', content: [{ type: 'text', text: 'Find why f_3_7 returns the wrong value.' }] },
    ];
    for (let k = 0; k < STEPS; k++) prompt = [...prompt, ...view(k)];
    const call = async (p: LanguageModelV4Prompt) =>
      await middleware.transformParams!({ type: 'generate', params: { prompt: p }, model });
    await call(prompt); // records the loop so far
    const materialize: number[] = [];
    const resent: number[] = [];
    const newStep: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      materialize.push(
        (await timed(() => ledger.materialize({ budget: { tokens: BUDGET }, epoch: ledger.lastEpoch })))[1],
      );
      resent.push((await timed(() => call(prompt)))[1]);
      prompt = [...prompt, ...view(STEPS + r)];
      newStep.push((await timed(() => call(prompt)))[1]);
    }
    const p50 = (xs: number[]) => Math.round(percentile(xs, 50) * 10) / 10;
    const base = p50(materialize);
    return [
      { metric: `materialize p50, ${STEPS}-step AI SDK loop, ${BUDGET} tokens`, value: base, unit: 'ms' },
      targetRow('middleware transformParams p50, history resent (nothing new)', p50(resent), 'ms', base + 2, true),
      targetRow('middleware transformParams p50, one new step recorded', p50(newStep), 'ms', base + 2, true),
    ];
  } finally {
    await ledger.close();
  }
}
