import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../scripts/eval-replay.js';
import { captureCli } from '../helpers/capture-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/transcripts/mini-swe-agent.traj.json', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'replay-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (argv: string[]) => captureCli(runCli, argv, root);

describe('context-ledger replay', () => {
  it('replays the fixture and writes replay.json, replay.md and recall.svg', async () => {
    const out = join(tmp, 'out');
    const r = await run(['replay', fixture, '--budget', '150,4000', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('replay: 1/1 trajectories, 1 events');

    const json = JSON.parse(readFileSync(join(out, 'replay.json'), 'utf8'));
    expect(json).toMatchObject({ ceiling: 1, events: 1 });
    expect(json.budgets.map((b: { budget: number }) => b.budget)).toEqual([150, 4000]);
    for (const b of json.budgets) {
      expect(Object.keys(b.methods)).toEqual([
        'ledger',
        'recency',
        'recencyPaired',
        'bm25',
        'observationMasking',
        'compaction',
      ]);
      for (const m of Object.values(b.methods) as Array<Record<string, unknown>>) {
        expect(m).toMatchObject({
          recall: expect.any(Number),
          precision: expect.any(Number),
          tokens: expect.any(Number),
        });
        expect(m.recallCI).toEqual([expect.any(Number), expect.any(Number)]);
      }
    }

    const md = readFileSync(join(out, 'replay.md'), 'utf8');
    expect(md).toBe(r.stdout);
    expect(md).toContain('## 150 tokens');
    expect(md).toContain('## 4,000 tokens');
    // A row in each budget's recall table and in its cost table.
    expect(md.match(/^\| recency, pairs kept \|/gm)).toHaveLength(4);
    expect(md).toContain('shorter than 4 non-space characters ignored');

    const svg = readFileSync(join(out, 'recall.svg'), 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(6);
    expect(md).toContain('## Cost: every step of every trajectory, prompt cache on');
    expect(md).toContain('claude-sonnet-4-5 at $3/Mtok, cache reads at 0.1× and cache writes at 1.25×');
    expect(md.match(/^\| untrimmed transcript \(no budget\) \|/gm)).toHaveLength(2);
  });

  it('--model, --input-price, --cache-read and --cache-write price the cost section', async () => {
    const out = join(tmp, 'priced');
    const r = await run([
      'replay',
      fixture,
      '--budget',
      '4000',
      '--model',
      'other-model',
      '--input-price',
      '15',
      '--cache-read',
      '0.5',
      '--cache-write',
      '1',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'replay.json'), 'utf8'));
    expect(json.cost.pricing).toEqual({ model: 'other-model', inputPerMillion: 15, cacheRead: 0.5, cacheWrite: 1 });
    const m = json.cost.budgets[0].methods.ledger;
    expect(m.cost).toBeCloseTo(((m.cached * 0.5 + m.written) * 15) / 1e6, 12);
    expect(r.stdout).toContain('other-model at $15/Mtok, cache reads at 0.5× and cache writes at 1×');
  });

  it.each([
    [[], 'a command is required'],
    [['report'], 'unknown command "report"'],
    [['replay', fixture, '--budget', '1000,abc'], '--budget: "abc" is not a positive integer'],
    [['replay', fixture, '--budget', '0'], '--budget: "0" is not a positive integer'],
    [['replay', fixture, '--max-nodes', '0'], '--max-nodes: "0" is not a positive integer'],
    [['replay', fixture, '--hops', '2x'], '--hops: "2x" is not a positive integer'],
    [['replay', fixture, '--cache-read', 'cheap'], '--cache-read: "cheap" is not a non-negative number'],
    [['replay', fixture, '--cache-write=-1'], '--cache-write: "-1" is not a non-negative number'],
    [['replay', fixture, '--input-price', 'x'], '--input-price: "x" is not a non-negative number'],
    [['replay', fixture, '--model', ''], '--model needs a name'],
    [['replay', fixture, '--nope'], "Unknown option '--nope'"],
    [['replay', fixture, '--out'], "Option '--out <value>' argument missing"],
    [['replay', join(tmp, 'missing.traj.json')], 'no such file or directory'],
    [['replay', tmp], 'no *.traj.json files in'],
  ])('argument error %j: usage on stderr, exit 2', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('Usage: context-ledger replay');
    expect(r.stdout).toBe('');
  });

  it('--max-nodes and --hops reach the materializer and the report names them', async () => {
    const out = join(tmp, 'lifted');
    const r = await run(['replay', fixture, '--budget', '4000', '--max-nodes', '4096', '--hops', '3', '--out', out]);
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'replay.json'), 'utf8'));
    expect(json.settings).toMatchObject({ maxNodes: 4096, hops: 3 });
    expect(r.stdout).toContain('`maxNodes` 4096, `hops` 3');
  });

  it('--help prints usage and exits 0', async () => {
    const r = await run(['replay', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--budget LIST');
  });

  it('the executable entry sets the exit code', async () => {
    const tsx = join(root, 'node_modules/.bin/tsx');
    const err = await promisify(execFile)(tsx, ['scripts/eval-replay.ts', '--budget', 'x'], { cwd: root }).catch(
      (e) => e,
    );
    expect(err.code).toBe(2);
    expect(err.stderr).toContain('Usage: context-ledger replay');
  });
});
