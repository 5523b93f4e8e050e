/**
 * What the AI SDK middleware adds to a model call beyond the materialize calls it makes (target:
 * at most 2 ms). A recorded tool loop of STEPS steps; then, alternating sample by sample:
 * transformParams on the same history resent (nothing new to record); transformParams with one
 * new step (an assistant tool call and its result: the step assembly reruns over the session and
 * one transaction is committed).
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
    // The time spent inside materialize during each call, so that what the middleware adds
    // around it (recording, rendering, budget fitting) is measured on the same call: a working
    // set is computed once per epoch, so a separate materialize of the same epoch would be served
    // from the ledger's cache and be no baseline at all.
    let inside = 0;
    const materialize = ledger.materialize.bind(ledger);
    ledger.materialize = async (request) => {
      const [ws, ms] = await timed(() => materialize(request));
      inside += ms;
      return ws;
    };
    const measure = async (p: LanguageModelV4Prompt) => {
      inside = 0;
      const [, ms] = await timed(() => call(p));
      return { ms, materialize: inside, added: ms - inside };
    };
    const resent: Array<{ ms: number; materialize: number; added: number }> = [];
    const newStep: Array<{ ms: number; materialize: number; added: number }> = [];
    for (let r = 0; r < RUNS; r++) {
      resent.push(await measure(prompt));
      prompt = [...prompt, ...view(STEPS + r)];
      newStep.push(await measure(prompt));
    }
    const p50 = (xs: number[]) => Math.round(percentile(xs, 50) * 10) / 10;
    return [
      {
        metric: `materialize p50 inside a new step's call, ${STEPS}-step AI SDK loop, ${BUDGET} tokens`,
        value: p50(newStep.map((x) => x.materialize)),
        unit: 'ms',
      },
      {
        metric: 'middleware transformParams p50, one new step recorded',
        value: p50(newStep.map((x) => x.ms)),
        unit: 'ms',
      },
      targetRow(
        'what the middleware adds to materialize, p50, one new step (recording it included)',
        p50(newStep.map((x) => x.added)),
        'ms',
        2,
        true,
      ),
      targetRow(
        'what the middleware adds to materialize, p50, history resent (nothing new)',
        p50(resent.map((x) => x.added)),
        'ms',
        2,
        true,
      ),
    ];
  } finally {
    await ledger.close();
  }
}
