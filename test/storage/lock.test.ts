import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rename, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nodeDirectoryStorage } from '../../src/storage/node-directory.js';
import { codeOf } from '../helpers/ledgers.js';
import { leaveDeadLock, removeTempDirs, tempDir } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/lock-contender.ts', import.meta.url));
const ROUNDS = 50;
/** Rounds run side by side (each in its own directory), to keep the suite fast. */
const PARALLEL = 5;

let bundleDir = '';
/**
 * The race needs no durability, only the file operations: where a RAM file system exists its
 * flushes cost nothing, which keeps 50 rounds fast.
 */
const raceDir = async (): Promise<string> =>
  existsSync('/dev/shm') ? mkdtemp(join('/dev/shm', 'ctxl-lock-race-')).then(remember) : tempDir();
const raceDirs: string[] = [];
const remember = (dir: string): string => {
  raceDirs.push(dir);
  return dir;
};
let child = '';
const running = new Set<ChildProcess>();

beforeAll(async () => {
  bundleDir = await mkdtemp(join(tmpdir(), 'ctxl-lock-child-'));
  child = join(bundleDir, 'lock-contender.mjs');
  await build({
    entryPoints: [FIXTURE],
    outfile: child,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  });
});
afterAll(() => rm(bundleDir, { recursive: true, force: true }));
afterEach(async () => {
  for (const c of running) c.kill('SIGKILL');
  await removeTempDirs();
  for (const dir of raceDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

interface Run {
  process: ChildProcess;
  lines: string[];
  /** Resolves once `times` lines matching `pattern` were printed (rejects when the child ends first). */
  waitFor(pattern: RegExp, times?: number): Promise<void>;
  ended: Promise<void>;
}

function start(args: string[], env: Record<string, string> = {}, command: string[] = []): Run {
  const [exe, ...pre] = command.length > 0 ? command : [process.execPath];
  const proc = spawn(exe!, [...pre, ...(command.length > 0 ? [process.execPath] : []), child, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  running.add(proc);
  const lines: string[] = [];
  const waiters: { pattern: RegExp; times: number; resolve: () => void }[] = [];
  const seen = (pattern: RegExp, times: number): boolean => lines.filter((l) => pattern.test(l)).length >= times;
  let partial = '';
  let stderr = '';
  proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    for (const w of waiters.splice(0)) {
      if (seen(w.pattern, w.times)) w.resolve();
      else waiters.push(w);
    }
  });
  proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const ended = new Promise<void>((resolve) =>
    proc.on('close', () => {
      running.delete(proc);
      resolve();
    }),
  );
  return {
    process: proc,
    lines,
    ended,
    waitFor: (pattern, times = 1) =>
      new Promise<void>((resolve, reject) => {
        if (seen(pattern, times)) return resolve();
        waiters.push({ pattern, times, resolve });
        void ended.then(() => {
          if (!seen(pattern, times)) reject(new Error(`child ended without ${pattern}: ${lines.join('|')} ${stderr}`));
        });
      }),
  };
}

const acked = (lines: string[]): string[] => lines.filter((l) => l.startsWith('ack ')).map((l) => l.slice(4));

/** Every record the directory holds: those folded into the snapshot and those in the log. */
async function recordsIn(dir: string): Promise<Set<string>> {
  const storage = await nodeDirectoryStorage(dir);
  try {
    const { snapshot, log } = await storage.load();
    const text = new TextDecoder();
    const records: string[] = snapshot ? JSON.parse(text.decode(snapshot)) : [];
    return new Set([...records, ...log.map((r) => text.decode(r))]);
  } finally {
    await storage.close();
  }
}

/** Two long-lived contenders (only the holder must be a fresh process each round). */
async function contenderPair(): Promise<Run[]> {
  const pair = ['a', 'b'].map((name) => start(['serve', name, '4']));
  await Promise.all(pair.map((c) => c.waitFor(/^ready$/)));
  return pair;
}

/** One round: a holder is SIGKILLed mid-write, then the two contenders open the directory at once. */
async function takeoverRound(
  round: number,
  contenders: Run[],
): Promise<{ lost: string[]; winners: number; errors: string[] }> {
  const dir = await raceDir();
  const holder = start(['hold', dir]);
  // Kills land before, inside and after the holder's compaction (every 5 records).
  await holder.waitFor(new RegExp(`^ack hold:${1 + (round % 7)}$`));
  holder.process.kill('SIGKILL');
  await holder.ended;
  const from = contenders.map((c) => c.lines.length);
  const ends = contenders.map((c) => c.lines.filter((l) => l === 'end').length + 1);
  for (const c of contenders) c.process.stdin!.write(`${dir}\n`);
  await Promise.all(contenders.map((c, k) => c.waitFor(/^end$/, ends[k])));
  const output = contenders.map((c, k) => c.lines.slice(from[k]));
  const held = await recordsIn(dir);
  const all = [...acked(holder.lines), ...output.flatMap(acked)];
  return {
    lost: all.filter((r) => !held.has(r)),
    winners: output.filter((lines) => lines.includes('done')).length,
    errors: output.flatMap((lines) => lines.filter((l) => l.startsWith('error'))),
  };
}

describe('the directory lock', () => {
  it(`stale-lock takeover race: ${ROUNDS} rounds of a killed holder and two contenders at once lose no acknowledged record`, async () => {
    const pairs = await Promise.all(Array.from({ length: PARALLEL }, contenderPair));
    const results: Awaited<ReturnType<typeof takeoverRound>>[] = [];
    await Promise.all(
      pairs.map(async (pair, lane) => {
        for (let round = lane; round < ROUNDS; round += PARALLEL) results.push(await takeoverRound(round, pair));
      }),
    );
    expect(results).toHaveLength(ROUNDS);
    expect(results.flatMap((r) => r.lost)).toEqual([]);
    // No `ENOENT rename log.bin.tmp` or any other failure: each contender wins or is refused.
    expect(results.flatMap((r) => r.errors)).toEqual([]);
    // Someone always takes the dead holder's lock over.
    expect(results.every((r) => r.winners >= 1)).toBe(true);
  }, 120_000);

  it('PID reuse: a lock whose pid now names another process (a later start time) is taken over at once', async () => {
    const dir = await tempDir();
    // Our own pid, as left by an earlier process that had it: the start time tells them apart.
    await leaveDeadLock(dir, process.pid, '1');
    const storage = await nodeDirectoryStorage(dir);
    const owner = JSON.parse(await readFile(join(dir, 'lock', 'owner'), 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid });
    expect(owner.start).not.toBe('1');
    await storage.close();
  });

  it('a live holder on this host is never taken over, however old its heartbeat', async () => {
    const dir = await tempDir();
    const holder = start(['hold', dir]);
    await holder.waitFor(/^ack hold:2$/);
    await utimes(join(dir, 'lock', 'owner'), new Date(0), new Date(0));
    expect(await codeOf(() => nodeDirectoryStorage(dir, { staleLockMs: 100 }))).toBe('STORAGE_FAILED');
    holder.process.kill('SIGKILL');
    await holder.ended;
    (await nodeDirectoryStorage(dir)).close();
  });

  it('a holder whose lock was taken over refuses to write (STORAGE_FAILED) instead of writing beside the new one', async () => {
    const dir = await tempDir();
    const storage = await nodeDirectoryStorage(dir);
    await storage.load();
    await storage.append(new TextEncoder().encode('before'));
    // What a takeover does to a holder judged stale: its lock moved aside, another in its place.
    await rename(join(dir, 'lock'), join(dir, 'lock.stale.x'));
    await leaveDeadLock(dir, process.pid);
    expect(await codeOf(() => storage.append(new TextEncoder().encode('after')))).toBe('STORAGE_FAILED');
    await storage.close();
    expect(await readdir(dir)).toContain('lock');
  });

  it('a lock file of context-ledger 0.1 naming a dead process is taken over', async () => {
    const dir = await tempDir();
    await (await nodeDirectoryStorage(dir)).close();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    await import('node:fs/promises').then((fs) => fs.writeFile(join(dir, 'lock'), `${dead}\n`));
    const storage = await nodeDirectoryStorage(dir);
    expect(JSON.parse(await readFile(join(dir, 'lock', 'owner'), 'utf8'))).toMatchObject({ pid: process.pid });
    await storage.close();
  });
});

/** Whether this machine lets us make a pid namespace with its own /proc (root, or user namespaces). */
const canUnshare =
  process.platform === 'linux' &&
  spawnSync('unshare', ['--pid', '--fork', '--kill-child', '--mount-proc', 'true'], { stdio: 'ignore' }).status === 0;
const UNSHARE = ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc'];

describe.skipIf(!canUnshare)('the directory lock across pid namespaces (run for real with unshare)', () => {
  const staleLockMs = 400;
  const env = { STALE_LOCK_MS: String(staleLockMs) };

  /** A holder running as PID 1 of a fresh pid namespace (as `node` in a container), killed mid-write. */
  async function killedPid1Holder(dir: string): Promise<string[]> {
    const holder = start(['hold', dir], env, UNSHARE);
    await holder.waitFor(/^ack hold:4$/);
    expect(JSON.parse(await readFile(join(dir, 'lock', 'owner'), 'utf8'))).toMatchObject({ pid: 1 });
    holder.process.kill('SIGKILL');
    await holder.ended;
    return acked(holder.lines);
  }

  /** Retries `contend` until it wins (the dead holder's heartbeat must go stale first). */
  async function contendUntilWon(dir: string, command: string[]): Promise<Run> {
    for (let attempt = 0; attempt < 40; attempt++) {
      const c = start(['serve', `c${attempt}`, '3'], env, command);
      await c.waitFor(/^ready$/);
      c.process.stdin!.end(`${dir}\n`);
      await c.ended;
      if (c.lines.includes('done')) return c;
      expect(c.lines).toContain('refused');
      await new Promise((r) => setTimeout(r, staleLockMs / 4));
    }
    throw new Error('never took the lock over');
  }

  it('PID 1 dies holding the lock: a later PID 1 in another namespace, and the host, take it over', async () => {
    const dir = await tempDir();
    const first = await killedPid1Holder(dir);
    const again = await contendUntilWon(dir, UNSHARE);
    const second = await killedPid1Holder(dir);
    const host = await contendUntilWon(dir, []);
    const held = await recordsIn(dir);
    expect([...first, ...acked(again.lines), ...second, ...acked(host.lines)].filter((r) => !held.has(r))).toEqual([]);
  }, 60_000);

  it('a live PID 1 holder in another namespace keeps its lock: its heartbeat is fresh', async () => {
    const dir = await tempDir();
    const holder = start(['hold', dir], env, UNSHARE);
    await holder.waitFor(/^ack hold:2$/);
    // Several stale periods: a holder that stopped its heartbeat would have lost the lock by now.
    await new Promise((r) => setTimeout(r, staleLockMs * 3));
    expect(await codeOf(() => nodeDirectoryStorage(dir, { staleLockMs }))).toBe('STORAGE_FAILED');
    holder.process.kill('SIGKILL');
    await holder.ended;
  }, 30_000);
});
