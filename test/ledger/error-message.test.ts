import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { asLedgerError, LedgerError } from '../../src/errors.js';
import { captureCli } from '../helpers/capture-cli.js';

const occurrences = (text: string, word: string) => text.split(word).length - 1;

describe('error messages name their code once (they read "SNAPSHOT_CORRUPT: SNAPSHOT_CORRUPT: …")', () => {
  it('a LedgerError wrapping one of the same code keeps the inner field and reason, not its code', () => {
    const inner = new LedgerError('SNAPSHOT_CORRUPT', { field: 'storage', reason: 'log.bin at byte 12: bad checksum' });
    const outer = new LedgerError('SNAPSHOT_CORRUPT', { field: 'snapshot', reason: inner.message }, inner);
    expect(occurrences(outer.message, 'SNAPSHOT_CORRUPT')).toBe(1);
    expect(outer.message).toBe(
      'SNAPSHOT_CORRUPT: The snapshot bytes are not a complete, intact ledger snapshot (snapshot): storage: log.bin at byte 12: bad checksum',
    );
    // Another code's message stays whole: it says what failed underneath.
    const storage = new LedgerError('STORAGE_FAILED', { field: 'storage', reason: 'EACCES' });
    const wrapped = new LedgerError('SNAPSHOT_CORRUPT', { field: 'snapshot', reason: storage.message });
    expect(wrapped.message).toContain('STORAGE_FAILED: ');
    expect(asLedgerError(outer)).toBe(outer);
  });

  const tmp = mkdtempSync(join(tmpdir(), 'ledger-message-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('the CLI prints a ledger error with its code once', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const argv = ['ingest', 'test/fixtures/transcripts/openai-chat.json', '--out', join(tmp, 'ledger')];
    expect((await captureCli(runCli, argv, root)).code).toBe(0);
    const again = await captureCli(runCli, argv, root);
    expect(again.code).toBe(1);
    expect(occurrences(again.stderr, 'DUPLICATE_ID')).toBe(1);
  });
});
