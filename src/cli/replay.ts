/**
 * `context-ledger replay <transcript...> [--budget N]`: how the ledger would have served a real
 * session. Each transcript is committed step by step into a fresh in-memory ledger; after every
 * step the working set for the next model call is materialized at the budget and checked: tokens
 * within the budget, rendered OpenAI and Anthropic messages passing those APIs' pairing rules.
 * The evidence-recall evaluation against baselines is the repository's `npm run eval:replay`.
 */
import { openLedger } from '../entries/node.js';
import { validateAnthropicMessages, validateOpenAIMessages } from '../working-set/validate-messages.js';
import { intOption, parse, UsageError } from './args.js';
import { loadTranscript } from './ingest.js';
import type { CliIO } from './io.js';
import { progressBar } from './progress.js';

export const REPLAY_USAGE = `Usage: context-ledger replay <transcript...> [--budget TOKENS] [--json]

Replays each transcript (formats as for ingest) step by step into a fresh in-memory ledger and,
after every step, materializes the working set the next model call would get: items, tokens,
what was left out and why, and whether the rendered OpenAI and Anthropic messages keep every
tool call with its result. Exits 1 if any working set breaks its budget or the pairing rules.

  --budget TOKENS   token budget of every working set (default 4000)
  --json            one record per step, as JSON
  -h, --help        this text
`;

interface ReplayStep {
  transcript: string;
  epoch: number;
  items: number;
  tokens: number;
  leftOut: Record<string, number>;
  problems: string[];
}

export async function replay(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, { budget: { type: 'string' }, json: { type: 'boolean' } }, true);
  if (values.help) {
    io.stdout(REPLAY_USAGE);
    return 0;
  }
  const budget = intOption(values.budget, 'budget', 1) ?? 4000;
  if (positionals.length === 0) throw new UsageError('at least one transcript file is required');
  const transcripts = [];
  for (const file of positionals) transcripts.push(await loadTranscript(file, io.cwd, undefined));

  const steps: ReplayStep[] = [];
  const progress = progressBar(
    io.stderr,
    'replay',
    transcripts.reduce((n, t) => n + t.trace.transactions.length, 0),
  );
  for (const t of transcripts) {
    const ledger = await openLedger();
    try {
      for (const tx of t.trace.transactions) {
        await ledger.commit(tx);
        const ws = await ledger.materialize({ budget: { tokens: budget } });
        const problems = [
          ...(ws.tokens > budget ? [`${ws.tokens} tokens over the budget`] : []),
          ...validateOpenAIMessages(ws.toMessages('openai')).map((e) => `openai ${e}`),
          ...validateAnthropicMessages(ws.toMessages('anthropic')).map((e) => `anthropic ${e}`),
        ];
        const leftOut: Record<string, number> = {};
        for (const e of ws.explanation) {
          if (e.included) continue;
          const reason = e.reason.replace(/ \(.*$| by .*$/, '');
          leftOut[reason] = (leftOut[reason] ?? 0) + 1;
        }
        steps.push({
          transcript: t.file,
          epoch: tx.epoch,
          items: ws.items.length,
          tokens: ws.tokens,
          leftOut,
          problems,
        });
        progress(steps.length, t.name);
      }
    } finally {
      await ledger.close();
    }
  }
  if (values.json) io.stdout(`${JSON.stringify(steps, null, 2)}\n`);
  else io.stdout(renderReplay(steps, budget));
  return steps.some((s) => s.problems.length > 0) ? 1 : 0;
}

function renderReplay(steps: readonly ReplayStep[], budget: number): string {
  const lines: string[] = [];
  for (const file of [...new Set(steps.map((s) => s.transcript))]) {
    const mine = steps.filter((s) => s.transcript === file);
    lines.push(`${file}: ${mine.length} steps at a budget of ${budget} tokens`);
    for (const s of mine) {
      const out = Object.entries(s.leftOut)
        .map(([r, n]) => `${r} ${n}`)
        .join(', ');
      lines.push(
        `  epoch ${s.epoch}: ${s.items} items, ${s.tokens} tokens${out ? `; left out: ${out}` : ''}${s.problems.length ? `; PROBLEMS: ${s.problems.join('; ')}` : ''}`,
      );
    }
    const tokens = mine.map((s) => s.tokens);
    const broken = mine.filter((s) => s.problems.length > 0).length;
    lines.push(
      `  tokens mean ${Math.round(tokens.reduce((a, b) => a + b, 0) / Math.max(1, tokens.length))}, max ${Math.max(0, ...tokens)}; ${broken} steps with problems`,
    );
  }
  return `${lines.join('\n')}\n`;
}
