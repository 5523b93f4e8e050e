import { appendFile, copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, encodeLogHeader } from '../../src/storage/file-format.js';
import { nodeDirectoryStorage } from '../../src/storage/node-directory.js';
import { bytesEqual, codeOf, LedgerPool, openLedger } from '../helpers/ledgers.js';
import { transactionFor } from './fixtures/transactions.js';
import { leaveDeadLock, openDurable, referenceSnapshot, removeTempDirs, tempDir, viewsOf } from './helpers.js';

const pool = new LedgerPool();
afterAll(() => pool.close());
afterEach(removeTempDirs);

const sizeOf = async (path: string): Promise<number> => (await stat(path)).size;

describe('node directory storage', () => {
  it('round trip: a reopened directory gives the same as-of views and snapshot bytes', async () => {
    const dir = join(await tempDir(), 'new', 'ledger'); // created on first open
    const { ledger } = await openDurable(dir);
    for (let i = 1; i <= 12; i++) await ledger.commit(transactionFor(i));
    const bytes = await ledger.snapshot();
    const views = await viewsOf(ledger);
    await ledger.close();

    const { ledger: again } = await openDurable(dir);
    expect(again.lastTx).toBe(12);
    expect(await viewsOf(again)).toEqual(views);
    expect(bytesEqual(await again.snapshot(), bytes)).toBe(true);
    await again.close();
  });

  it('compaction, more commits, reopen: exactly the committed transactions; compactEvery paces it', async () => {
    const dir = await tempDir();
    const { ledger, storage } = await openDurable(dir, { compactEvery: 4 });
    const compacted: boolean[] = [];
    for (let i = 1; i <= 10; i++) {
      await ledger.commit(transactionFor(i));
      compacted.push(await ledger.compact());
    }
    expect(compacted.map((c, i) => (c ? i + 1 : 0)).filter(Boolean)).toEqual([4, 8]);
    expect(storage.logRecords).toBe(2);
    await ledger.close();

    const { ledger: again } = await openDurable(dir);
    expect(again.lastTx).toBe(10);
    expect(bytesEqual(await again.snapshot(), await referenceSnapshot(pool, 10))).toBe(true);
    await again.close();
  });

  it('a crash after the snapshot rename but before the log reset applies no record twice', async () => {
    const dir = await tempDir();
    const { ledger } = await openDurable(dir);
    for (let i = 1; i <= 6; i++) await ledger.commit(transactionFor(i));
    await copyFile(join(dir, 'log.bin'), join(dir, 'old-log.bin'));
    expect(await ledger.compact()).toBe(true);
    await ledger.close();
    // Put the already-folded log back, as if the crash hit between the two renames, and leave a
    // half-written snapshot draft from a later attempt.
    await copyFile(join(dir, 'old-log.bin'), join(dir, 'log.bin'));
    await writeFile(join(dir, 'snapshot.bin.tmp'), 'partial');

    const { ledger: again } = await openDurable(dir);
    expect(again.lastTx).toBe(6);
    await again.commit(transactionFor(7));
    await again.close();

    const { ledger: third } = await openDurable(dir);
    expect(bytesEqual(await third.snapshot(), await referenceSnapshot(pool, 7))).toBe(true);
    await third.close();
  });

  it('a torn tail (half a frame) is cut off; later appends survive', async () => {
    const dir = await tempDir();
    const { ledger } = await openDurable(dir);
    for (let i = 1; i <= 5; i++) await ledger.commit(transactionFor(i));
    await ledger.close();
    const log = join(dir, 'log.bin');
    const intact = await sizeOf(log);
    const frame = encodeFrame(new TextEncoder().encode(JSON.stringify({ op: 'commit', tx: transactionFor(6) })));
    await appendFile(log, frame.subarray(0, frame.length >> 1));

    const { ledger: again } = await openDurable(dir);
    expect(again.lastTx).toBe(5);
    expect(await sizeOf(log)).toBe(intact);
    await again.commit(transactionFor(6));
    await again.close();

    const { ledger: third } = await openDurable(dir);
    expect(bytesEqual(await third.snapshot(), await referenceSnapshot(pool, 6))).toBe(true);
    await third.close();
  });

  it('a corrupt frame in the middle is SNAPSHOT_CORRUPT naming the file and offset', async () => {
    const dir = await tempDir();
    const { ledger } = await openDurable(dir);
    for (let i = 1; i <= 3; i++) await ledger.commit(transactionFor(i));
    await ledger.close();
    const log = join(dir, 'log.bin');
    const bytes = await readFile(log);
    const second = 16 + 8 + bytes.readUInt32LE(16);
    bytes[second + 8 + 5]! ^= 0x01;
    await writeFile(log, bytes);

    const storage = await nodeDirectoryStorage(dir);
    const error = await openLedger({ storage }).catch((e: unknown) => e);
    await storage.close();
    expect(error).toMatchObject({ code: 'SNAPSHOT_CORRUPT', details: { file: log, offset: second } });
  });

  it('a damaged snapshot file or a log newer than the snapshot is SNAPSHOT_CORRUPT', async () => {
    const dir = await tempDir();
    const { ledger } = await openDurable(dir);
    await ledger.commit(transactionFor(1));
    await ledger.compact();
    await ledger.close();
    const snapshot = join(dir, 'snapshot.bin');
    const good = await readFile(snapshot);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 40]! ^= 0x01;
    await writeFile(snapshot, flipped);
    const s1 = await nodeDirectoryStorage(dir);
    expect(await codeOf(() => s1.load())).toBe('SNAPSHOT_CORRUPT');
    await s1.close();

    await writeFile(snapshot, good);
    await writeFile(join(dir, 'log.bin'), encodeLogHeader(2));
    const s2 = await nodeDirectoryStorage(dir);
    expect(await codeOf(() => s2.load())).toBe('SNAPSHOT_CORRUPT');
    await s2.close();
  });

  it('the lock refuses a second opener until released, and a dead holder is taken over', async () => {
    const dir = await tempDir();
    const first = await nodeDirectoryStorage(dir);
    expect(await codeOf(() => nodeDirectoryStorage(dir))).toBe('STORAGE_FAILED');
    await first.close();
    const second = await nodeDirectoryStorage(dir);
    await second.close();

    await leaveDeadLock(dir);
    const third = await nodeDirectoryStorage(dir);
    expect(JSON.parse(await readFile(join(dir, 'lock', 'owner'), 'utf8'))).toMatchObject({ pid: process.pid });
    await third.close();
    await expect(stat(join(dir, 'lock'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('nodeDirectoryStorage on a regular file, under a file, with NUL or a non-string path: INVALID_OPTION naming dir', async () => {
    const dir = await tempDir();
    const file = join(dir, 'plain');
    await writeFile(file, 'x');
    for (const bad of [file, join(file, 'sub'), `${dir}/a\0b`, 42, undefined, '']) {
      const error = await nodeDirectoryStorage(bad as string).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'INVALID_OPTION', details: { field: 'dir' } });
    }
    expect(await codeOf(() => nodeDirectoryStorage(dir, { staleLockMs: 5 }))).toBe('INVALID_OPTION');
  });

  it('rejects a compactEvery that is not a positive integer', async () => {
    const dir = await tempDir();
    expect(await codeOf(() => nodeDirectoryStorage(dir, { compactEvery: 0 }))).toBe('INVALID_OPTION');
  });
});
