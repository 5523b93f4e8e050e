import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fromAnthropic,
  fromConversation,
  fromMiniSweAgent,
  fromOpenAI,
  fromSweAgent,
} from '../../src/adapters/index.js';
import { wellFormedName, wellFormedText } from '../../src/adapters/well-formed.js';
import type { LedgerError } from '../../src/errors.js';
import type { Transaction } from '../../src/schema/types.js';
import { LedgerPool } from '../helpers/ledgers.js';
import { node } from './trace-check.js';

/**
 * Regression: a trajectory holding a lone surrogate or a leading byte-order mark made the
 * adapters emit transactions the ledger refuses (INVALID_TEXT), so the whole trajectory could
 * not be ingested. The adapters now make their output well-formed; the ledger stays strict.
 */
const pool = new LedgerPool();
afterAll(() => pool.close());

const load = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/transcripts/${name}`, import.meta.url), 'utf8'));

/**
 * Every text of `value` made hostile: a leading BOM, and a lone surrogate in the middle. Short
 * strings (roles, types, call ids) stay, so the transcript still parses as one.
 */
function hostile(value: unknown): unknown {
  if (typeof value === 'string' && value.length > 12) {
    const half = value.length >> 1;
    return `\ufeff${value.slice(0, half)}\ud800${value.slice(half)}`;
  }
  if (Array.isArray(value)) return value.map(hostile);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hostile(v)]));
  return value;
}

const LONE = /[\ud800-\udfff]/u;
const strings = (txs: readonly Transaction[]): string[] => {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) walk(x);
  };
  walk(txs);
  return out;
};

async function commitAll(transactions: readonly Transaction[]): Promise<number> {
  const ledger = await pool.ledger();
  for (const tx of transactions) await ledger.commit(tx);
  return ledger.lastTx;
}

const ADAPTERS: Array<{ name: string; adapt: () => Transaction[] }> = [
  { name: 'openai', adapt: () => fromOpenAI(hostile(load('openai-chat.json'))).transactions },
  { name: 'anthropic', adapt: () => fromAnthropic(hostile(load('anthropic-messages.json'))).transactions },
  { name: 'mini-swe-agent', adapt: () => fromMiniSweAgent(hostile(load('mini-swe-agent.traj.json'))).transactions },
  { name: 'swe-agent', adapt: () => fromSweAgent(hostile(load('swe-agent.traj'))).transactions },
  {
    name: 'conversation',
    adapt: () =>
      fromConversation([
        {
          date: '2024-05-01',
          turns: [
            { id: 'a\ufeff1', speaker: 'Ann', text: '\ufeffhello \udc00 there' },
            { speaker: '\ud801Bob', text: 'hi' },
          ],
        },
      ]).transactions,
  },
];

describe('adapters make hostile text well-formed at their boundary', () => {
  it.each(ADAPTERS)('$name: every transaction commits; no lone surrogate or leading BOM is left', async ({ adapt }) => {
    const transactions = adapt();
    for (const s of strings(transactions)) {
      expect(LONE.test(s), JSON.stringify(s)).toBe(false);
      expect(s.charCodeAt(0)).not.toBe(0xfeff);
    }
    expect(strings(transactions).some((s) => s.includes('\ufffd'))).toBe(true);
    expect(await commitAll(transactions)).toBe(transactions.length);
  });

  it('replaces a lone surrogate by U+FFFD and drops a leading BOM in message text', () => {
    const trace = fromOpenAI([
      { role: 'user', content: '\ufeffFix \ud83d the bug' },
      { role: 'assistant', content: 'Looking \udc00 now.' },
    ]);
    expect(node(trace, 'task').body).toBe('Fix \ufffd the bug');
    expect(trace.stats.warnings.some((w) => w.reason.startsWith('text made well-formed'))).toBe(true);
    // Well-formed pairs and a BOM inside text are kept: they round-trip.
    expect(wellFormedText('a \ud83d\ude00 b\ufeffc')).toBe('a \ud83d\ude00 b\ufeffc');
    expect(wellFormedName('src/\ufeffa.py')).toBe('src/a.py');
  });

  it('the ledger itself still refuses a lone surrogate with INVALID_TEXT', async () => {
    const ledger = await pool.ledger();
    const error = await ledger
      .commit({ epoch: 1, nodes: [{ id: 'm', kind: 'message', role: 'user', body: 'a \ud800 b' }] })
      .catch((e: LedgerError) => e);
    expect(error).toMatchObject({ code: 'INVALID_TEXT' });
  });
});
