import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { nodeDirectoryStorage } from '../../src/storage/node-directory.js';
import { captureCli } from '../helpers/capture-cli.js';
import { openLedger } from '../helpers/ledgers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const T = join(root, 'test/fixtures/transcripts');
const tmp = mkdtempSync(join(tmpdir(), 'ledger-cli-input-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const run = (argv: string[]) => captureCli(runCli, argv, tmp);
const openai = readFileSync(join(T, 'openai-chat.json'), 'utf8');

describe('context-ledger input checks', () => {
  it('--format openai on a mini-swe-agent file is refused (exit 1), not ingested as meaningless transactions', async () => {
    const out = join(tmp, 'mismatch');
    const r = await run(['ingest', join(T, 'mini-swe-agent.traj.json'), '--format', 'openai', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--format openai given, but the file is a mini-swe-agent transcript');
    expect(existsSync(out)).toBe(false);
  });

  it('ingest a.json a.json is refused before anything is written', async () => {
    const file = join(tmp, 'a.json');
    writeFileSync(file, openai);
    const out = join(tmp, 'twice');
    const r = await run(['ingest', file, 'a.json', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('given twice');
    expect(existsSync(out)).toBe(false);
  });

  it('a JSON transcript starting with a UTF-8 byte-order mark is read', async () => {
    const file = join(tmp, 'bom.json');
    writeFileSync(file, `\uFEFF${openai}`);
    const r = await run(['ingest', file, '--out', join(tmp, 'bom')]);
    expect([r.code, r.stderr]).toEqual([0, '']);
  });

  it('two files of the same base name in different directories get distinct names', async () => {
    for (const run of ['runA', 'runB']) {
      mkdirSync(join(tmp, run));
      writeFileSync(join(tmp, run, 'trajectory.json'), openai);
    }
    const out = join(tmp, 'same-name');
    const r = await run(['ingest', 'runA/trajectory.json', 'runB/trajectory.json', '--out', out]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const storage = await nodeDirectoryStorage(out);
    const ledger = await openLedger({ storage });
    const ids = (await ledger.asOf()).nodes.map((n) => n.id);
    await ledger.close();
    expect(ids.some((id) => id.startsWith('runA/trajectory/'))).toBe(true);
    expect(ids.some((id) => id.startsWith('runB/trajectory/'))).toBe(true);
  });

  it('materialize with a stray positional argument is refused (exit 2)', async () => {
    const r = await run(['materialize', 'stray', '--ledger', join(tmp, 'bom'), '--budget', '100']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unexpected argument "stray"');
  });

  it('ingest --out <a regular file> exits 1 with a clear message, no stack trace', async () => {
    const file = join(tmp, 'plain-file');
    writeFileSync(file, 'x');
    const r = await run(['ingest', join(T, 'openai-chat.json'), '--out', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is a file, not a directory');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a log tail cut on open is printed as a warning', async () => {
    const out = join(tmp, 'damaged');
    expect((await run(['ingest', join(T, 'openai-chat.json'), '--out', out])).code).toBe(0);
    const log = readFileSync(join(out, 'log.bin'));
    log[log.length - 2]! ^= 0x01;
    writeFileSync(join(out, 'log.bin'), log);
    const r = await run(['inspect', '--ledger', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^warning: cut the last frame of .*log\.bin.*if it was acknowledged, that transaction is lost/,
    );
  });
});
