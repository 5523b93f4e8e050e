/**
 * What the AI SDK middleware adds to a model call beyond the materialize calls it makes (target:
 * at most 2 ms). A recorded tool loop of STEPS steps; then, alternating sample by sample:
 * transformParams on the same history resent (nothing new to record); transformParams with one
 * new step (an assistant tool call and its result: the step is assembled and one transaction is
 * committed). The new step's commit is timed too, so what the middleware does around the engine
 * is seen apart from the engine's own floor; and a LONG_STEPS loop shows whether that grows with
 * the session. A step's engine write waits for the engine's next read (write-behind): on appending
 * steps there is none, and a re-pack's materialize writes every waiting step first, so the mean of
 * the whole call and those writes are printed too.
 */
import type { LanguageModelV4, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { openLedger } from '../../src/entries/node.js';
import { ledgerMiddleware } from '../../src/integrations/ai-sdk/index.js';
import { ledgerCore } from '../../src/ledger/ledger.js';
import { type BenchRow, percentile, targetRow, timed } from './bench-util.js';

const STEPS = 100;
const LONG_STEPS = 400;
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

interface Sample {
  ms: number;
  materialize: number;
  commit: number;
  added: number;
  /** Writing waiting commits to the engine (inside materialize, at a re-pack's first statement). */
  write: number;
}

/** Samples of transformParams on a STEPS-step loop, resent and with one new step each. */
async function loopSamples(steps: number): Promise<{ resent: Sample[]; newStep: Sample[] }> {
  const ledger = await openLedger();
  try {
    const middleware = ledgerMiddleware({ ledger, budget: BUDGET });
    const model = {} as LanguageModelV4;
    let prompt: LanguageModelV4Prompt = [
      { role: 'user', content: [{ type: 'text', text: 'Find why f_3_7 returns the wrong value.' }] },
    ];
    for (let k = 0; k < steps; k++) prompt = [...prompt, ...view(k)];
    const call = async (p: LanguageModelV4Prompt) =>
      await middleware.transformParams!({ type: 'generate', params: { prompt: p }, model });
    await call(prompt); // records the loop so far
    // The time spent inside materialize during each call, so that what the middleware adds
    // around it (recording, rendering, budget fitting) is measured on the same call: a working
    // set is computed once per epoch, so a separate materialize of the same epoch would be served
    // from the ledger's cache and be no baseline at all.
    let inside = 0;
    let committing = 0;
    const materialize = ledger.materialize.bind(ledger);
    ledger.materialize = async (request) => {
      const [ws, ms] = await timed(() => materialize(request));
      inside += ms;
      return ws;
    };
    let writing = 0;
    const pending = ledgerCore(ledger).pending;
    const flush = pending.flush.bind(pending);
    pending.flush = async () => {
      const [, ms] = await timed(() => flush());
      writing += ms;
    };
    const commit = ledger.commit.bind(ledger);
    ledger.commit = async (tx) => {
      const [receipt, ms] = await timed(() => commit(tx));
      committing += ms;
      return receipt;
    };
    const measure = async (p: LanguageModelV4Prompt): Promise<Sample> => {
      inside = 0;
      committing = 0;
      writing = 0;
      const [, ms] = await timed(() => call(p));
      return { ms, materialize: inside, commit: committing, added: ms - inside, write: writing };
    };
    const resent: Sample[] = [];
    const newStep: Sample[] = [];
    for (let r = 0; r < RUNS; r++) {
      resent.push(await measure(prompt));
      prompt = [...prompt, ...view(steps + r)];
      newStep.push(await measure(prompt));
    }
    return { resent, newStep };
  } finally {
    await ledger.close();
  }
}

export async function middlewareBench(): Promise<BenchRow[]> {
  const p50 = (xs: number[]) => Math.round(percentile(xs, 50) * 10) / 10;
  const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;
  const { resent, newStep } = await loopSamples(STEPS);
  const long = await loopSamples(LONG_STEPS);
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
    {
      metric: '  mean, so that the re-packs count in full',
      value: mean(newStep.map((x) => x.ms)),
      unit: 'ms',
    },
    {
      metric: "  of which writing the steps' waiting commits to the engine (inside a re-pack's materialize), mean",
      value: mean(newStep.map((x) => x.write)),
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
    { metric: "the new step's commit p50 (engine)", value: p50(newStep.map((x) => x.commit)), unit: 'ms' },
    {
      metric: `what the middleware adds beside materialize and the commit, p50, one new step, ${STEPS}-step loop`,
      value: p50(newStep.map((x) => x.added - x.commit)),
      unit: 'ms',
    },
    {
      metric: `the same, ${LONG_STEPS}-step loop`,
      value: p50(long.newStep.map((x) => x.added - x.commit)),
      unit: 'ms',
    },
    {
      metric: `what the middleware adds to materialize, p50, history resent, ${LONG_STEPS}-step loop`,
      value: p50(long.resent.map((x) => x.added)),
      unit: 'ms',
    },
  ];
}
