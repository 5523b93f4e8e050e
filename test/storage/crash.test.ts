import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, expect, it } from 'vitest';
import { bytesEqual, LedgerPool } from '../helpers/ledgers.js';
import { transactionFor } from './fixtures/transactions.js';
import { openDurable, removeTempDirs, tempDir } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = fileURLToPath(new URL('./fixtures/commit-stream.ts', import.meta.url));
const CHILD_TIMEOUT_MS = 90_000;

const pool = new LedgerPool();
const running = new Set<ChildProcess>();
afterAll(() => pool.close());
afterEach(async () => {
  for (const child of running) child.kill('SIGKILL');
  await removeTempDirs();
});

/**
 * Runs the child on `dir` until it has acknowledged at least `atLeast` transactions, then
 * SIGKILLs it `delayMs` later (so the kill lands at varying points of the next commit or a
 * compaction); resolves to every tx it acknowledged (read to the end of its stdout).
 */
async function commitUntilKilled(dir: string, atLeast: number, delayMs: number): Promise<number[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const acks: number[] = [];
  let partial = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    acks.push(...lines.map(Number));
    if (acks.length >= atLeast) setTimeout(() => child.kill('SIGKILL'), delayMs);
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, s) => resolve(s)));
  clearTimeout(timer);
  running.delete(child);
  if (acks.length < atLeast || signal !== 'SIGKILL') {
    throw new Error(
      `child acknowledged ${acks.length} of ${atLeast} transactions, ended by ${signal}; stderr: ${stderr}`,
    );
  }
  return acks;
}

it('after SIGKILL the directory holds exactly the acknowledged transactions, plus at most the one in flight', async () => {
  const dir = await tempDir();
  // Transactions 1..n of the stream, committed in memory: what a directory holding n must equal.
  const reference = await pool.ledger();
  let durable = 0;
  for (const [atLeast, delayMs] of [
    [20, 0],
    [21, 11],
    [22, 37],
  ] as const) {
    const acks = await commitUntilKilled(dir, atLeast, delayMs);
    expect(acks).toEqual(acks.map((_, k) => durable + 1 + k));
    const lastAck = acks.at(-1)!;

    const { ledger } = await openDurable(dir);
    expect(ledger.lastTx).toBeGreaterThanOrEqual(lastAck);
    expect(ledger.lastTx).toBeLessThanOrEqual(lastAck + 1);
    while (reference.lastTx < ledger.lastTx) await reference.commit(transactionFor(reference.lastTx + 1));
    // Byte equality with the reference: every transaction complete and exactly as committed,
    // including an unacknowledged last one that reached the disk.
    expect(bytesEqual(await ledger.snapshot(), await reference.snapshot())).toBe(true);
    durable = ledger.lastTx;
    await ledger.close();
  }
}, 300_000);
