import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allDocBlocks, docPrograms, normaliseOutput, statedOutput } from './helpers/doc-blocks.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
const run = promisify(execFile);

describe('README', () => {
  it('is at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('shows the install line and exactly two set-up commands on its first screen: the demo and the tests', () => {
    const firstScreen = readme.split('\n').slice(0, 40).join('\n');
    const blocks = [...firstScreen.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((m) =>
      m[1]!
        .split('\n')
        .map((l) => l.replace(/#.*/, '').trim())
        .filter(Boolean),
    );
    expect(blocks).toContainEqual(['npm install context-ledger']);
    expect(blocks).toContainEqual(['npm install && npm start', 'npm test']);
  });

  it('carries the API example verbatim, and the example runs with the output its comments state', async () => {
    const example = await readFile(join(ROOT, 'demo/api-example.ts'), 'utf8');
    expect(readme).toContain(example.trim());
    const logs: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      logs.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    });
    try {
      await import('../demo/api-example.js');
    } finally {
      spy.mockRestore();
    }
    expect(logs.map(normaliseOutput)).toEqual(statedOutput(example));
  });
});

/**
 * `context-ledger` and each subpath of the package's `exports` mapped to the source file its
 * built file comes from (`./dist/x/index.js` → `src/x/index.ts`).
 */
function sourcePaths(): Record<string, string[]> {
  const exports: Record<string, string | { default?: string }> = JSON.parse(
    readFileSync(join(ROOT, 'package.json'), 'utf8'),
  ).exports;
  const paths: Record<string, string[]> = { 'context-ledger': [join(ROOT, 'src/entries/node.ts')] };
  for (const [subpath, target] of Object.entries(exports)) {
    const built = typeof target === 'string' ? target : target.default;
    if (subpath === '.' || !built?.startsWith('./dist/')) continue;
    paths[`context-ledger/${subpath.slice(2)}`] = [
      join(ROOT, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
    ];
  }
  return paths;
}

/**
 * Every `ts` block of the README and `docs/`, run from source as its own Node program (tsx, with
 * `context-ledger` and its subpaths mapped to `src/`) in a fresh folder under `.scratch/` holding
 * the transcripts the examples read. The package test runs the same programs against the packed package.
 */
describe('the examples of the README and docs/, run from source', () => {
  const blocks = allDocBlocks(ROOT);
  const programs = docPrograms(blocks);
  let dir: string;

  beforeAll(async () => {
    // Inside the repository (.scratch/ is ignored), so the examples resolve the installed
    // packages (`@duckdb/duckdb-wasm`, the optional peers) as a user's project does.
    await mkdir(join(ROOT, '.scratch'), { recursive: true });
    dir = await mkdtemp(join(ROOT, '.scratch', 'doc-examples-'));
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(ROOT, 'tsconfig.json'),
        compilerOptions: {
          paths: sourcePaths(),
        },
      }),
    );
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds the examples: every ts block is run or marked with why it is not', () => {
    const ts = blocks.filter((b) => b.lang === 'ts');
    expect(ts.length).toBeGreaterThan(10);
    for (const b of ts.filter((b) => b.notRun !== undefined)) expect(b.notRun!.length).toBeGreaterThan(20);
    expect(new Set(programs.map((p) => p.file))).toContain('docs/guide/working-sets.md');
  });

  it.each(programs.map((p, i) => ({ ...p, i })))(
    'runs $name with the output its comments state',
    async ({ code, i }) => {
      const cwd = join(dir, `example-${i}`);
      await mkdir(cwd);
      for (const f of ['mini-swe-agent.traj.json', 'swe-agent.traj', 'anthropic-messages.json']) {
        await copyFile(join(ROOT, 'test/fixtures/transcripts', f), join(cwd, f));
      }
      await writeFile(join(cwd, 'example.ts'), code);
      // A durable ledger must take a second run; an in-memory one starts afresh, so once is enough.
      const passes = /\bStorage\(/.test(code) ? 2 : 1;
      for (let pass = 0; pass < passes; pass++) {
        const { stdout } = await run(
          join(ROOT, 'node_modules/.bin/tsx'),
          ['--tsconfig', join(dir, 'tsconfig.json'), 'example.ts'],
          { cwd, timeout: 180_000 },
        );
        expect(stdout.trim().split('\n').filter(Boolean).map(normaliseOutput)).toEqual(statedOutput(code));
      }
    },
    400_000,
  );
});
