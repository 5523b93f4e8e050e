/**
 * Builds the probe Worker with wrangler (the real bundler, module rules and nodejs_compat
 * handling) and serves the output from Miniflare's workerd on loopback.
 *
 * Not `unstable_startWorker`: its bundler always runs esbuild in watch mode over a temp folder
 * it also writes to, so it sometimes rebuilds and restarts the Worker in the middle of a test.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { unstable_readConfig } from 'wrangler';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export const PROBE_CONFIG = fileURLToPath(new URL('./wrangler.jsonc', import.meta.url));

/** The wrangler environments of wrangler.jsonc: '' is the top level (nodejs_compat on). */
export type ProbeEnv = '' | 'no_nodejs_compat';

/** Keeps wrangler off the network: no metrics, no update check. */
const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_HIDE_BANNER: 'true',
};

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * GET and parse JSON on a connection of its own. With keep-alive, workerd sometimes closes the
 * idle socket just as the next request is written on it ("other side closed").
 */
export function getJson<T>(url: URL, timeoutMs: number): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false, signal: AbortSignal.timeout(timeoutMs) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as T });
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on('error', reject);
  });
}

export interface BundleSize {
  uploadKiB: number;
  gzipKiB: number;
}

/** `wrangler deploy --dry-run --outdir`: the bundle workerd runs, and its size as wrangler reports it. */
export async function bundleProbe(env: ProbeEnv, outdir: string, timeoutMs: number): Promise<BundleSize> {
  const wrangler = join(dirname(require.resolve('wrangler/package.json')), 'bin', 'wrangler.js');
  const { stdout } = await run(
    process.execPath,
    [wrangler, 'deploy', '--dry-run', '--outdir', outdir, '--config', PROBE_CONFIG, `--env=${env}`],
    { timeout: timeoutMs, env: { ...process.env, ...OFFLINE_ENV }, maxBuffer: 16 * 1024 * 1024 },
  );
  const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(stdout);
  if (!size) throw new Error(`wrangler printed no upload size:\n${stdout}`);
  return { uploadKiB: Number(size[1]), gzipKiB: Number(size[2]) };
}

export interface ProbeWorker {
  url: URL;
  bundle: BundleSize;
  /** From constructing Miniflare to workerd listening: includes compiling the bundle's wasm. */
  startMs: number;
  dispose(): Promise<void>;
}

export async function startProbe(env: ProbeEnv, timeoutMs: number): Promise<ProbeWorker> {
  const outdir = await mkdtemp(join(tmpdir(), 'ledger-workerd-probe-'));
  let mf: Miniflare | undefined;
  const dispose = async () => {
    await mf?.dispose();
    await rm(outdir, { recursive: true, force: true });
  };
  try {
    const bundle = await bundleProbe(env, outdir, timeoutMs);
    const config = unstable_readConfig({ config: PROBE_CONFIG, env });
    const started = performance.now();
    mf = new Miniflare({
      modules: true,
      scriptPath: join(outdir, 'worker.js'),
      modulesRoot: outdir,
      modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
      compatibilityDate: config.compatibility_date,
      compatibilityFlags: config.compatibility_flags,
      host: '127.0.0.1',
      port: 0,
      cf: false, // a fixed placeholder instead of downloading Cloudflare's `request.cf` sample
    });
    const url = await withTimeout(mf.ready, timeoutMs, 'starting workerd');
    return { url, bundle, startMs: performance.now() - started, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
