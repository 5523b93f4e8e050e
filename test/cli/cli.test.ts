import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/adapters/detect-format.js';
import { runCli } from '../../src/cli/run.js';
import { validateOpenAIMessages } from '../../src/working-set/validate-messages.js';
import { captureCli } from '../helpers/capture-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const T = 'test/fixtures/transcripts';
const FIXTURES = [
  `${T}/mini-swe-agent.traj.json`,
  `${T}/swe-agent.traj`,
  `${T}/openai-chat.json`,
  `${T}/anthropic-messages.json`,
];
const tmp = mkdtempSync(join(tmpdir(), 'ledger-cli-'));
const ledgerDir = join(tmp, 'ledger');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (argv: string[]) => captureCli(runCli, argv, root);

const fixture = (name: string) => JSON.parse(readFileSync(join(root, T, name), 'utf8'));

describe('detectFormat', () => {
  it('tells the four transcript formats apart by shape, and refuses other JSON', () => {
    expect(detectFormat(fixture('mini-swe-agent.traj.json'))).toBe('mini-swe-agent');
    expect(detectFormat(fixture('swe-agent.traj'))).toBe('swe-agent');
    expect(detectFormat(fixture('openai-chat.json'))).toBe('openai');
    expect(detectFormat(fixture('anthropic-messages.json'))).toBe('anthropic');
    const chat = [{ date: '8 May 2023', turns: [{ speaker: 'Caroline', text: 'I went to a support group.' }] }];
    expect(detectFormat(chat)).toBe('conversation');
    expect(detectFormat({ sessions: chat })).toBe('conversation');
    for (const other of [{ name: 'context-ledger' }, [], [1, 2, 3], 'text', null, { messages: [] }, [{ turns: [] }]]) {
      expect(detectFormat(other)).toBeNull();
    }
  });
});

