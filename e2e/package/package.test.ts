/**
 * The package as a user gets it: `npm pack`, the tarball installed into a fresh folder (from the
 * npm cache when it can) with the RDF subpath's optional peers, then what the README and docs/ promise,
 * run verbatim against the installed copy: the Node examples (RDF included), the browser example
 * built by Vite and run in Chromium, the Workers example under `wrangler dev` on loopback, and the
 * types under node16 and bundler resolution. Run by `npm run test:package` (which builds first).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { build, createServer as createViteServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allDocBlocks,
  type DocBlock,
  docPrograms,
  normaliseOutput,
  statedOutput,
} from '../../test/helpers/doc-blocks.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../chromium.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'node_modules/.bin');
const README = await readFile(join(ROOT, 'README.md'), 'utf8');
const PKG = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};
/** Keeps wrangler off the network: no metrics, no update check. */
const OFFLINE_ENV = { WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true', CI: 'true' };

/** The README's and docs/' blocks, read the way `test/readme.test.ts` reads them. */
const BLOCKS = allDocBlocks(ROOT);
/** The first block of a page (and section) in a language. */
function blockIn(file: string, lang: string, startsWith = ''): DocBlock {
  const block = BLOCKS.find((b) => b.file === file && b.lang === lang && b.code.startsWith(startsWith));
  if (!block) throw new Error(`no ${lang} block in ${file}`);
  return block;
}
/**
 * The optional peers (the RDF subpath's, the semantic embedder's), installed next to the package
 * at the versions this repository tests.
 */
const OPTIONAL_PEERS = Object.keys(PKG.peerDependencies ?? {}).map((name) => `${name}@${PKG.devDependencies[name]}`);
/**
 * `@ai-sdk/provider`'s declarations import `json-schema` but it ships no types for it: an AI SDK
 * app type-checked without `skipLibCheck` installs `@types/json-schema` itself, as this one does.
 */
const APP_TYPES = [`@types/json-schema@${PKG.devDependencies['@types/json-schema']}`];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let tmp: string;
let app: string;
let tarballFiles: string[];

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'ledger-package-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: ROOT, maxBuffer: 1 << 26 });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarballFiles = packed!.files.map((f) => f.path);
  app = join(tmp, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  await run(
    'npm',
    [
      'install',
      join(tmp, packed!.filename),
      ...OPTIONAL_PEERS,
      ...APP_TYPES,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
    ],
    { cwd: app, maxBuffer: 1 << 26 },
  );
}, 300_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('ships the library only: no sources, evaluations, tests or source maps; a LICENSE', () => {
    expect(tarballFiles).toContain('LICENSE');
    expect(tarballFiles.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(tarballFiles).toContain('dist/workerd/index.js');
    expect(tarballFiles).toContain('dist/adapters/index.d.ts');
    // The semantic embedder's subpath ships; its model weights (an optional peer) never do.
    expect(tarballFiles).toContain('dist/embedders/universal-sentence-encoder.js');
    expect(tarballFiles.filter((f) => /shard\d|\.onnx$|\.safetensors$|vocab\.json$/.test(f))).toEqual([]);
    expect(tarballFiles).toContain('types/wasm-modules.d.ts');
    expect(
      tarballFiles.filter((f) => /^(src|scripts|test|e2e|demo|docs)\//.test(f) || /\/eval|bench|baseline/.test(f)),
    ).toEqual([]);
  });

  it('has a README whose links work on the registry page: absolute ones only', () => {
    // The package sets no `repository` (no public URL is known), so the registry cannot resolve a
    // relative link or image; code blocks and code spans are not links.
    const prose = README.replaceAll(/^```[\s\S]*?^```$/gm, '').replaceAll(/`[^`\n]*`/g, '');
    const targets = [...prose.matchAll(/\]\(([^)\s]+)[^)]*\)/g)].map((m) => m[1]!);
    expect(targets.filter((t) => !/^(https?:|mailto:|#)/.test(t))).toEqual([]);
  });

  it('imports nothing at run time but its dependencies and Node builtins', async () => {
    const dist = join(app, 'node_modules/context-ledger/dist');
    // Optional peers (the RDF subpath's n3 and Comunica, the embedder's @energetic-ai packages)
    // are loaded on first use, when installed.
    // And its own name: context-ledger/cloudflare-agents opens ledgers through the entry the
    // runtime's export condition selects, so a Worker's bundle holds one engine.
    const allowed = new Set([
      'context-ledger',
      ...Object.keys(PKG.dependencies),
      ...Object.keys(PKG.peerDependencies ?? {}),
    ]);
    const foreign = new Set<string>();
    const mapped: string[] = [];
    for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
      const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
      // No source map is shipped, so no file may point at one (it would name the unshipped src/).
      if (/^\/\/# sourceMappingURL=/m.test(text)) mapped.push(entry.name);
      // Static imports and re-exports start a line in emitted code; dynamic ones and requires are calls.
      const specifiers = [
        ...text.matchAll(/^(?:import|export)\b[^'"`;]*?\bfrom\s*["']([^"']+)["']/gm),
        ...text.matchAll(/^import\s*["']([^"']+)["']/gm),
        ...text.matchAll(/\b(?:import|require)\(\s*["']([^"']+)["']\s*\)/g),
      ];
      for (const m of specifiers) {
        const spec = m[1]!;
        if (spec.startsWith('.') || spec.startsWith('node:')) continue;
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!allowed.has(name)) foreign.add(`${entry.name}: ${spec}`);
      }
    }
    expect([...foreign]).toEqual([]);
    expect(mapped).toEqual([]);
  });

  it('publishes no @internal member in its declarations (stripInternal)', async () => {
    const dist = join(app, 'node_modules/context-ledger/dist');
    const leaked: string[] = [];
    for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
      if ((await readFile(join(entry.parentPath, entry.name), 'utf8')).includes('@internal')) leaked.push(entry.name);
    }
    expect(leaked).toEqual([]);
  });
});

