import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromAnthropic, fromOpenAI } from '../../src/adapters/index.js';
import type { AdaptedTrace } from '../../src/adapters/types.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { recordSession } from '../../src/recorder/index.js';
import { LedgerPool } from '../helpers/ledgers.js';
import { graphOf } from '../integrations/ai-sdk-helpers.js';

const load = (name: string): unknown[] =>
  JSON.parse(readFileSync(new URL(`../fixtures/transcripts/${name}`, import.meta.url), 'utf8')) as unknown[];

const pool = new LedgerPool();
afterAll(() => pool.close());

async function replay(ledger: Ledger, trace: AdaptedTrace): Promise<void> {
  for (const tx of trace.transactions) await ledger.commit(tx);
}

describe('SessionRecorder', { timeout: 180_000 }, () => {
  const openai = load('openai-chat.json');
  const anthropic = load('anthropic-messages.json');
  let expectedOpenAI: Awaited<ReturnType<typeof graphOf>>;
  let expectedAnthropic: Awaited<ReturnType<typeof graphOf>>;

  beforeAll(async () => {
    const a = await pool.ledger(1);
    await replay(a, fromOpenAI(openai));
    expectedOpenAI = await graphOf(a);
    const b = await pool.ledger(1);
    await replay(b, fromAnthropic(anthropic));
    expectedAnthropic = await graphOf(b);
  }, 180_000);

  it('gives the replayed transcript’s ledger when the history grows one message at a time (OpenAI, resent whole)', async () => {
    const ledger = await pool.ledger(0);
    const recorder = recordSession(ledger, { format: 'openai' });
    for (let k = 1; k <= openai.length; k++) await recorder.sync(openai.slice(0, k));
    expect(await graphOf(ledger)).toEqual(expectedOpenAI);
    expect(ledger.lastTx).toBe(fromOpenAI(openai).transactions.length);

    const again = await recorder.sync(openai);
    expect(again).toEqual({ receipts: [], newMessages: 0, pending: false });
    expect(await graphOf(ledger)).toEqual(expectedOpenAI);
  });

  it('gives the same ledger from messages appended as they come (Anthropic)', async () => {
    const ledger = await pool.ledger(0);
    const recorder = recordSession(ledger, { format: 'anthropic' });
    for (const m of anthropic) await recorder.append([m]);
    expect(await graphOf(ledger)).toEqual(expectedAnthropic);
    expect(recorder.size).toBe(anthropic.length);
  });

  it('holds an assistant turn back until its tool results arrive, then commits it once', async () => {
    const ledger = await pool.ledger(0);
    const recorder = recordSession(ledger, { format: 'openai' });
    const head = openai.slice(0, 3); // system, user, assistant with two calls
    const r1 = await recorder.sync(head);
    expect(r1.pending).toBe(true);
    expect(ledger.lastTx).toBe(1); // the task only
    const r2 = await recorder.sync(openai.slice(0, 4)); // one of the two results
    expect(r2.pending).toBe(true);
    const r3 = await recorder.sync(openai.slice(0, 5));
    expect(r3.pending).toBe(false);
    expect(r3.receipts).toHaveLength(1);
    expect(ledger.lastTx).toBe(2);
  });

  it('after a restart, a new recorder given the whole history commits only what the ledger lacks', async () => {
    const ledger = await pool.ledger(0);
    await recordSession(ledger, { format: 'openai' }).sync(openai.slice(0, 5));
    const tx = ledger.lastTx;
    const fresh = recordSession(ledger, { format: 'openai' });
    const r = await fresh.sync(openai);
    expect(r.receipts.length).toBe(fromOpenAI(openai).transactions.length - tx);
    expect(await graphOf(ledger)).toEqual(expectedOpenAI);
  });

  it('records an unparseable message as a plain result with a counted warning, never throwing', async () => {
    const ledger = await pool.ledger(0);
    const recorder = recordSession(ledger, { format: 'openai' });
    const cyclic: Record<string, unknown> = { role: 'assistant' };
    Object.defineProperty(cyclic, 'content', {
      enumerable: true,
      get() {
        throw new Error('unreadable');
      },
    });
    const r = await recorder.sync([
      { role: 'user', content: 'Fix the bug.' },
      42,
      { role: 'wizard', content: 'x' },
      cyclic,
    ]);
    expect(r.receipts).toHaveLength(4);
    expect(recorder.stats.byCategory.malformed).toBe(3);
    expect(recorder.stats.warnings.map((w) => w.reason)).toEqual([
      'message is not an object',
      'unknown role "wizard"',
      'unparseable message: unreadable',
    ]);
    const plain = (await graphOf(ledger)).nodes.filter((n) => n.kind === 'tool_result');
    expect(plain.map((n) => n.meta)).toEqual([{ unparsed: true }, { unparsed: true }, { unparsed: true }]);
  });

  it('keys messages by id when they have one, wherever they are resent', async () => {
    const ledger = await pool.ledger(0);
    const recorder = recordSession(ledger, { format: 'ai-sdk' });
    const task = { id: 'm1', role: 'user', content: 'Rename foo to bar.' };
    const reply = { id: 'm2', role: 'assistant', content: 'Renamed.' };
    await recorder.sync([task, reply]);
    const tx = ledger.lastTx;
    // A framework that trimmed its history resends the reply alone, at another position.
    expect((await recorder.sync([reply])).newMessages).toBe(0);
    expect(ledger.lastTx).toBe(tx);
    expect((await recorder.sync([{ role: 'user', content: 'Thanks' }])).receipts).toHaveLength(1);
  });

  it('rejects an unknown format with INVALID_OPTION', async () => {
    const ledger = await pool.ledger(0);
    expect(() => recordSession(ledger, { format: 'xml' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', details: expect.objectContaining({ field: 'format' }) }),
    );
  });
});