describe('context-ledger', () => {
  beforeAll(async () => {
    const r = await run(['ingest', ...FIXTURES, '--out', ledgerDir]);
    expect(r.code, r.stderr).toBe(0);
  });

  it('ingest: every format into one durable ledger, epochs following each other, with progress', async () => {
    // The ingest ran in beforeAll; run it again into a second directory to see its output.
    const r = await run(['ingest', ...FIXTURES, '--out', join(tmp, 'second')]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.slice(0, 4).map((l) => l.split(': ')[1]!.split(',')[0])).toEqual([
      'mini-swe-agent',
      'swe-agent',
      'openai',
      'anthropic',
    ]);
    expect(lines[0]).toMatch(/epochs 0-12$/);
    expect(lines[1]).toMatch(/epochs 13-24$/);
    expect(lines[4]).toMatch(/: 42 transactions, last epoch 41$/);
    expect(r.stderr).toContain('ingest: 42/42 anthropic-messages');
    expect(existsSync(join(tmp, 'second', 'log.bin')) || existsSync(join(tmp, 'second', 'snapshot.bin'))).toBe(true);
  });

  it('ingest: a conversation is detected and written the way fromConversation writes it', async () => {
    const file = join(tmp, 'chat.json');
    writeFileSync(
      file,
      JSON.stringify([
        { date: '8 May 2023', turns: [{ speaker: 'Caroline', text: 'I went to a LGBTQ support group yesterday.' }] },
        { date: '20 May 2023', turns: [{ speaker: 'Melanie', text: 'I painted a lake sunrise last year.' }] },
      ]),
    );
    const dir = join(tmp, 'chat-ledger');
    const r = await run(['ingest', file, '--out', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('chat.json: conversation, 2 steps');
    const found = await run(['retrieve', '--ledger', dir, '--text', 'What did Melanie paint?']);
    expect(found.code, found.stderr).toBe(0);
    const result = JSON.parse(found.stdout) as {
      status: string;
      evidence: Array<{ id: string; meta?: { speaker?: string } }>;
    };
    expect(result.status).toBe('supported');
    expect(result.evidence[0]).toMatchObject({ id: 'chat/2:1', meta: { speaker: 'Melanie' } });
  });

  it('ingest: a file that is not a transcript exits 1 with a clear message and creates no ledger', async () => {
    const notATrace = join(tmp, 'config.json');
    writeFileSync(notATrace, JSON.stringify({ name: 'x', version: '1.0.0' }));
    const out = join(tmp, 'never');
    const r = await run(['ingest', `${T}/openai-chat.json`, notATrace, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('config.json: not a transcript this tool reads');
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    [['ingest', 'README.md', '--out', 'x'], 1, 'README.md: cannot read a JSON transcript'],
    [['ingest', 'missing.json', '--out', 'x'], 1, 'missing.json: cannot read a JSON transcript: no such file'],
    [['ingest', `${T}/openai-chat.json`, '--out', ledgerDir], 1, 'DUPLICATE_ID'],
    [['ingest', `${T}/openai-chat.json`], 2, '--out is required'],
    [['ingest', '--out', 'x'], 2, 'at least one transcript file is required'],
    [['ingest', `${T}/openai-chat.json`, '--out', 'x', '--format', 'csv'], 2, '--format: "csv" is not one of'],
    [['materialize', '--ledger', ledgerDir], 2, '--budget is required'],
    [['materialize', '--ledger', ledgerDir, '--budget', '0'], 2, '--budget: "0" is not an integer >= 1'],
    [['materialize', '--ledger', join(tmp, 'nothing'), '--budget', '100'], 1, 'no ledger in'],
    [['retrieve', '--ledger', ledgerDir], 2, 'say what to retrieve'],
    [['retrieve', '--ledger', ledgerDir, '--range', '1-2'], 2, 'give --path too'],
    [['inspect', '--ledger', ledgerDir, '--nope'], 2, "Unknown option '--nope'"],
    [['replay', `${T}/../retrieval/locomo-mini.json`], 1, 'not a transcript this tool reads'],
    [[], 2, 'a command is required'],
    [['frobnicate'], 2, 'unknown command "frobnicate"'],
  ])('%j exits %i: %s', async (argv, code, message) => {
    const r = await run(argv);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(message);
    if (code === 2) expect(r.stderr).toContain('Usage: context-ledger');
  });

  it('materialize: the working set within the budget, each left-out candidate with its reason', async () => {
    const r = await run(['materialize', '--ledger', ledgerDir, '--budget', '300', '--epoch', '12']);
    expect(r.code).toBe(0);
    const [head, ...rest] = r.stdout.trim().split('\n');
    const m = /^epoch 12: (\d+) items, (\d+) of 300 tokens/.exec(head!);
    expect(m).not.toBeNull();
    expect(Number(m![2])).toBeLessThanOrEqual(300);
    expect(rest.filter((l) => l.startsWith('  [tier '))).toHaveLength(Number(m![1]));
    expect(r.stdout).toMatch(/ {2}mini-swe-agent\/\S+: budget/);
    expect(r.stdout).toContain('superseded by mini-swe-agent/rev:7:1');

    const messages = await run([
      'materialize',
      '--ledger',
      ledgerDir,
      '--budget',
      '300',
      '--epoch',
      '12',
      '--messages',
      'openai',
    ]);
    expect(messages.code).toBe(0);
    const parsed = JSON.parse(messages.stdout);
    expect(parsed.length).toBeGreaterThan(0);
    expect(validateOpenAIMessages(parsed)).toEqual([]);
  });

  it('retrieve: JSON with the status and ranked evidence; an unsupported path abstains naming it', async () => {
    const r = await run(['retrieve', '--ledger', ledgerDir, '--text', 'dividing by zero', '--records', '3']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.status).toBe('supported');
    expect(result.evidence.length).toBeLessThanOrEqual(3);
    const missing = await run(['retrieve', '--ledger', ledgerDir, '--path', 'nowhere/x.py', '--range', '1-5']);
    const abstained = JSON.parse(missing.stdout);
    expect(abstained.status).toBe('abstain');
    expect(abstained.missing[0]).toMatchObject({ path: 'nowhere/x.py', range: [1, 5] });
  });

  it('inspect: counts, open work, supersessions with what replaced them, contradictions', async () => {
    const r = await run(['inspect', '--ledger', ledgerDir, '--epoch', '12', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.epoch).toBe(12);
    expect(report.open).toContain('mini-swe-agent/task');
    expect(report.superseded).toContainEqual({
      id: 'mini-swe-agent/ev:2:1',
      kind: 'evidence',
      where: 'pkg/calc.py:4-9',
      validFrom: 2,
      closedAt: 7,
      by: ['mini-swe-agent/rev:7:1'],
    });
    // Nothing closed after epoch 12 is reported as of 12.
    expect(report.superseded.every((s: { closedAt: number }) => s.closedAt <= 12)).toBe(true);
    expect(report.contradictions).toEqual([]);
    const text = await run(['inspect', '--ledger', ledgerDir]);
    expect(text.stdout).toMatch(/^as of epoch 41 \(42 transactions recorded\)/);
  });

  it('replay: a working set per step, within the budget and pairing-valid', async () => {
    const r = await run(['replay', `${T}/mini-swe-agent.traj.json`, '--budget', '200', '--json']);
    expect(r.code).toBe(0);
    const steps = JSON.parse(r.stdout) as Array<{ epoch: number; tokens: number; problems: string[] }>;
    expect(steps.map((s) => s.epoch)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(steps.at(-1)!.tokens).toBeGreaterThan(100);
    for (const s of steps) {
      expect(s.tokens).toBeLessThanOrEqual(200);
      expect(s.problems).toEqual([]);
    }
  });

  it('--help per command and --version', async () => {
    for (const command of ['ingest', 'materialize', 'retrieve', 'inspect', 'replay', 'mcp']) {
      const r = await run([command, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: context-ledger ${command}`);
    }
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('the executable sets the exit code', async () => {
    const tsx = join(root, 'node_modules/.bin/tsx');
    const err = await promisify(execFile)(tsx, ['src/cli/main.ts', 'ingest', 'package.json', '--out', join(tmp, 'p')], {
      cwd: root,
    }).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr).toContain('package.json: not a transcript this tool reads');
  });
});
