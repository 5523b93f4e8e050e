import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, encodeLogHeader } from '../../src/storage/file-format.js';
import { nodeDirectoryStorage } from '../../src/storage/node-directory.js';
import { bytesEqual, LedgerPool, openLedger } from '../helpers/ledgers.js';
import { transactionFor } from './fixtures/transactions.js';
import { openDurable, referenceSnapshot, removeTempDirs, tempDir } from './helpers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());
afterEach(removeTempDirs);

const HEADER = 16;

/** A directory whose log holds transactions 1..n, and that log's frames (header stripped). */
async function loggedDir(n: number): Promise<{ dir: string; log: string; header: Buffer; frames: Buffer[] }> {
  const dir = await tempDir();
  const { ledger } = await openDurable(dir);
  for (let i = 1; i <= n; i++) await ledger.commit(transactionFor(i));
  await ledger.close();
  const log = join(dir, 'log.bin');
  const bytes = await readFile(log);
  const frames: Buffer[] = [];
  for (let at = HEADER; at < bytes.length; ) {
    const end = at + 8 + bytes.readUInt32LE(at);
    frames.push(bytes.subarray(at, end));
    at = end;
  }
  return { dir, log, header: bytes.subarray(0, HEADER), frames };
}

async function openError(dir: string): Promise<unknown> {
  const storage = await nodeDirectoryStorage(dir);
  try {
    const ledger = await openLedger({ storage });
    await ledger.close();
    return null;
  } catch (e) {
    await storage.close();
    return e;
  }
}

describe('log frames carry a sequence number', () => {
  const tamperings: Array<[string, (f: Buffer[]) => Buffer[]]> = [
    ['a missing frame', (f) => [f[0]!, f[1]!, f[3]!, f[4]!]],
    ['a duplicated frame', (f) => [f[0]!, f[1]!, f[1]!, f[2]!, f[3]!, f[4]!]],
    ['two frames swapped', (f) => [f[0]!, f[2]!, f[1]!, f[3]!, f[4]!]],
    [
      'an injected void record',
      (f) => [f[0]!, f[1]!, Buffer.from(encodeFrame(new TextEncoder().encode('{"op":"void","tx":2}'))), ...f.slice(2)],
    ],
  ];
  it.each(tamperings)(
    '%s is SNAPSHOT_CORRUPT',
    async (_name, tamper) => {
      const { dir, log, header, frames } = await loggedDir(5);
      await writeFile(log, Buffer.concat([header, ...tamper(frames)]));
      expect(await openError(dir)).toMatchObject({ code: 'SNAPSHOT_CORRUPT' });
      // The first test starts DuckDB-WASM: slow on a busy machine.
    },
    180_000,
  );

  it('a log of context-ledger 0.1 (records without sequence numbers) still opens and is continued', async () => {
    const dir = await tempDir();
    const frames = [1, 2, 3].map((i) =>
      encodeFrame(new TextEncoder().encode(JSON.stringify({ op: 'commit', tx: transactionFor(i) }))),
    );
    await writeFile(join(dir, 'log.bin'), Buffer.concat([encodeLogHeader(0), ...frames]));
    const { ledger } = await openDurable(dir);
    expect(ledger.lastTx).toBe(3);
    await ledger.commit(transactionFor(4));
    await ledger.close();
    const { ledger: again } = await openDurable(dir);
    expect(bytesEqual(await again.snapshot(), await referenceSnapshot(pool, 4))).toBe(true);
    await again.close();
  });
});

describe('a cut log tail is reported as ledger.recovered', () => {
  it('a flipped byte in the last frame: the frame is cut and reported as whole-looking', async () => {
    const { dir, log, header, frames } = await loggedDir(4);
    const last = Buffer.from(frames[3]!);
    last[last.length - 3]! ^= 0x01;
    await writeFile(log, Buffer.concat([header, ...frames.slice(0, 3), last]));
    const { ledger } = await openDurable(dir);
    expect(ledger.lastTx).toBe(3);
    expect(ledger.recovered).toMatchObject({ file: log, wholeFrame: true, bytes: last.length });
    await ledger.close();
    // Reported once: the cut is made durable, and the next open finds nothing to cut.
    const { ledger: again } = await openDurable(dir);
    expect(again.recovered).toBeNull();
    await again.close();
  });

  it('a torn tail (half a frame) is cut and reported as not acknowledged', async () => {
    const { dir, log, header, frames } = await loggedDir(3);
    const half = frames[2]!.subarray(0, frames[2]!.length >> 1);
    await writeFile(log, Buffer.concat([header, ...frames.slice(0, 2), half]));
    const { ledger } = await openDurable(dir);
    expect(ledger.lastTx).toBe(2);
    expect(ledger.recovered).toMatchObject({ wholeFrame: false, bytes: half.length });
    await ledger.close();
  });

  it('an intact log reports nothing', async () => {
    const { dir } = await loggedDir(2);
    const { ledger } = await openDurable(dir);
    expect(ledger.recovered).toBeNull();
    await ledger.close();
  });
});