describe('the installed command', () => {
  // Its commands at work: the command-line block of docs/guide/cli.md, below.
  it('runs from node_modules/.bin: --version; refuses a file that is not a transcript', async () => {
    const bin = join(app, 'node_modules/.bin/context-ledger');
    const version = await run(bin, ['--version'], { cwd: app });
    expect(version.stdout.trim()).toBe(JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).version);
    const refused = await run(bin, ['ingest', join(app, 'package.json'), '--out', 'x'], { cwd: app }).catch((e) => e);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not a transcript this tool reads');
  }, 300_000);
});

describe('the command-line block of docs/guide/cli.md, run verbatim', () => {
  it('runs every line (ingest, inspect, materialize, retrieve, replay) with exit 0', async () => {
    const block = blockIn('docs/guide/cli.md', 'sh');
    const lines = block.code.split('\n').filter((l) => l.startsWith('npx context-ledger '));
    expect(lines.map((l) => l.split(/\s+/)[2])).toEqual(['ingest', 'inspect', 'materialize', 'retrieve', 'replay']);
    // The files it names: a mini-swe-agent trajectory and an OpenAI chat. npx finds the installed bin.
    const dir = join(app, 'cli-readme');
    await mkdir(dir);
    await copyFile(join(ROOT, 'test/fixtures/transcripts/mini-swe-agent.traj.json'), join(dir, 'run1.traj.json'));
    await copyFile(join(ROOT, 'test/fixtures/transcripts/openai-chat.json'), join(dir, 'chat.json'));
    const out: string[] = [];
    for (const line of lines) {
      const { stdout } = await run('sh', ['-c', line], {
        cwd: dir,
        timeout: 120_000,
        env: { ...process.env, npm_config_offline: 'true' },
      }).catch((e: { stderr: string }) => {
        throw new Error(`${line}\n${e.stderr}`);
      });
      out.push(stdout);
    }
    expect(out[0]).toMatch(/^run1\.traj\.json: mini-swe-agent, \d+ steps/m);
    expect(out[0]).toMatch(/^chat\.json: openai, \d+ steps/m);
    expect(out[1]).toMatch(/^as of epoch \d+/);
    expect(out[2]).toMatch(/^epoch \d+: \d+ items, \d+ of 4000 tokens/);
    expect(JSON.parse(out[3]!)).toHaveProperty('status');
    expect(out[4]).toMatch(/0 steps with problems/);
  }, 400_000);
});

