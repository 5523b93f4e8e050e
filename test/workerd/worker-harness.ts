/**
 * Builds Workers with wrangler and serves them from Miniflare's workerd on loopback, for the tests
 * in this folder and the bundle benchmark: e2e/workerd/start-probe.ts's approach (NOTES.md says
 * why not `unstable_startWorker`), for any wrangler config, with Durable Objects and optional
 * persistent storage. Workers import the package from dist/, so `ensureBuiltDist` runs first.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Miniflare, type RequestInit, type Response } from 'miniflare';
import { unstable_readConfig } from 'wrangler';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const HARNESS_CONFIG = join(ROOT, 'test/workerd/harness/wrangler.jsonc');
export const EXAMPLE_CONFIG = join(ROOT, 'demo/worker/wrangler.jsonc');

/** Keeps wrangler off the network: no metrics, no update check. */
const OFFLINE_ENV = { WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true' };

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

const distIsFresh = async (): Promise<boolean> => {
  // The pre-bundled Workers entry is written last by `npm run build`.
  const built = await stat(join(ROOT, 'dist/workerd/index.js')).catch(() => null);
  return built !== null && built.mtimeMs >= (await newestMtime(join(ROOT, 'src')));
};

/** A lock older than this is left over from a killed run. */
const STALE_LOCK_MS = 5 * 60_000;

/**
 * Runs `npm run build` (tsc, then the Workers pre-bundle) unless dist/ is newer than every file under src/. Test
 * files run in parallel, so a lock directory keeps two builds from writing dist/ at once; the
 * second waits and then finds dist/ fresh.
 */
export async function ensureBuiltDist(timeoutMs: number): Promise<void> {
  if (await distIsFresh()) return;
  const lock = join(ROOT, '.out/dist-build.lock');
  await mkdir(dirname(lock), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const held = await stat(lock).catch(() => null);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`another build held ${lock} for ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    if (await distIsFresh()) return;
    const tsc = require.resolve('typescript/bin/tsc');
    await run(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
      timeout: Math.max(1, deadline - Date.now()),
    }).catch((error: { stdout?: string; killed?: boolean }) => {
      // tsc still emits on type errors; those are `npm run typecheck`'s business, not this test's.
      if (error.killed || !error.stdout?.includes('error TS')) throw error;
      console.warn(`npm run build reported type errors; testing what it emitted:\n${error.stdout}`);
    });
    // The second step of `npm run build`: the pre-bundled Workers entry.
    await run(process.execPath, [join(ROOT, 'scripts/bundle-workerd.mjs')], {
      cwd: ROOT,
      timeout: Math.max(1, deadline - Date.now()),
    });
    if (!(await distIsFresh())) throw new Error('tsc -p tsconfig.build.json did not refresh dist/');
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

export interface BundleSize {
  uploadKiB: number;
  gzipKiB: number;
}

/** `wrangler deploy --dry-run --outdir`: the bundle workerd runs, and its size as wrangler reports it. */
export async function bundleWorker(configPath: string, outdir: string, timeoutMs: number): Promise<BundleSize> {
  const wrangler = join(dirname(require.resolve('wrangler/package.json')), 'bin', 'wrangler.js');
  const { stdout } = await run(
    process.execPath,
    [wrangler, 'deploy', '--dry-run', '--outdir', outdir, '--config', configPath],
    // From the config's folder, as a project runs it: wrangler resolves a config's `tsconfig` from there.
    {
      cwd: dirname(configPath),
      timeout: timeoutMs,
      env: { ...process.env, ...OFFLINE_ENV },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(stdout);
  if (!size) throw new Error(`wrangler printed no upload size:\n${stdout}`);
  return { uploadKiB: Number(size[1]), gzipKiB: Number(size[2]) };
}

export interface WorkerOptions {
  /** The wrangler config the bundle was built from: compatibility, Durable Objects, vars. */
  configPath: string;
  /** bundleWorker's output. */
  outdir: string;
  /** Keeps Durable Object storage in this directory across instances; in memory without it. */
  persistDir?: string;
  /** Overrides the config's `vars`. */
  vars?: Record<string, string>;
  timeoutMs: number;
}

export interface RunningWorker {
  /** From constructing Miniflare to workerd listening: mostly compiling the bundle's wasm. */
  startMs: number;
  fetch(path: string, init: RequestInit, timeoutMs: number): Promise<Response>;
  dispose(): Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const config = unstable_readConfig({ config: options.configPath });
  const sqliteClasses = new Set(
    config.migrations.flatMap((m: { new_sqlite_classes?: string[] }) => m.new_sqlite_classes ?? []),
  );
  const started = performance.now();
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(options.outdir, 'worker.js'),
    modulesRoot: options.outdir,
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    durableObjects: Object.fromEntries(
      config.durable_objects.bindings.map((b: { name: string; class_name: string }) => [
        b.name,
        { className: b.class_name, useSQLite: sqliteClasses.has(b.class_name) },
      ]),
    ),
    bindings: { ...config.vars, ...options.vars },
    ...(options.persistDir === undefined ? {} : { durableObjectsPersist: options.persistDir }),
    host: '127.0.0.1',
    port: 0,
    cf: false, // a fixed placeholder instead of downloading Cloudflare's `request.cf` sample
  });
  try {
    const url = await withTimeout(mf.ready, options.timeoutMs, 'starting workerd');
    return {
      startMs: performance.now() - started,
      fetch: (path, init, timeoutMs) =>
        mf.dispatchFetch(new URL(path, url), { ...init, signal: AbortSignal.timeout(timeoutMs) }),
      dispose: () => mf.dispose(),
    };
  } catch (error) {
    await mf.dispose();
    throw error;
  }
}
