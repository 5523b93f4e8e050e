import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  bundleWorker,
  ensureBuiltDist,
  type RunningWorker,
  startWorker,
  type WorkerOptions,
} from './worker-harness.js';

/**
 * A Worker bundled once for the calling suite (its beforeAll/afterAll are registered here) and
 * started on demand over one persisted storage directory, so a test can stop it and start it
 * again as a restarted deployment would.
 */
export function persistentWorker(options: {
  configPath: string;
  /** Names the temporary directories. */
  name: string;
  buildTimeoutMs: number;
  startTimeoutMs: number;
  vars?: WorkerOptions['vars'];
}): { start(): Promise<RunningWorker>; stop(): Promise<void> } {
  let outdir: string | undefined;
  let persistDir: string | undefined;
  let worker: RunningWorker | undefined;
  beforeAll(async () => {
    await ensureBuiltDist(options.buildTimeoutMs);
    outdir = await mkdtemp(join(tmpdir(), `ledger-${options.name}-worker-`));
    persistDir = await mkdtemp(join(tmpdir(), `ledger-${options.name}-storage-`));
    await bundleWorker(options.configPath, outdir, options.buildTimeoutMs);
  }, options.buildTimeoutMs * 2);
  afterAll(async () => {
    await worker?.dispose();
    for (const dir of [outdir, persistDir]) if (dir) await rm(dir, { recursive: true, force: true });
  }, options.startTimeoutMs);
  return {
    async start() {
      if (!outdir || !persistDir) throw new Error('the Worker was not bundled');
      worker = await startWorker({
        configPath: options.configPath,
        outdir,
        persistDir,
        ...(options.vars ? { vars: options.vars } : {}),
        timeoutMs: options.startTimeoutMs,
      });
      return worker;
    },
    /** Disposes of the running Worker; its storage stays for the next start. */
    async stop() {
      await worker?.dispose();
      worker = undefined;
    },
  };
}