describe('the README and docs/, run verbatim against the installed package', () => {
  const programs = docPrograms(BLOCKS);

  it('has the Node examples this test runs: the README and every guide page', () => {
    const files = new Set(programs.map((p) => p.file));
    for (const file of ['README.md', 'docs/guide/concepts.md', 'docs/guide/working-sets.md', 'docs/guide/retrieval.md'])
      expect(files).toContain(file);
    for (const file of ['docs/guide/ingest.md', 'docs/guide/rdf.md', 'docs/guide/storage.md'])
      expect(files).toContain(file);
  });

  it.each(programs.map((p, i) => ({ ...p, i })))(
    'runs "$name" in Node with the output its comments state',
    async ({ code, i }) => {
      const dir = join(app, `example-${i}`);
      await mkdir(dir);
      for (const f of ['mini-swe-agent.traj.json', 'swe-agent.traj', 'anthropic-messages.json']) {
        await copyFile(join(ROOT, 'test/fixtures/transcripts', f), join(dir, f));
      }
      await writeFile(join(dir, 'example.ts'), code);
      // A durable ledger must take a second run (the storage example once failed with DUPLICATE_ID);
      // an in-memory one starts afresh, so once is enough.
      const passes = /\bStorage\(/.test(code) ? 2 : 1;
      for (let pass = 0; pass < passes; pass++) {
        const { stdout } = await run(join(BIN, 'tsx'), ['example.ts'], { cwd: dir, timeout: 120_000 });
        expect(stdout.trim().split('\n').filter(Boolean).map(normaliseOutput)).toEqual(statedOutput(code));
      }
    },
    300_000,
  );

  it('type-checks the examples, the adapters subpath and the AI SDK 6 subpath under node16 and bundler resolution', async () => {
    const dir = join(app, 'types');
    await mkdir(dir);
    const sources = programs.filter((p) => !p.name.includes('(after')).map((p) => p.code);
    sources.push(
      "import type { AdaptedTrace } from 'context-ledger/adapters';\nexport const t: AdaptedTrace | null = null;\n",
      "import type { LanguageModelV3Middleware } from '@ai-sdk/provider';\nimport { ledgerMiddleware } from 'context-ledger/ai-sdk/v3';\nexport const m: (o: Parameters<typeof ledgerMiddleware>[0]) => LanguageModelV3Middleware = ledgerMiddleware;\n",
    );
    await Promise.all(sources.map((code, i) => writeFile(join(dir, `example-${i}.ts`), code)));
    for (const [module, moduleResolution] of [
      ['node16', 'node16'],
      ['esnext', 'bundler'],
    ]) {
      const config = {
        compilerOptions: { target: 'es2022', module, moduleResolution, strict: true, noEmit: true, types: ['node'] },
        include: ['*.ts'],
      };
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(config));
      // @types/node from this repository: the fresh folder installs only the package.
      await run(join(BIN, 'tsc'), ['-p', '.', '--typeRoots', join(ROOT, 'node_modules/@types')], { cwd: dir }).catch(
        (e: { stdout: string }) => {
          throw new Error(`${moduleResolution}: ${e.stdout}`);
        },
      );
    }
  }, 120_000);
});

