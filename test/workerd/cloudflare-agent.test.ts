import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerdRssMiB } from '../bench/workerd-bench.js';
import { persistentWorker } from './persistent-worker.js';
import { ROOT, type RunningWorker } from './worker-harness.js';

/**
 * The `Coder` agent of docs/guide/integrations.md (./agent/coder-agent.ts: an `AIChatAgent` whose
 * model is wrapped by `agentLedger`, its ledger in the object's own storage) in workerd, driven
 * through the Agents SDK's routing and `saveMessages` by a scripted model from `ai/test`: every
 * turn two tool calls and an answer. workerd restarts halfway, storage persisted on disk.
 */
const CONFIG = join(ROOT, 'test/workerd/agent/wrangler.jsonc');
const BUILD_TIMEOUT_MS = 180_000;
const START_TIMEOUT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 60_000;
const BUDGET = 1500;
/** `AGENT_TURNS=50` measures memory after more steps (docs/guide/integrations.md). */
const TURNS_BEFORE_RESTART = Number(process.env.AGENT_TURNS ?? 6);
const TURNS_AFTER_RESTART = 2;
const AGENT = '/agents/tested-coder/session-1';

interface Report {
  modelCalls: number;
  promptTokens: number[];
  unpaired: string[];
  resultPaths: string[][];
  shapes: string[][];
  userTexts: string[][];
  lastTx: number;
  openedOnce: boolean;
  kinds: Record<string, number>;
  nodeIds: number;
  uniqueNodeIds: number;
  uiMessages: number;
  memory: { wasmBytes: number; duckdbBytes: number; memoryLimit: string } | null;
}

const worker = persistentWorker({
  configPath: CONFIG,
  name: 'agent',
  buildTimeoutMs: BUILD_TIMEOUT_MS,
  startTimeoutMs: START_TIMEOUT_MS,
});
const start = () => worker.start();

async function turn(w: RunningWorker, text: string): Promise<void> {
  const response = await w.fetch(`${AGENT}/turn`, { method: 'POST', body: text }, REQUEST_TIMEOUT_MS);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(await response.json()).toMatchObject({ status: 'completed' });
}

async function report(w: RunningWorker): Promise<Report> {
  const response = await w.fetch(`${AGENT}/report`, {}, REQUEST_TIMEOUT_MS);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Report;
}

/**
 * Each step sees what came just before it: the turn's user message (rendered with the task at the
 * top, not last), or the result of the tool call it made one step earlier (the scripted model's
 * n-th call in an isolate reads `src/module-n.ts`).
 */
function expectLatestSeen(r: Report, texts: readonly string[]): void {
  for (const [i, seen] of r.userTexts.entries()) {
    expect(seen.join('\n'), `step ${i}`).toContain(texts[Math.floor(i / 3)]);
    if (i % 3 !== 0)
      expect(r.resultPaths[i], `step ${i}: ${r.shapes[i]?.join(' ')}`).toContain(`src/module-${i - 1}.ts`);
  }
}

/**
 * Each turn: the user's message (the first is the task, each later one a steering node: they are
 * phrased as instructions), two tool calls with their results, the answer.
 */
function expectTurnsRecordedOnce(r: Report, turns: number): void {
  expect(r.openedOnce).toBe(true);
  expect(r.kinds).toMatchObject({ task: 1, steering: turns - 1, message: turns });
  expect(r.kinds.tool_call).toBe(2 * turns);
  expect(r.kinds.tool_result).toBe(2 * turns);
  expect(r.uniqueNodeIds).toBe(r.nodeIds);
  expect(r.uiMessages).toBe(2 * turns);
}

describe('an AIChatAgent with its ledger in its Durable Object storage', () => {
  it(
    'keeps every prompt within the budget with tool calls paired, records each turn once, and survives a restart',
    async () => {
      const first = await start();
      const firstTexts = Array.from(
        { length: TURNS_BEFORE_RESTART },
        (_, i) => `Please read the next two modules (${i}).`,
      );
      for (const text of firstTexts) await turn(first, text);
      const before = await report(first);
      // Printed before the checks, so a long run (AGENT_TURNS) reports its memory even when one fails.
      console.log(
        JSON.stringify({
          turns: TURNS_BEFORE_RESTART,
          steps: before.modelCalls,
          lastTx: before.lastTx,
          promptTokens: before.promptTokens,
          inIsolate: before.memory,
          workerdRssMiB: await workerdRssMiB(),
        }),
      );
      expect(before.modelCalls).toBe(3 * TURNS_BEFORE_RESTART);
      expect(Math.max(...before.promptTokens)).toBeLessThanOrEqual(BUDGET);
      expect(before.unpaired).toEqual([]);
      expectLatestSeen(before, firstTexts);
      expectTurnsRecordedOnce(before, TURNS_BEFORE_RESTART);
      await worker.stop();

      // A new isolate: the agent's messages come back from its SQLite tables, the ledger from its
      // key-value storage, and the resent history adds nothing the ledger holds.
      const second = await start();
      const reopened = await report(second);
      expect(reopened.lastTx).toBe(before.lastTx);
      expectTurnsRecordedOnce(reopened, TURNS_BEFORE_RESTART);
      const secondTexts = Array.from({ length: TURNS_AFTER_RESTART }, (_, i) => `Please read two more modules (${i}).`);
      for (const text of secondTexts) await turn(second, text);
      const after = await report(second);
      expect(after.modelCalls).toBe(3 * TURNS_AFTER_RESTART);
      expect(Math.max(...after.promptTokens)).toBeLessThanOrEqual(BUDGET);
      expect(after.unpaired).toEqual([]);
      expectLatestSeen(after, secondTexts);
      expectTurnsRecordedOnce(after, TURNS_BEFORE_RESTART + TURNS_AFTER_RESTART);
    },
    START_TIMEOUT_MS * 2 + REQUEST_TIMEOUT_MS * 20,
  );

  it('is the example docs/guide/integrations.md shows', async () => {
    const example = await readFile(join(ROOT, 'test/workerd/agent/coder-agent.ts'), 'utf8');
    const guide = await readFile(join(ROOT, 'docs/guide/integrations.md'), 'utf8');
    expect(guide).toContain(example.trim());
  });
});