describe('the Worker of docs/runtimes/workers.md, under wrangler dev on loopback', () => {
  let wrangler: ChildProcess | undefined;
  let output = '';

  afterAll(async () => {
    if (wrangler?.pid !== undefined) {
      process.kill(-wrangler.pid, 'SIGTERM');
      await new Promise((resolve) => wrangler!.once('exit', resolve));
    }
  });

  it('commits and materializes through a session Durable Object, with coded 400s', async () => {
    const worker = blockIn('docs/runtimes/workers.md', 'ts', '// worker.ts');
    const config = blockIn('docs/runtimes/workers.md', 'jsonc', '// wrangler.jsonc');
    expect(worker && config).toBeTruthy();
    const dir = join(app, 'worker');
    await mkdir(dir);
    await writeFile(join(dir, 'worker.ts'), worker!.code);
    await writeFile(join(dir, 'wrangler.jsonc'), config!.code);
    // Its types, as docs/runtimes/workers.md says to set them.
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          lib: ['es2023', 'dom'],
          module: 'esnext',
          moduleResolution: 'bundler',
          customConditions: ['workerd'],
          strict: true,
          noEmit: true,
          types: [],
        },
        include: ['worker.ts'],
      }),
    );
    await run(join(BIN, 'tsc'), ['-p', '.'], { cwd: dir }).catch((e: { stdout: string }) => {
      throw new Error(e.stdout);
    });

    const port = await freePort();
    wrangler = spawn(
      join(BIN, 'wrangler'),
      ['dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(await freePort())],
      { cwd: dir, detached: true, env: { ...process.env, ...OFFLINE_ENV }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    wrangler.stdout!.on('data', (d) => (output += d));
    wrangler.stderr!.on('data', (d) => (output += d));
    const base = `http://127.0.0.1:${port}`;
    const post = (path: string, body: string) =>
      fetch(`${base}${path}`, { method: 'POST', body, signal: AbortSignal.timeout(120_000) });

    const deadline = Date.now() + 180_000;
    for (;;) {
      const r = await fetch(`${base}/`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
      if (r) break;
      if (Date.now() > deadline || wrangler.exitCode !== null)
        throw new Error(`wrangler dev did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }

    const committed = await post(
      '/sessions/demo/commit',
      JSON.stringify({ epoch: 1, nodes: [{ id: 'task:a', kind: 'task', body: 'Fix the CAN frame parser' }] }),
    );
    expect(committed.status, output).toBe(200);
    expect(await committed.json()).toMatchObject({ tx: 1 });

    const ws = await post('/sessions/demo/materialize', JSON.stringify({ budget: { tokens: 1000 } }));
    expect(ws.status).toBe(200);
    expect(((await ws.json()) as { items: Array<{ id: string }> }).items.map((i) => i.id)).toEqual(['task:a']);

    // Another session is another object: it does not see session demo's task.
    const other = await post('/sessions/other/materialize', JSON.stringify({ budget: { tokens: 1000 } }));
    expect(((await other.json()) as { items: unknown[] }).items).toEqual([]);

    const duplicate = await post(
      '/sessions/demo/commit',
      JSON.stringify({ epoch: 2, nodes: [{ id: 'task:a', kind: 'task', body: 'again' }] }),
    );
    expect(duplicate.status).toBe(400);
    expect(await duplicate.json()).toMatchObject({ code: 'DUPLICATE_ID' });

    const malformed = await post('/sessions/demo/commit', '{"epoch":');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: string }).code).toMatch(/^[A-Z_]+$/);
  }, 400_000);
});

describe('the browser example of docs/runtimes/browser.md, built by Vite and run in Chromium', () => {
  it('type-checks under the browser condition, builds with no Vite config, commits to OPFS kept across a reload; runs on the dev server', async () => {
    const block = blockIn('docs/runtimes/browser.md', 'ts');
    expect(block.code).toContain("from 'context-ledger'");
    const dir = join(app, 'web');
    await mkdir(dir);
    // The page: the page's code as written, then a report of what the ledger holds for the test.
    // Errors are caught by a classic script that runs before the module.
    await writeFile(
      join(dir, 'index.html'),
      `<!doctype html><meta charset="utf-8"><title>example</title>
<script>addEventListener('unhandledrejection', (e) => { window.failed = String(e.reason?.stack ?? e.reason); });
addEventListener('error', (e) => { window.failed = String(e.error?.stack ?? e.message); });</script>
<script type="module" src="./example.ts"></script>\n`,
    );
    await writeFile(
      join(dir, 'example.ts'),
      `${block.code}
const view = await ledger.asOf({ epoch: ledger.lastEpoch });
(window as unknown as { result: unknown }).result = { lastEpoch: ledger.lastEpoch, bodies: view.nodes.map((n) => n.body) };
`,
    );
    // Its types, as docs/runtimes/browser.md says to set them (the browser entry's, by the `browser` condition).
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          lib: ['es2023', 'dom'],
          module: 'esnext',
          moduleResolution: 'bundler',
          customConditions: ['browser'],
          strict: true,
          noEmit: true,
          types: [],
        },
        include: ['example.ts'],
      }),
    );
    await run(join(BIN, 'tsc'), ['-p', '.'], { cwd: dir }).catch((e: { stdout: string }) => {
      throw new Error(e.stdout);
    });
    // Vite as a host would run it on the installed package: no config file, default options.
    await build({ root: dir, configFile: false, logLevel: 'warn' });
    const assets = await readdir(join(dir, 'dist/assets'));
    // The four assets docs/runtimes/browser.md names, emitted next to the page (no CDN): DuckDB's wasm and worker
    // script, tiktoken's lite wasm, the o200k_base ranks.
    const emitted = [
      'duckdb-eh-.*\\.wasm',
      'duckdb-browser-eh\\.worker-.*\\.js',
      'tiktoken_bg-.*\\.wasm',
      'o200k_base-.*\\.json',
    ];
    for (const name of emitted)
      expect(
        assets.some((f) => new RegExp(`^${name}$`).test(f)),
        `${name} in ${assets}`,
      ).toBe(true);

    const server = await preview({
      root: dir,
      configFile: false,
      logLevel: 'warn',
      preview: { host: '127.0.0.1', port: await freePort(), strictPort: true },
    });
    // And Vite's dev server, with the one option docs/runtimes/browser.md says it needs.
    const dev = await createViteServer({
      root: dir,
      configFile: false,
      // Not 'warn': it serves DuckDB's worker with a source map naming sources duckdb-wasm does not ship.
      logLevel: 'error',
      optimizeDeps: { exclude: ['context-ledger'] },
      server: { host: '127.0.0.1', port: await freePort(), strictPort: true },
    });
    await dev.listen();
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
    try {
      const outcome = async (page: Page) => {
        const handle = await page.waitForFunction(
          () => (window as unknown as { result?: unknown }).result ?? (window as unknown as { failed?: string }).failed,
          null,
          { timeout: 120_000 },
        );
        return handle.jsonValue();
      };
      const page = await browser.newPage();
      await page.goto(server.resolvedUrls!.local[0]!);
      expect(await outcome(page)).toEqual({ lastEpoch: 1, bodies: ['hello'] });
      // A reload opens the same OPFS ledger: the first commit is there, the second adds to it.
      await page.reload();
      expect(await outcome(page)).toEqual({ lastEpoch: 2, bodies: ['hello', 'hello'] });
      // A new browser context has its own, empty OPFS.
      const devPage = await browser.newPage();
      await devPage.goto(dev.resolvedUrls!.local[0]!);
      expect(await outcome(devPage)).toEqual({ lastEpoch: 1, bodies: ['hello'] });
    } finally {
      await browser.close();
      await Promise.all([server.close(), dev.close()]);
    }
  }, 400_000);
});
